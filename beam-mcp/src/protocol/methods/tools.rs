//! `tools/list` and `tools/call`.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{ListSpec, list};
use crate::Server;
use crate::catalog::Tool;
use crate::panic::CatchUnwind;
use crate::protocol::core::Request;
use crate::protocol::{ProtocolError, Reply};
use crate::tool::{CallToolResult, ToolContext, ToolFault};

pub(crate) fn list_tools(
    server: &Server,
    params: &Map<String, Value>,
) -> Result<Value, ProtocolError> {
    let spec = ListSpec {
        items: server.inner.catalog.tools(),
        key: |t: &Tool| &t.name,
        listing: |t: &Tool| &t.listing,
        kind: "tools",
        field: "tools",
        cache: server.inner.tools_cache,
    };
    list(server, params, spec)
}

/// Validates the arguments now; runs the tool later, concurrently if the transport wants.
pub(crate) fn call_tool(server: &Server, request: Request<'_>) -> Reply {
    let Request {
        id,
        mut params,
        era,
        client_capabilities,
        ..
    } = request;
    let Some(Value::String(name)) = params.remove("name") else {
        return Reply::Ready(server.respond(id, era, Err(ProtocolError::ToolNameMissing)));
    };
    let Some(tool) = server.inner.catalog.tool(&name) else {
        return Reply::Ready(server.respond(id, era, Err(ProtocolError::UnknownTool(name))));
    };
    // A request that names the client's capabilities is refused when it lacks one the tool
    // needs (-32021); a bare request does not say, so the tool runs.
    if let Some(declared) = &client_capabilities {
        let missing: Vec<String> = tool
            .client_capabilities
            .iter()
            .filter(|c| !declared.contains_key(**c))
            .map(|c| (*c).to_owned())
            .collect();
        if !missing.is_empty() {
            let error = ProtocolError::MissingClientCapability(missing);
            return Reply::Ready(server.respond(id, era, Err(error)));
        }
    }
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
    // A hand-written handler may panic before it returns its future: the same tool error.
    let running = match CatchUnwind::start(|| (tool.handler)(arguments, context)) {
        Ok(running) => running,
        Err(panic) => {
            return Reply::Ready(server.respond(id, era, Ok(panicked(&tool.name, &panic))));
        }
    };
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
            Err(panic) => Ok(panicked(&tool_name, &panic)),
        };
        server.respond(id, era, outcome)
    }))
}

/// A panicking tool is a tool error that says nothing of the panic (which is logged).
fn panicked(tool: &str, panic: &str) -> Value {
    tracing::error!(%tool, %panic, "tool panicked");
    CallToolResult::error(format!("{tool}: the tool failed with an internal error")).to_value()
}

fn invalid_arguments(tool: &str, reason: &str) -> CallToolResult {
    CallToolResult::error(format!("{tool}: invalid arguments: {reason}"))
}
