//! `tasks/get`, `tasks/update` and `tasks/cancel` (the tasks extension, 2026-07-28): each needs
//! the extension in this request's client capabilities, and names a task of this caller. A task
//! this replica runs is answered from memory; with tasks shared
//! ([`TaskShare`](crate::store::TaskShare)), one another replica runs is read from the store,
//! and an answer or a cancellation is relayed to that replica.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::clock::{Fraction, rfc3339};
use crate::protocol::ProtocolError;
use crate::protocol::answer::Answer;
use crate::protocol::request::Request;
use crate::server::Server;
use crate::store::{SharedTask, TaskRelay, TaskShare};
use crate::task::{self, Task};

/// Where the task a `tasks/*` request names is.
enum Named {
    /// This replica runs it (or keeps its end).
    Here(Arc<Task>),
    /// Not here: the shared store may hold it.
    Shared {
        share: Arc<dyn TaskShare>,
        id: String,
        owner: Option<[u8; 32]>,
    },
}

/// The task a `tasks/*` request names.
fn named(server: &Server, request: &Request<'_>) -> Result<Named, ProtocolError> {
    let declares = request
        .client_capabilities
        .as_ref()
        .and_then(|c| c.get("extensions"))
        .and_then(|e| e.get(task::EXTENSION))
        .is_some();
    if !declares {
        return Err(ProtocolError::MissingExtension(task::EXTENSION));
    }
    let method = match request.method {
        "tasks/get" => "tasks/get",
        "tasks/update" => "tasks/update",
        _ => "tasks/cancel",
    };
    let Some(Value::String(id)) = request.params.get("taskId") else {
        return Err(ProtocolError::TaskIdMissing(method));
    };
    let owner = request.session.principal().map(|p| p.digest());
    let tasks = &server.inner.tasks;
    if let Some(task) = tasks.find(id, owner) {
        return Ok(Named::Here(task));
    }
    match tasks.share() {
        // Kept here but another caller's: the store would say the same.
        Some(_) if tasks.local(id).is_some() => Err(ProtocolError::UnknownTask(id.clone())),
        // Not an id any replica issues: the store is not asked about it.
        Some(_) if !task::is_task_id(id) => Err(ProtocolError::UnknownTask(id.clone())),
        Some(share) => Ok(Named::Shared {
            share: Arc::clone(share),
            id: id.clone(),
            owner,
        }),
        None => Err(ProtocolError::UnknownTask(id.clone())),
    }
}

/// The shared copy of task `id`, if the store holds it and it is `owner`'s.
async fn loaded(
    share: &dyn TaskShare,
    id: &str,
    owner: Option<[u8; 32]>,
) -> Result<SharedTask, ProtocolError> {
    match share.load(id).await? {
        Some(task) if task.owner == owner => Ok(task),
        _ => Err(ProtocolError::UnknownTask(id.to_owned())),
    }
}

/// `tasks/get`: the task, with its result, its error or the asks it waits on.
pub(crate) fn get(server: &Server, request: &mut Request<'_>) -> Answer {
    match named(server, request) {
        Ok(Named::Here(task)) => Answer::Now(Ok(Value::Object(task.detailed()))),
        Ok(Named::Shared { share, id, owner }) => {
            let begun = request.begin(server, false);
            let work = async move {
                let task = loaded(share.as_ref(), &id, owner).await?;
                Ok(Value::Object(task.detailed))
            };
            Answer::run(begun, work)
        }
        Err(error) => Answer::Now(Err(error)),
    }
}

/// `tasks/update`: answers to the asks the task waits on; an empty acknowledgement.
pub(crate) fn update(server: &Server, request: &mut Request<'_>) -> Answer {
    let named = match named(server, request) {
        Ok(named) => named,
        Err(error) => return Answer::Now(Err(error)),
    };
    let responses = match request.params.get("inputResponses") {
        Some(Value::Object(responses)) => Some(responses.clone()),
        None => None,
        Some(_) => return Answer::Now(Err(ProtocolError::InputResponsesNotObject)),
    };
    match named {
        Named::Here(task) => {
            if let Some(responses) = responses {
                task.answer(responses);
            }
            Answer::Now(Ok(Value::Object(Map::new())))
        }
        Named::Shared { share, id, owner } => {
            let begun = request.begin(server, false);
            let work = async move {
                loaded(share.as_ref(), &id, owner).await?;
                if let Some(responses) = responses {
                    share.relay(&id, TaskRelay::Answer(responses)).await?;
                }
                Ok(Value::Object(Map::new()))
            };
            Answer::run(begun, work)
        }
    }
}

/// `tasks/cancel`: stops the task (a task that ended stays as it is); an empty
/// acknowledgement either way. A task another replica runs is marked cancelled in the store at
/// once (so every replica reads it so), and its replica is told to drop its host code.
pub(crate) fn cancel(server: &Server, request: &mut Request<'_>) -> Answer {
    match named(server, request) {
        Ok(Named::Here(task)) => {
            task.cancel();
            Answer::Now(Ok(Value::Object(Map::new())))
        }
        Ok(Named::Shared { share, id, owner }) => {
            let begun = request.begin(server, false);
            let work = async move {
                let task = loaded(share.as_ref(), &id, owner).await?;
                if !task.terminal {
                    share.save(cancelled(task)).await?;
                    share.relay(&id, TaskRelay::Cancel).await?;
                }
                Ok(Value::Object(Map::new()))
            };
            Answer::run(begun, work)
        }
        Err(error) => Answer::Now(Err(error)),
    }
}

/// The copy of a task another replica runs, cancelled now.
fn cancelled(mut task: SharedTask) -> SharedTask {
    let detailed = &mut task.detailed;
    for ended in ["result", "error", "inputRequests"] {
        detailed.remove(ended);
    }
    detailed.insert("status".into(), Value::from("cancelled"));
    let now = rfc3339(std::time::SystemTime::now(), Fraction::Millis);
    detailed.insert("lastUpdatedAt".into(), Value::from(now));
    let ttl = detailed
        .get("ttlMs")
        .and_then(Value::as_u64)
        .unwrap_or(300_000);
    task.keep = std::time::Duration::from_millis(ttl);
    task.version += 1;
    task.terminal = true;
    task
}
