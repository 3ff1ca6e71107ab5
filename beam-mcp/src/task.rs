//! Tasks (the `io.modelcontextprotocol/tasks` extension, SEP-2663, at 2026-07-28): a call to a
//! task-supporting tool that must wait becomes a task the client polls with `tasks/get`,
//! answers with `tasks/update` and stops with `tasks/cancel`. This room keeps the tasks; the
//! dispatch decides when a call becomes one, the methods serve the `tasks/*` requests.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use serde_json::{Map, Value};

use crate::clock::{Fraction, rfc3339};
use crate::store::tasks::Relayed;
use crate::store::{SharedTask, StoreError, TaskRelay, TaskShare};
use tokio::sync::{Notify, oneshot};

/// The extension's key under `capabilities.extensions`.
pub(crate) const EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// Whether a tool may run as a task (`#[tool(task = "optional")]`).
///
/// ```
/// assert_eq!(beam_mcp::TaskSupport::default(), beam_mcp::TaskSupport::Forbidden);
/// assert_eq!(beam_mcp::TaskSupport::Required.as_str(), "required");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TaskSupport {
    /// Never a task: every call is answered when it ends.
    #[default]
    Forbidden,
    /// A task when the client declares the extension; a plain call otherwise.
    Optional,
    /// Only as a task: a client that does not declare the extension is refused (`-32021`).
    Required,
}

impl TaskSupport {
    /// The wire name (`execution.taskSupport`).
    pub fn as_str(self) -> &'static str {
        match self {
            TaskSupport::Forbidden => "forbidden",
            TaskSupport::Optional => "optional",
            TaskSupport::Required => "required",
        }
    }
}

/// How a task ended, or that it has not.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Status {
    Working,
    InputRequired,
    /// The tool ran: its result (`isError` for a tool's own error).
    Completed(Value),
    /// A protocol-level failure: the JSON-RPC error object.
    Failed(Value),
    Cancelled,
}

impl Status {
    fn name(&self) -> &'static str {
        match self {
            Status::Working => "working",
            Status::InputRequired => "input_required",
            Status::Completed(_) => "completed",
            Status::Failed(_) => "failed",
            Status::Cancelled => "cancelled",
        }
    }

    fn terminal(&self) -> bool {
        matches!(
            self,
            Status::Completed(_) | Status::Failed(_) | Status::Cancelled
        )
    }
}

/// The bounds of a server's tasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TaskLimits {
    /// Tasks kept at once (running or ended within their lifetime).
    pub(crate) max: usize,
    /// Tasks running at once (host code executing or waiting on its client).
    pub(crate) running: usize,
    /// The most tasks one principal may keep, and run, at once.
    pub(crate) share: Share,
    /// How long a task may run; past it, it is cancelled.
    pub(crate) lifetime: Duration,
    /// How long a task stays readable after it was last updated.
    pub(crate) ttl: Duration,
    /// How often a client is asked to poll.
    pub(crate) poll: Duration,
}

/// One principal's share of the task bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Share {
    pub(crate) kept: usize,
    pub(crate) running: usize,
}

impl Default for TaskLimits {
    fn default() -> Self {
        TaskLimits {
            max: 1000,
            running: 64,
            share: Share {
                kept: 250,
                running: 16,
            },
            lifetime: Duration::from_secs(3600),
            ttl: Duration::from_secs(300),
            poll: Duration::from_millis(500),
        }
    }
}

/// Why no task was created.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TasksFull {
    /// The server keeps or runs as many tasks as it may.
    All,
    /// The caller keeps or runs its whole share.
    Share,
}

/// One task.
pub(crate) struct Task {
    pub(crate) id: String,
    owner: Option<[u8; 32]>,
    /// How long it may run.
    lifetime: Duration,
    created: SystemTime,
    ttl: Duration,
    poll: Duration,
    state: Mutex<State>,
    cancelled: AtomicBool,
    cancel: Notify,
    /// Asks made so far, for keys made from the call order.
    asks: AtomicUsize,
    /// Where other replicas read it, when the server shares its tasks.
    share: Option<Arc<dyn TaskShare>>,
    /// Rises with each copy given to the share, so it keeps the newest.
    version: AtomicU64,
}

struct State {
    status: Status,
    updated: SystemTime,
    /// Asks waiting for the client, by key: the request, and where its answer goes.
    waiting: BTreeMap<String, (Value, oneshot::Sender<Value>)>,
}

impl Task {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `taskId`, `status`, the timestamps and the hints: the `CreateTaskResult` fields.
    pub(crate) fn envelope(&self) -> Map<String, Value> {
        let state = self.lock();
        self.envelope_of(&state)
    }

    fn envelope_of(&self, state: &State) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert("taskId".into(), Value::from(self.id.as_str()));
        map.insert("status".into(), Value::from(state.status.name()));
        map.insert(
            "createdAt".into(),
            Value::from(rfc3339(self.created, Fraction::Millis)),
        );
        map.insert(
            "lastUpdatedAt".into(),
            Value::from(rfc3339(state.updated, Fraction::Millis)),
        );
        map.insert("ttlMs".into(), Value::from(millis(self.ttl)));
        map.insert("pollIntervalMs".into(), Value::from(millis(self.poll)));
        map
    }

    /// What `tasks/get` answers: the envelope, and the result, the error or the waiting asks.
    pub(crate) fn detailed(&self) -> Map<String, Value> {
        self.detailed_of(&self.lock())
    }

    fn detailed_of(&self, state: &State) -> Map<String, Value> {
        let mut map = self.envelope_of(state);
        match &state.status {
            Status::Completed(result) => {
                map.insert("result".into(), result.clone());
            }
            Status::Failed(error) => {
                map.insert("error".into(), error.clone());
            }
            Status::InputRequired => {
                let requests: Map<String, Value> = state
                    .waiting
                    .iter()
                    .map(|(key, (request, _))| (key.clone(), request.clone()))
                    .collect();
                map.insert("inputRequests".into(), Value::Object(requests));
            }
            Status::Working | Status::Cancelled => {}
        }
        map
    }

    /// The copy other replicas read, with the next version.
    fn snapshot(&self) -> SharedTask {
        let state = self.lock();
        let version = self.version.fetch_add(1, Ordering::AcqRel) + 1;
        let terminal = state.status.terminal();
        let keep = if terminal {
            self.ttl
        } else {
            let ran = self.created.elapsed().unwrap_or_default();
            self.lifetime.saturating_sub(ran) + self.ttl
        };
        SharedTask {
            id: self.id.clone(),
            owner: self.owner,
            version,
            terminal,
            keep,
            detailed: self.detailed_of(&state),
        }
    }

    /// Gives the share its first copy and waits until it is kept: a task is announced only once
    /// every replica can read it. With `shares`, its owner's shares are counted across the
    /// replicas: `Ok(false)` past them, and nothing kept.
    pub(crate) async fn shared(&self, shares: Option<Share>) -> Result<bool, StoreError> {
        match (&self.share, shares) {
            (Some(share), Some(most)) => share.open(self.snapshot(), most.kept, most.running).await,
            (Some(share), None) => share.save(self.snapshot()).await.map(|()| true),
            (None, _) => Ok(true),
        }
    }

    /// Gives the share a copy after a change, in the background; a failure is logged (the
    /// replica that runs the task still answers for it).
    fn mirror(&self) {
        let Some(share) = &self.share else {
            return;
        };
        let saved = share.save(self.snapshot());
        let logged = |result: Result<(), StoreError>| {
            if let Err(error) = result {
                tracing::error!(
                    detail = %crate::caller_text::Logged(error.detail()),
                    "a task's change could not be shared with the other replicas"
                );
            }
        };
        match saved.into_ready() {
            Ok(result) => logged(result),
            Err(later) => {
                if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                    runtime.spawn(async move { logged(later.await) });
                }
            }
        }
    }

    /// Ends the task with `status`, unless it already ended (a cancel wins over a late result).
    pub(crate) fn finish(&self, status: Status) {
        let changed = {
            let mut state = self.lock();
            let changed = !state.status.terminal();
            if changed {
                state.status = status;
                state.updated = SystemTime::now();
                state.waiting.clear();
            }
            changed
        };
        if changed {
            self.mirror();
        }
    }

    /// Cancels the task (nothing happens to one that ended); the runner drops the host code.
    pub(crate) fn cancel(&self) {
        self.finish(Status::Cancelled);
        self.cancelled.store(true, Ordering::Release);
        self.cancel.notify_waiters();
    }

    /// Completes when the task is cancelled.
    pub(crate) async fn cancelled(&self) {
        let notified = self.cancel.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        if self.cancelled.load(Ordering::Acquire) {
            return;
        }
        notified.await;
    }

    /// The key of the next ask without one of its own.
    pub(crate) fn next_key(&self, prefix: &str) -> String {
        format!("{prefix}-{}", self.asks.fetch_add(1, Ordering::Relaxed) + 1)
    }

    /// Parks the task on an ask; refused when the task ended or the key already waits.
    pub(crate) fn ask(
        &self,
        key: String,
        request: Value,
    ) -> Result<oneshot::Receiver<Value>, Parked> {
        let mut state = self.lock();
        if state.status.terminal() {
            return Err(Parked::Ended);
        }
        if state.waiting.contains_key(&key) {
            return Err(Parked::Duplicate);
        }
        let (tx, rx) = oneshot::channel();
        state.waiting.insert(key, (request, tx));
        state.status = Status::InputRequired;
        state.updated = SystemTime::now();
        drop(state);
        self.mirror();
        Ok(rx)
    }

    /// Forgets an ask nobody answered in time; the task works again once nothing waits.
    pub(crate) fn give_up(&self, key: &str) {
        {
            let mut state = self.lock();
            state.waiting.remove(key);
            if state.status == Status::InputRequired && state.waiting.is_empty() {
                state.status = Status::Working;
                state.updated = SystemTime::now();
            }
        }
        self.mirror();
    }

    /// Delivers the client's answers (`tasks/update`): each to the ask waiting under its key;
    /// other keys are ignored. The task works again once nothing waits.
    pub(crate) fn answer(&self, responses: Map<String, Value>) {
        {
            let mut state = self.lock();
            for (key, answer) in responses {
                if let Some((_, tx)) = state.waiting.remove(&key) {
                    let _ = tx.send(answer);
                }
            }
            if state.status == Status::InputRequired && state.waiting.is_empty() {
                state.status = Status::Working;
                state.updated = SystemTime::now();
            }
        }
        self.mirror();
    }

    fn running(&self) -> bool {
        !self.lock().status.terminal()
    }

    /// How long the task may run before it is cancelled.
    pub(crate) fn lifetime(&self) -> Duration {
        self.lifetime
    }

    fn expired(&self) -> bool {
        let state = self.lock();
        state.status.terminal()
            && state
                .updated
                .elapsed()
                .is_ok_and(|elapsed| elapsed > self.ttl)
    }
}

/// Why an ask could not park a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Parked {
    /// The task ended (cancelled, or its result is in).
    Ended,
    /// Another ask of this task waits under the same key.
    Duplicate,
}

/// A server's tasks.
pub(crate) struct Tasks {
    limits: TaskLimits,
    map: Mutex<HashMap<String, Arc<Task>>>,
    /// Where the other replicas read them, when the host shares them.
    share: Option<Arc<dyn TaskShare>>,
}

impl Tasks {
    pub(crate) fn new(limits: TaskLimits, share: Option<Arc<dyn TaskShare>>) -> Self {
        Tasks {
            limits,
            map: Mutex::new(HashMap::new()),
            share,
        }
    }

    /// Where the other replicas' tasks are read, if they are shared.
    pub(crate) fn share(&self) -> Option<&Arc<dyn TaskShare>> {
        self.share.as_ref()
    }

    /// One principal's share of the bounds.
    pub(crate) fn shares(&self) -> Share {
        self.limits.share
    }

    /// Drops the task `id` unannounced (refused by the owner's share across replicas): nothing
    /// of it is kept or mirrored.
    pub(crate) fn forget(&self, id: &str) {
        self.lock().remove(id);
    }

    /// The task `id` if this replica runs it or keeps it (whoever owns it).
    pub(crate) fn local(&self, id: &str) -> Option<Arc<Task>> {
        let map = self.lock();
        map.get(id).filter(|task| !task.expired()).cloned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Task>>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new working task of `owner`, readable at once, or why there is none: the server's
    /// bounds of kept and running tasks (after tasks past their lifetime are dropped), then the
    /// owner's share of each when `shared` (its principal tells callers apart; an anonymous
    /// one, or stdio's one caller, is held to the bounds alone).
    pub(crate) fn create(
        &self,
        owner: Option<[u8; 32]>,
        shared: bool,
    ) -> Result<Arc<Task>, TasksFull> {
        let mut map = self.lock();
        if map.len() >= self.limits.max {
            map.retain(|_, task| !task.expired());
        }
        // A scan of at most `max` tasks, under the lock that creates: cheaper than keeping
        // counts in step with every status change.
        let (mut running, mut kept_by_owner, mut running_by_owner) = (0, 0, 0);
        for task in map.values() {
            let is_running = task.running();
            running += usize::from(is_running);
            if shared && task.owner == owner {
                kept_by_owner += 1;
                running_by_owner += usize::from(is_running);
            }
        }
        if map.len() >= self.limits.max || running >= self.limits.running {
            return Err(TasksFull::All);
        }
        if shared
            && (kept_by_owner >= self.limits.share.kept
                || running_by_owner >= self.limits.share.running)
        {
            return Err(TasksFull::Share);
        }
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).expect("the operating system's random source");
        let id: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let now = SystemTime::now();
        let task = Arc::new(Task {
            id: id.clone(),
            owner,
            lifetime: self.limits.lifetime,
            created: now,
            ttl: self.limits.ttl,
            poll: self.limits.poll,
            state: Mutex::new(State {
                status: Status::Working,
                updated: now,
                waiting: BTreeMap::new(),
            }),
            cancelled: AtomicBool::new(false),
            cancel: Notify::new(),
            asks: AtomicUsize::new(0),
            share: self.share.clone(),
            version: AtomicU64::new(0),
        });
        map.insert(id, Arc::clone(&task));
        Ok(task)
    }

    /// The task `id` of `owner`, unless it is unknown, another caller's or past its lifetime.
    pub(crate) fn find(&self, id: &str, owner: Option<[u8; 32]>) -> Option<Arc<Task>> {
        let mut map = self.lock();
        let task = map.get(id)?;
        if task.expired() {
            map.remove(id);
            return None;
        }
        (task.owner == owner).then(|| Arc::clone(task))
    }
}

impl Relayed for Tasks {
    fn relayed(&self, id: &str, relay: TaskRelay) {
        let Some(task) = self.local(id) else {
            return;
        };
        match relay {
            TaskRelay::Answer(responses) => task.answer(responses),
            TaskRelay::Cancel => task.cancel(),
        }
    }
}

/// True for what [`Tasks::create`] issues as an id: 16 random bytes in lowercase hex.
pub(crate) fn is_task_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[tokio::test]
    async fn asks_park_the_task_until_every_one_is_answered() {
        let tasks = Tasks::new(TaskLimits::default(), None);
        let task = tasks.create(None, false).unwrap();
        assert_eq!(task.detailed()["status"], "working");
        let a = task
            .ask("a".into(), json!({ "method": "roots/list" }))
            .unwrap();
        let b = task
            .ask("b".into(), json!({ "method": "roots/list" }))
            .unwrap();
        assert_eq!(
            task.ask("a".into(), json!({})).err(),
            Some(Parked::Duplicate),
            "a key waits once"
        );
        let detailed = task.detailed();
        assert_eq!(detailed["status"], "input_required");
        assert_eq!(detailed["inputRequests"].as_object().unwrap().len(), 2);
        task.answer(
            json!({ "a": { "roots": [] }, "zzz": 1 })
                .as_object()
                .unwrap()
                .clone(),
        );
        assert_eq!(a.await.unwrap(), json!({ "roots": [] }));
        let detailed = task.detailed();
        assert_eq!(detailed["status"], "input_required");
        assert_eq!(
            detailed["inputRequests"],
            json!({ "b": { "method": "roots/list" } })
        );
        task.answer(json!({ "b": 2 }).as_object().unwrap().clone());
        assert_eq!(b.await.unwrap(), json!(2));
        assert_eq!(task.detailed()["status"], "working");
        task.finish(Status::Completed(json!({ "content": [] })));
        task.cancel();
        assert_eq!(
            task.detailed()["status"],
            "completed",
            "a cancel after the end changes nothing"
        );
    }

    #[test]
    fn tasks_are_their_owners_bounded_and_dropped_after_their_lifetime() {
        let tasks = Tasks::new(
            TaskLimits {
                max: 1,
                ttl: Duration::from_millis(30),
                poll: Duration::from_millis(10),
                ..TaskLimits::default()
            },
            None,
        );
        let task = tasks.create(Some([1; 32]), true).unwrap();
        assert_eq!(task.id.len(), 32);
        // What a replica accepts as an id to ask the shared store about: only what it issues.
        assert!(is_task_id(&task.id));
        for not_issued in [
            "",
            "no-such-task",
            &task.id.to_uppercase(),
            &format!("{}0", task.id),
        ] {
            assert!(!is_task_id(not_issued), "{not_issued}");
        }
        assert!(tasks.find(&task.id, Some([1; 32])).is_some());
        assert!(tasks.find(&task.id, None).is_none());
        assert!(
            tasks.create(None, false).is_err(),
            "bound reached by a running task"
        );
        task.finish(Status::Cancelled);
        std::thread::sleep(Duration::from_millis(50));
        assert!(
            tasks.create(None, false).is_ok(),
            "the ended task made room"
        );
        assert!(tasks.find(&task.id, Some([1; 32])).is_none());
    }

    #[test]
    fn running_tasks_are_bounded_and_a_principal_holds_its_share_only() {
        let tasks = Tasks::new(
            TaskLimits {
                max: 10,
                running: 4,
                share: Share {
                    kept: 3,
                    running: 2,
                },
                ..TaskLimits::default()
            },
            None,
        );
        let alice = Some([1; 32]);
        let a1 = tasks.create(alice, true).unwrap();
        let _a2 = tasks.create(alice, true).unwrap();
        assert_eq!(
            tasks.create(alice, true).err(),
            Some(TasksFull::Share),
            "two running"
        );
        // An ended task still counts as kept, not as running.
        a1.finish(Status::Cancelled);
        let _a3 = tasks.create(alice, true).unwrap();
        assert_eq!(
            tasks.create(alice, true).err(),
            Some(TasksFull::Share),
            "three kept"
        );
        // Another principal has its own share; the anonymous one is held to the bounds alone.
        let _b1 = tasks.create(Some([2; 32]), true).unwrap();
        let _c1 = tasks.create(None, false).unwrap();
        assert_eq!(
            tasks.create(None, false).err(),
            Some(TasksFull::All),
            "four running in all"
        );
    }
}
