//! One function per method: the result object, before the per-revision decoration.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::core::Request;
use super::cursor::{self, CursorError};
use super::{ProtocolError, Reply, Revision, Session};
use crate::Server;
use crate::panic::CatchUnwind;
use crate::tool::{CallToolResult, ToolContext, ToolFault};

pub(crate) fn discover(server: &Server) -> Value {
    let inner = &server.inner;
    let mut result = Map::new();
    result.insert(
        "supportedVersions".into(),
        Value::from(inner.supported_names.clone()),
    );
    result.insert("capabilities".into(), inner.capabilities.clone());
    if let Some(instructions) = &inner.instructions {
        result.insert("instructions".into(), Value::from(instructions.as_str()));
    }
    inner.discover_cache.stamp(&mut result);
    Value::Object(result)
}

/// The legacy handshake: echo a served version, or offer the newest legacy one we serve.
pub(crate) fn initialize(
    server: &Server,
    session: &Session,
    params: &Map<String, Value>,
) -> Result<Value, ProtocolError> {
    let inner = &server.inner;
    let requested = params
        .get("protocolVersion")
        .and_then(Value::as_str)
        .unwrap_or("2025-11-25");
    let legacy = inner.revisions.iter().copied().find(|r| !r.is_stateless());
    let version = match (Revision::parse(requested), legacy) {
        (Some(r), _) if !r.is_stateless() && inner.revisions.contains(&r) => r,
        (_, Some(offer)) => offer,
        (_, None) => return Err(server.unsupported(requested)),
    };
    session.mark_initialized();
    let mut result = Map::new();
    result.insert("protocolVersion".into(), Value::from(version.as_str()));
    result.insert("capabilities".into(), inner.capabilities.clone());
    result.insert("serverInfo".into(), inner.info.clone());
    if let Some(instructions) = &inner.instructions {
        result.insert("instructions".into(), Value::from(instructions.as_str()));
    }
    Ok(Value::Object(result))
}

/// The cursor's key for the list `kind`, or the refusal.
fn after_cursor(
    params: &Map<String, Value>,
    kind: &'static str,
) -> Result<Option<String>, ProtocolError> {
    match params.get("cursor") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(cursor)) => match cursor::decode(kind, cursor) {
            Ok(key) => Ok(Some(key)),
            Err(CursorError::Malformed) => Err(ProtocolError::CursorMalformed),
            Err(CursorError::Foreign) => Err(ProtocolError::CursorForeign(kind)),
        },
        Some(_) => Err(ProtocolError::CursorMalformed),
    }
}

pub(crate) fn list_tools(
    server: &Server,
    params: &Map<String, Value>,
) -> Result<Value, ProtocolError> {
    let inner = &server.inner;
    let after = after_cursor(params, "tools")?;
    let (page, next) = cursor::page(
        inner.catalog.tools(),
        |t| &t.name,
        after.as_deref(),
        inner.page_size,
        "tools",
    );
    let mut result = Map::new();
    result.insert(
        "tools".into(),
        Value::Array(page.iter().map(|t| t.listing.clone()).collect()),
    );
    if let Some(next) = next {
        result.insert("nextCursor".into(), Value::from(next));
    }
    inner.tools_cache.stamp(&mut result);
    Ok(Value::Object(result))
}

/// Validates the arguments now; runs the tool later, concurrently if the transport wants.
pub(crate) fn call_tool(server: &Server, request: Request<'_>) -> Reply {
    let Request {
        id,
        mut params,
        era,
        ..
    } = request;
    let Some(Value::String(name)) = params.remove("name") else {
        return Reply::Ready(server.respond(id, era, Err(ProtocolError::ToolNameMissing)));
    };
    let Some(tool) = server.inner.catalog.tool(&name) else {
        return Reply::Ready(server.respond(id, era, Err(ProtocolError::UnknownTool(name))));
    };
    let arguments = params
        .remove("arguments")
        .unwrap_or_else(|| Value::Object(Map::new()));
    let checked = if arguments.is_object() {
        tool.input.validate(&arguments).map_err(|e| e.to_string())
    } else {
        Err("arguments must be an object".to_owned())
    };
    if let Err(reason) = checked {
        let result = invalid_arguments(&tool.name, &reason);
        return Reply::Ready(server.respond(id, era, Ok(result.to_value())));
    }
    let context = ToolContext {
        tool: Arc::clone(&tool.name),
        states: Arc::clone(&server.inner.states),
        wrap_output: tool.wrap_output,
    };
    let running = CatchUnwind::new((tool.handler)(arguments, context));
    let server = server.clone();
    let tool_name = Arc::clone(&tool.name);
    Reply::Pending(Box::pin(async move {
        let outcome = match running.await {
            Ok(Ok(result)) => Ok(result.to_value()),
            Ok(Err(ToolFault::InvalidArguments(reason))) => {
                Ok(invalid_arguments(&tool_name, &reason).to_value())
            }
            Ok(Err(ToolFault::Internal(reason))) => {
                tracing::error!(tool = %tool_name, %reason, "tool fault");
                Err(ProtocolError::Internal)
            }
            Err(panic) => {
                tracing::error!(tool = %tool_name, panic = %panic, "tool panicked");
                Ok(CallToolResult::error(format!(
                    "{tool_name}: the tool failed with an internal error"
                ))
                .to_value())
            }
        };
        server.respond(id, era, outcome)
    }))
}

fn invalid_arguments(tool: &str, reason: &str) -> CallToolResult {
    CallToolResult::error(format!("{tool}: invalid arguments: {reason}"))
}
