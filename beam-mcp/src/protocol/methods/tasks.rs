//! `tasks/get`, `tasks/update` and `tasks/cancel` (the tasks extension, 2026-07-28): each needs
//! the extension in this request's client capabilities, and names a task of this caller.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::protocol::ProtocolError;
use crate::protocol::request::Request;
use crate::server::Server;
use crate::task::{self, Task};

/// The task a `tasks/*` request names.
fn named(server: &Server, request: &Request<'_>) -> Result<Arc<Task>, ProtocolError> {
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
    server
        .inner
        .tasks
        .find(id, owner)
        .ok_or_else(|| ProtocolError::UnknownTask(id.clone()))
}

/// `tasks/get`: the task, with its result, its error or the asks it waits on.
pub(crate) fn get(server: &Server, request: &Request<'_>) -> Result<Value, ProtocolError> {
    Ok(Value::Object(named(server, request)?.detailed()))
}

/// `tasks/update`: answers to the asks the task waits on; an empty acknowledgement.
pub(crate) fn update(server: &Server, request: &Request<'_>) -> Result<Value, ProtocolError> {
    let task = named(server, request)?;
    match request.params.get("inputResponses") {
        Some(Value::Object(responses)) => task.answer(responses.clone()),
        None => {}
        Some(_) => return Err(ProtocolError::InputResponsesNotObject),
    }
    Ok(Value::Object(Map::new()))
}

/// `tasks/cancel`: stops the task (a task that ended stays as it is); an empty
/// acknowledgement either way.
pub(crate) fn cancel(server: &Server, request: &Request<'_>) -> Result<Value, ProtocolError> {
    named(server, request)?.cancel();
    Ok(Value::Object(Map::new()))
}
