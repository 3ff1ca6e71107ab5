//! The handlers of a remote's items: each finds its remote by the name it is served under,
//! sends the request there with the remote's own name or URI, and reads the answer back into
//! this crate's types. A remote that is gone is an error naming it; the link reconnects.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::Proxies;
use super::link::{Asked, CALLER, Link, is_lost};
use crate::client::{ClientError, Heard};
use crate::completion::{Completion, CompletionRequest};
use crate::prompt::{GetPromptResult, PromptFault, PromptRequest};
use crate::resource::{ReadRequest, ResourceContents, ResourceError};
use crate::tool::{BoxFuture, CallToolResult, ToolContext, ToolFault};

/// The link serving `served` (a tool's or prompt's served name), and the remote's own name.
fn route(
    proxies: Option<&Proxies>,
    served: &str,
    kind: &str,
) -> Result<(Arc<Link>, String), String> {
    for link in proxies.into_iter().flat_map(Proxies::links) {
        let Some(own) = served
            .strip_prefix(link.prefix)
            .and_then(|rest| rest.strip_prefix('_'))
        else {
            continue;
        };
        let routes = link.routes.read().unwrap_or_else(|e| e.into_inner());
        let known = match kind {
            "tool" => routes.tools.contains(own),
            _ => routes.prompts.contains(own),
        };
        if known {
            return Ok((Arc::clone(&link), own.to_owned()));
        }
    }
    Err(format!("{kind} {served:?} is no remote's any more"))
}

/// The words a caller is told when the remote could not answer.
fn failed(link: &Link, error: &ClientError) -> String {
    match error {
        ClientError::Protocol { code, message, .. } => {
            format!("remote {:?} refused: {message} ({code})", link.prefix)
        }
        e if is_lost(e) => format!("remote {:?} is unavailable: {e}; reconnecting", link.prefix),
        e => format!("remote {:?}: {e}", link.prefix),
    }
}

/// The words for a failed request, the link told when the remote is gone.
fn fault(link: &Arc<Link>, client: &Arc<crate::client::Client>, error: &ClientError) -> String {
    let words = failed(link, error);
    if is_lost(error) {
        link.lost(client, error.to_string());
    }
    words
}

/// Relays a `tools/call`, with its progress.
pub(crate) fn call_tool(
    arguments: Value,
    context: ToolContext,
) -> BoxFuture<Result<CallToolResult, ToolFault>> {
    Box::pin(async move {
        let (link, own) = match route(context.states.get::<Proxies>(), &context.tool, "tool") {
            Ok(found) => found,
            Err(why) => return Ok(CallToolResult::error(why)),
        };
        let client = match link.client() {
            Ok(client) => client,
            Err(why) => {
                return Ok(CallToolResult::error(format!(
                    "remote {:?} is unavailable: {why}; reconnecting",
                    link.prefix
                )));
            }
        };
        let request = context.request.clone();
        let progress = move |heard: Heard| {
            if let Heard::Progress {
                progress,
                total,
                message,
            } = heard
            {
                // Not asked for, or not increasing: the remote's to get right, not ours to fail.
                let _ = request.progress(progress, total, message.as_deref());
            }
        };
        // The remote's asks come back to this call, which relays each to its caller: from this
        // task, so that a 2026-07-28 caller's round ends here as any ask's does.
        let (asks, mut asked) = tokio::sync::mpsc::channel::<Asked>(4);
        let _calling = link.calling(asks.clone(), context.request.clone());
        let call = CALLER.scope(
            asks,
            client.call_tool_at(&own, arguments, context.request.log_level(), Some(progress)),
        );
        let mut call = std::pin::pin!(call);
        let done = loop {
            tokio::select! {
                done = &mut call => break done,
                Some(ask) = asked.recv() => {
                    let answer = match context.request.elicit_relayed(ask.params).await {
                        Ok(answer) => answer,
                        Err(e) => {
                            tracing::warn!(remote = link.prefix, error = %e, "a remote's ask not answered by the caller; cancelled");
                            json!({ "action": "cancel" })
                        }
                    };
                    let _ = ask.answer.send(answer);
                }
            }
        };
        match done {
            Ok(outcome) => {
                let result = json!({
                    "content": outcome.content,
                    "structuredContent": outcome.structured,
                    "isError": outcome.is_error,
                });
                Ok(CallToolResult::from_value(&result).unwrap_or_else(|why| {
                    CallToolResult::error(format!(
                        "remote {:?} answered a result this server does not relay: {why}",
                        link.prefix
                    ))
                }))
            }
            Err(e) => Ok(CallToolResult::error(fault(&link, &client, &e))),
        }
    })
}

/// Relays a `prompts/get`.
pub(crate) fn get_prompt(
    request: PromptRequest,
) -> BoxFuture<Result<GetPromptResult, PromptFault>> {
    Box::pin(async move {
        let (link, own) = route(request.states.get::<Proxies>(), &request.name, "prompt")
            .map_err(PromptFault::Refused)?;
        let client = link.client().map_err(|why| {
            PromptFault::Refused(format!(
                "remote {:?} is unavailable: {why}; reconnecting",
                link.prefix
            ))
        })?;
        let arguments: Map<String, Value> = request.arguments.clone();
        let params = json!({ "name": own, "arguments": arguments });
        match client.with_input("prompts/get", params, None).await {
            Ok(result) => GetPromptResult::from_value(&result).map_err(|why| {
                PromptFault::Refused(format!(
                    "remote {:?} answered a prompt this server does not relay: {why}",
                    link.prefix
                ))
            }),
            Err(e) => Err(PromptFault::Refused(fault(&link, &client, &e))),
        }
    })
}

/// Relays a `resources/read`: the URI the remote knows, its contents under the served URI.
pub(crate) fn read_resource(
    request: ReadRequest,
) -> BoxFuture<Result<Vec<ResourceContents>, ResourceError>> {
    Box::pin(async move {
        let served = request.uri.clone();
        let found = request.states.get::<Proxies>().and_then(|proxies| {
            proxies.links().iter().find_map(|link| {
                beam_mcp_rules::original_uri(link.prefix, &served)
                    .map(|own: String| (Arc::clone(link), own))
            })
        });
        let Some((link, own)) = found else {
            return Err(ResourceError::not_found(format!(
                "{served:?} is no remote's any more"
            )));
        };
        let client = link.client().map_err(|why| {
            ResourceError::Internal(format!(
                "remote {:?} is unavailable: {why}; reconnecting",
                link.prefix
            ))
        })?;
        match client.read_resource(&own).await {
            Ok(contents) => contents
                .iter()
                .map(|item| {
                    let read = ResourceContents::from_value(item)?;
                    let uri = item.get("uri").and_then(Value::as_str).unwrap_or(&own);
                    Ok(match beam_mcp_rules::namespaced_uri(link.prefix, uri) {
                        Some(at) => read.with_uri(at),
                        None => read,
                    })
                })
                .collect::<Result<Vec<_>, String>>()
                .map_err(|why| {
                    ResourceError::Internal(format!(
                        "remote {:?} answered contents this server does not relay: {why}",
                        link.prefix
                    ))
                }),
            Err(ClientError::Protocol { code, message, .. })
                if code == -32002 || code == -32602 =>
            {
                Err(ResourceError::not_found(format!(
                    "remote {:?}: {message}",
                    link.prefix
                )))
            }
            Err(e) => Err(ResourceError::Internal(fault(&link, &client, &e))),
        }
    })
}

/// Relays a `completion/complete` of a remote prompt's argument or template's variable: the
/// remote's own name or URI in the `ref`; a remote that cannot answer gives no suggestions.
pub(crate) fn complete(request: CompletionRequest) -> BoxFuture<Completion> {
    Box::pin(async move {
        let proxies = request.states.get::<Proxies>();
        let reference = &request.reference;
        let kind = reference
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let found = match kind {
            "ref/prompt" => {
                let served = reference
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                route(proxies, served, "prompt")
                    .ok()
                    .map(|(link, own)| (link, json!({ "type": kind, "name": own })))
            }
            _ => {
                let served = reference
                    .get("uri")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                proxies
                    .into_iter()
                    .flat_map(Proxies::links)
                    .find_map(|link| {
                        let own = beam_mcp_rules::original_uri(link.prefix, served)?;
                        Some((link, json!({ "type": kind, "uri": own })))
                    })
            }
        };
        let Some((link, own)) = found else {
            return Completion::default();
        };
        let Ok(client) = link.client() else {
            return Completion::default();
        };
        match client
            .complete(own, &request.argument, &request.value)
            .await
        {
            Ok(done) => Completion {
                values: done.values,
                total: done.total,
                has_more: done.has_more,
            },
            Err(e) => {
                let words = fault(&link, &client, &e);
                tracing::warn!(remote = link.prefix, error = %words, "a relayed completion failed");
                Completion::default()
            }
        }
    })
}
