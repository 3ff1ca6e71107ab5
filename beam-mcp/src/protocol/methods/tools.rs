//! `tools/list` and `tools/call`.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{ListSpec, input_required, list};
use crate::Server;
use crate::catalog::Tool;
use crate::dispatch::{self, Call, Ran};
use crate::protocol::core::Request;
use crate::protocol::{ProtocolError, Reply};
use crate::tool::{CallToolResult, ToolContext, ToolFault};

pub(crate) fn list_tools(
    server: &Server,
    params: &Map<String, Value>,
) -> Result<Value, ProtocolError> {
    let catalog = server.catalog();
    let spec = ListSpec {
        items: catalog.tools(),
        key: |t: &Tool| &t.name,
        listing: |t: &Tool| &t.listing,
        kind: "tools",
        field: "tools",
        cache: server.inner.tools_cache,
    };
    list(server, params, spec)
}

/// Validates the arguments now; runs the tool later, concurrently if the transport wants.
pub(crate) fn call_tool(server: &Server, mut request: Request<'_>) -> Reply {
    let id = std::mem::take(&mut request.id);
    let era = request.era;
    if let Err(error) = request.open_round(server) {
        return Reply::Ready(server.respond(id, era, Err(error)));
    }
    let Some(Value::String(name)) = request.params.remove("name") else {
        return Reply::Ready(server.respond(id, era, Err(ProtocolError::ToolNameMissing)));
    };
    let catalog = server.catalog();
    let Some(tool) = catalog.tool(&name) else {
        return Reply::Ready(server.respond(id, era, Err(ProtocolError::UnknownTool(name))));
    };
    // The transport's rules for this tool (HTTP: `Mcp-Param-*`), then the capabilities.
    if let Err(error) = request
        .door
        .check_tool(tool, request.params.get("arguments"))
    {
        return Reply::Ready(server.respond(id, era, Err(error)));
    }
    // A request that names the client's capabilities is refused when it lacks one the tool
    // needs (-32021); a bare request does not say, so the tool runs.
    if let Some(declared) = &request.client_capabilities {
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
    let arguments = request
        .params
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
    request.id = id.clone();
    let begun = request.begin(server, tool.takes_context);
    let states = Arc::clone(&server.inner.states);
    let wrap_output = tool.wrap_output;
    let call = Call {
        kind: "tool",
        name: Arc::clone(&tool.name),
        limit: tool.time_limit.or(server.inner.limits.call_time_limit),
    };
    let handler = tool.handler;
    let responder = server.clone();
    let context = begun.context.clone();
    let work = Box::pin(async move {
        let asking = context.clone();
        let ran = dispatch::run(&call, context, |request| {
            let context = ToolContext {
                tool: Arc::clone(&call.name),
                states,
                wrap_output,
                request,
            };
            handler(arguments, context)
        })
        .await;
        let tool_name = &call.name;
        let outcome = match ran {
            Ran::Done(Ok(result)) => Ok(result.to_value()),
            Ran::Done(Err(ToolFault::InvalidArguments(reason))) => {
                Ok(invalid_arguments(tool_name, &reason).to_value())
            }
            Ran::Done(Err(ToolFault::Internal(reason))) => {
                tracing::error!(tool = %tool_name, %reason, "tool fault");
                Err(ProtocolError::Internal)
            }
            Ran::Panicked(panic) => Ok(panicked(tool_name, &panic)),
            Ran::TimedOut(limit) => Ok(CallToolResult::error(format!(
                "{tool_name}: the call exceeded its time limit of {} ms",
                limit.as_millis()
            ))
            .to_value()),
            Ran::InputRequired => input_required(&responder, &asking),
        };
        responder.respond(id, era, outcome)
    });
    server.pending(begun, work)
}

/// A panicking tool is a tool error that says nothing of the panic (which is logged).
fn panicked(tool: &str, panic: &str) -> Value {
    tracing::error!(%tool, %panic, "tool panicked");
    CallToolResult::error(format!("{tool}: the tool failed with an internal error")).to_value()
}

fn invalid_arguments(tool: &str, reason: &str) -> CallToolResult {
    CallToolResult::error(format!("{tool}: invalid arguments: {reason}"))
}
