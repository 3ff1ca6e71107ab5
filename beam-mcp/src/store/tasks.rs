//! Tasks shared across replicas: the replica that runs a task keeps a copy of what `tasks/get`
//! answers in a shared store, and the others read it there; an answer to the task's asks or a
//! cancellation that reaches another replica is relayed to the one that runs it.

use std::sync::{Arc, Weak};
use std::time::Duration;

use serde_json::{Map, Value};

use super::{StoreError, StoreFuture};

/// A task as every replica may read it: what `tasks/get` answers, with its owner and version.
#[derive(Debug, Clone, PartialEq)]
pub struct SharedTask {
    /// The task's id.
    pub id: String,
    /// The digest of the principal it belongs to (`None`: a principal that tells no caller
    /// apart). Only its owner may read, answer or cancel it.
    pub owner: Option<[u8; 32]>,
    /// Rises with each change: a store keeps the highest it was given, and a task that ended
    /// (`terminal`) is never overwritten by one that has not.
    pub version: u64,
    /// It completed, failed or was cancelled: nothing changes it after.
    pub terminal: bool,
    /// How long the store keeps it: the task's remaining lifetime and its time to live while it
    /// runs, its time to live (5 minutes by default) once it ended.
    pub keep: Duration,
    /// What `tasks/get` answers: `taskId`, `status`, the timestamps, the hints, and the result,
    /// the error or the waiting `inputRequests`.
    pub detailed: Map<String, Value>,
}

/// What a replica asks of the one that runs a task.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum TaskRelay {
    /// `tasks/update`'s `inputResponses`, for the asks the task waits on.
    Answer(Map<String, Value>),
    /// `tasks/cancel`.
    Cancel,
}

/// Where tasks are shared between the replicas of one server. The Redis engine implements it
/// (`redis::Redis::tasks`, feature `redis`).
///
/// ```
/// use beam_mcp::store::{SharedTask, StoreError, StoreFuture, TaskDelivery, TaskRelay, TaskShare};
/// use std::collections::HashMap;
/// use std::sync::Mutex;
///
/// /// One process's map, standing in for a shared store.
/// #[derive(Default)]
/// struct InProcess(Mutex<HashMap<String, SharedTask>>);
///
/// impl TaskShare for InProcess {
///     fn save(&self, task: SharedTask) -> StoreFuture<Result<(), StoreError>> {
///         let mut map = self.0.lock().unwrap();
///         let keep = match map.get(&task.id) {
///             Some(held) => !held.terminal && (task.terminal || task.version > held.version),
///             None => true,
///         };
///         if keep {
///             map.insert(task.id.clone(), task);
///         }
///         StoreFuture::ready(Ok(()))
///     }
///     fn load(&self, id: &str) -> StoreFuture<Result<Option<SharedTask>, StoreError>> {
///         StoreFuture::ready(Ok(self.0.lock().unwrap().get(id).cloned()))
///     }
///     fn relay(&self, _id: &str, _relay: TaskRelay) -> StoreFuture<Result<(), StoreError>> {
///         StoreFuture::ready(Ok(())) // one process: the task is always local
///     }
///     fn deliver_to(&self, _delivery: TaskDelivery) {}
/// }
///
/// let server = beam_mcp::Server::builder().task_share(InProcess::default()).build().unwrap();
/// # let _ = server;
/// ```
pub trait TaskShare: Send + Sync + 'static {
    /// Keeps `task`, unless the store holds a higher version of it, or one that ended.
    fn save(&self, task: SharedTask) -> StoreFuture<Result<(), StoreError>>;

    /// Keeps a new task's first copy, unless its owner already keeps `kept` tasks (running or
    /// still readable) or runs `running`, across every replica: then `false`, and nothing is
    /// kept. Asked only for an owner that tells callers apart. By default the copy is saved and
    /// the owner is held to each replica's own shares; the Redis engine counts across replicas.
    fn open(
        &self,
        task: SharedTask,
        kept: usize,
        running: usize,
    ) -> StoreFuture<Result<bool, StoreError>> {
        let _ = (kept, running);
        match self.save(task).into_ready() {
            Ok(saved) => StoreFuture::ready(saved.map(|()| true)),
            Err(later) => StoreFuture::later(async move { later.await.map(|()| true) }),
        }
    }

    /// The task `id`, if the store holds it.
    fn load(&self, id: &str) -> StoreFuture<Result<Option<SharedTask>, StoreError>>;

    /// Tells the replica that runs task `id` what a client asked of it elsewhere.
    fn relay(&self, id: &str, relay: TaskRelay) -> StoreFuture<Result<(), StoreError>>;

    /// From now on, hands what other replicas relay to `delivery`. Called once, when the
    /// server is built.
    fn deliver_to(&self, delivery: TaskDelivery);
}

impl<T: TaskShare + ?Sized> TaskShare for Arc<T> {
    fn save(&self, task: SharedTask) -> StoreFuture<Result<(), StoreError>> {
        (**self).save(task)
    }

    fn open(
        &self,
        task: SharedTask,
        kept: usize,
        running: usize,
    ) -> StoreFuture<Result<bool, StoreError>> {
        (**self).open(task, kept, running)
    }

    fn load(&self, id: &str) -> StoreFuture<Result<Option<SharedTask>, StoreError>> {
        (**self).load(id)
    }

    fn relay(&self, id: &str, relay: TaskRelay) -> StoreFuture<Result<(), StoreError>> {
        (**self).relay(id, relay)
    }

    fn deliver_to(&self, delivery: TaskDelivery) {
        (**self).deliver_to(delivery)
    }
}

/// What applies another replica's relays: this replica's tasks.
pub(crate) trait Relayed: Send + Sync + 'static {
    /// Applies `relay` to task `id` if this replica runs it; anything else is ignored.
    fn relayed(&self, id: &str, relay: TaskRelay);
}

/// Where a [`TaskShare`] hands what other replicas relayed: this replica's running tasks. It
/// holds them weakly, so a store that outlives its server delivers to no one.
#[derive(Clone)]
pub struct TaskDelivery {
    tasks: Weak<dyn Relayed>,
}

impl TaskDelivery {
    pub(crate) fn new<R: Relayed>(tasks: &Arc<R>) -> TaskDelivery {
        let tasks: Weak<dyn Relayed> = Arc::downgrade(tasks) as Weak<dyn Relayed>;
        TaskDelivery { tasks }
    }

    /// Applies `relay` to task `id` if this replica runs it (the relaying replica checked its
    /// owner); anything else is ignored.
    pub fn deliver(&self, id: &str, relay: TaskRelay) {
        if let Some(tasks) = self.tasks.upgrade() {
            tasks.relayed(id, relay);
        }
    }
}

impl std::fmt::Debug for TaskDelivery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskDelivery")
            .field("server_alive", &(self.tasks.strong_count() > 0))
            .finish()
    }
}
