//! `tools/list` and `tools/call`.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::Value;

use super::admission::{admit, admitted};
use super::{ListSpec, input_required, list};
use crate::catalog::Tool;
use crate::context::Context;
use crate::dispatch::{self, Call, Detached, First, Ran};
use crate::limit::Limited;
use crate::params::Params;
use crate::protocol::Revision;
use crate::protocol::answer::{Answer, Body, Ended};
use crate::protocol::request::{Era, Request};
use crate::protocol::{Logged, ProtocolError};
use crate::schema::CompiledSchema;
use crate::schemagen::SchemaProfile;
use crate::server::Server;
use crate::task::{self, Status, TaskSupport};
use crate::tool::{Arguments, CallToolResult, ToolContext, ToolFault};

/// The arguments, checked against the tool's input schema: members as read by the quick
/// verdict where it decides, anything else (and what it does not pass) as a value by the full
/// evaluation, which names the failure.
fn validated(input: &CompiledSchema, arguments: Arguments) -> Result<Arguments, String> {
    if let Some(members) = arguments.members()
        && input.passes_quickly(members.len(), |key| members.get(key))
    {
        return Ok(arguments);
    }
    let value = arguments.into_value();
    input.validate(&value).map_err(|e| e.to_string())?;
    Ok(Arguments::from(value))
}

pub(crate) fn list_tools(
    server: &Server,
    params: &Params,
    era: Era,
    profile: SchemaProfile,
) -> Result<Value, ProtocolError> {
    let catalog = server.catalog();
    let spec = ListSpec {
        items: catalog.tools(),
        key: |t: &Tool| &t.name,
        listing: &|t: &Tool| t.form(profile).0,
        kind: "tools",
        field: "tools",
        cache: era.is_stateless().then_some(server.inner.tools_cache),
    };
    list(server, params, spec)
}

/// Validates the arguments now; runs the tool later, concurrently if the transport wants.
pub(crate) fn call_tool(server: &Server, request: &mut Request<'_>) -> Answer {
    let era = request.era;
    // One lookup, before any field is taken: the round binds the params as sent.
    let catalog = server.catalog();
    let found = request
        .params
        .name_bytes()
        .and_then(|name| catalog.tool_by_bytes(name));
    let may_ask = found.is_some_and(|t| t.takes_context);
    if let Err(error) = request.open_round(server, may_ask) {
        return Answer::Now(Err(error));
    }
    let Some(tool) = found else {
        let error = match request.params.name() {
            Some(name) => ProtocolError::UnknownTool(name.to_owned()),
            None => ProtocolError::ToolNameMissing,
        };
        return Answer::Now(Err(error));
    };
    // The transport's rules for this tool (HTTP: `Mcp-Param-*`), then the capabilities.
    if let Err(error) = crate::protocol::door::check_tool(request.door, tool, request.params) {
        return Answer::Now(Err(error));
    }
    // A request that names the client's capabilities is refused when it lacks one the tool
    // needs (-32021); a bare request does not say, so the tool runs.
    if let Some(declared) = &request.client_capabilities
        && !tool.client_capabilities.is_empty()
    {
        let missing: Vec<String> = tool
            .client_capabilities
            .iter()
            .filter(|c| !declared.contains_key(c))
            .map(|c| (*c).to_owned())
            .collect();
        if !missing.is_empty() {
            let error = ProtocolError::MissingClientCapability(missing);
            return Answer::Now(Err(error));
        }
    }
    let mut arguments = request.params.take_arguments().unwrap_or_default();
    // `3.0` is an integer to the schema (2020-12): serde must read it as one too.
    arguments.whole_numbers_as_integers();
    let checked = if arguments.is_object() {
        let (_, input) = tool.form(request.schema_profile(server));
        validated(input, arguments)
    } else {
        Err("arguments must be an object".to_owned())
    };
    let arguments = match checked {
        Ok(arguments) => arguments,
        Err(reason) => {
            let result = invalid_arguments(&tool.name, &reason);
            return Answer::Now(Ok(result.into_value()));
        }
    };
    // The tasks extension: a task-supporting call from a client that declares it may become a
    // task; a client that does not is refused a tool that runs only as one (2026-07-28). Only
    // a tool that can be one asks.
    let declares_tasks = era.is_stateless()
        && tool.task_support != TaskSupport::Forbidden
        && request
            .client_capabilities
            .as_ref()
            .and_then(|c| c.get("extensions"))
            .and_then(|e| e.get(task::EXTENSION))
            .is_some();
    if era.is_stateless() && tool.task_support == TaskSupport::Required && !declares_tasks {
        let error = ProtocolError::MissingExtension(task::EXTENSION);
        return Answer::Now(Err(error));
    }
    // The caller's digest only where it is needed (a rate limit, a task's owner).
    let principal = request.session.principal();
    let shared = principal.as_ref().is_some_and(|p| p.tells_callers_apart());
    let owner = move || principal.as_ref().map(|p| p.digest());
    // The host's rate limit, last: only a call that would run spends a token.
    let verdict = match admit(
        server,
        request.session,
        Limited::ToolCall { name: &tool.name },
    ) {
        Ok(verdict) => verdict,
        Err(error) => return Answer::Now(Err(error)),
    };
    let may_detach = declares_tasks && tool.task_support != TaskSupport::Forbidden;
    let states = Arc::clone(&server.inner.states);
    let wrap_output = tool.wrap_output;
    // What the tool answers is checked against its `outputSchema` where the host asked for it
    // (by default in debug builds, so in tests): a mismatch is the host's bug, never sent.
    let output = if server.inner.limits.check_output {
        tool.output.clone()
    } else {
        None
    };
    let call = Call {
        kind: "tool",
        name: Arc::clone(&tool.name),
        limit: tool.time_limit.or(server.inner.limits.call_time_limit),
        observed: tool.observed.as_ref().and_then(|c| c.recording()),
    };
    let (handler, arguments_handler) = (tool.handler, tool.arguments_handler);
    let name = Arc::clone(&call.name);
    let start = move |request| {
        let context = ToolContext {
            tool: name,
            states,
            wrap_output,
            request,
        };
        match arguments_handler {
            Some(run) => run(arguments, context),
            None => handler(arguments.into_value(), context),
        }
    };
    // Polled here where the transport lets host code run in place: an answer given at once is
    // answered now, with no future boxed and no exchange made (what waits goes on below).
    let in_place = verdict.is_none()
        && !may_detach
        && call.limit.is_none()
        && request.door.runs_in_place()
        && (request.begun.is_some() || !request.streams(tool.takes_context));
    if in_place && !tool.reads_request && request.begun.is_none() && request.round.is_none() {
        // Host code that never reads its context (and has no round to ask by): none is made
        // unless it waits, when its exchange needs one to be cancelled by.
        return match dispatch::first_poll(&call, request.meta.as_map(), Context::inert(), start) {
            First::Ran(ran) => Answer::Ended(None, outcome(&call.name, output.as_ref(), ran)),
            First::Waits(waiting) => {
                let begun = request.begin_with(server, false);
                let work = Box::pin(async move {
                    outcome(&call.name, output.as_ref(), waiting.finish().await)
                });
                Answer::Run(begun, work)
            }
        };
    }
    let begun = request.begin(server, tool.takes_context);
    if in_place && begun.context.outbox().is_none() {
        let asking = begun.context.clone();
        return match dispatch::first_poll(&call, Some(asking.meta()), begun.context.clone(), start)
        {
            First::Ran(ran) => {
                let ended = finished(server, &asking, &call.name, output.as_ref(), ran);
                Answer::Ended(Some(begun), ended)
            }
            First::Waits(waiting) => {
                let responder = server.clone();
                let work = Box::pin(async move {
                    let ran = waiting.finish().await;
                    finished(&responder, &asking, &call.name, output.as_ref(), ran)
                });
                Answer::Run(begun, work)
            }
        };
    }
    let responder = server.clone();
    let context = begun.context.clone();
    let work = Box::pin(async move {
        admitted(verdict).await?;
        let asking = context.clone();
        let tool_name = Arc::clone(&call.name);
        let ran = if may_detach {
            match dispatch::run_or_detach(call, context, start).await {
                Detached::Ran(ran) => ran,
                Detached::Waits(running) => {
                    let outcome = detach(
                        &responder,
                        &asking,
                        (owner(), shared),
                        (&tool_name, output),
                        running,
                    );
                    // Boxed: a call that never becomes a task (most) keeps a small future.
                    return Box::pin(outcome).await.map(Body::Value);
                }
            }
        } else {
            dispatch::run(&call, context, start).await
        };
        finished(&responder, &asking, &tool_name, output.as_ref(), ran)
    });
    Answer::Run(begun, work)
}

/// A call's answer once its host code ran, or the asks that end its round.
#[inline]
fn finished(
    server: &Server,
    context: &Context,
    tool_name: &str,
    output: Option<&CompiledSchema>,
    ran: Ran<Result<CallToolResult, ToolFault>>,
) -> Ended {
    match ran {
        Ran::InputRequired => input_required(server, context).map(Body::Value),
        ran => outcome(tool_name, output, ran),
    }
}

/// The rest of a call that became a task.
type Rest = Pin<Box<dyn Future<Output = Ran<Result<CallToolResult, ToolFault>>> + Send>>;

/// A call's answer once its host code ran; structured content is checked against `output`,
/// when given. The result is kept as the tool gave it: written as it is, no `Value` built.
fn outcome(
    tool_name: &str,
    output: Option<&CompiledSchema>,
    ran: Ran<Result<CallToolResult, ToolFault>>,
) -> Ended {
    match ran {
        Ran::Done(Ok(result)) => Ok(Body::Tool(match output {
            None => result,
            Some(schema) => checked(tool_name, schema, result),
        })),
        Ran::Done(Err(ToolFault::InvalidArguments(reason))) => {
            Ok(Body::Tool(invalid_arguments(tool_name, &reason)))
        }
        Ran::Done(Err(ToolFault::Internal(reason))) => {
            tracing::error!(tool = %tool_name, reason = %Logged(&reason), "tool fault");
            Err(ProtocolError::Internal)
        }
        Ran::Panicked(panic) => Ok(Body::Tool(panicked(tool_name, &panic))),
        Ran::TimedOut(limit) => Ok(Body::Tool(CallToolResult::error(format!(
            "{tool_name}: the call exceeded its time limit of {} ms",
            limit.as_millis()
        )))),
        // A call past its first round no longer asks by rounds.
        Ran::InputRequired => Err(ProtocolError::Internal),
    }
}

/// A result whose structured content is checked against the tool's `outputSchema`: a mismatch
/// is answered as an `isError` result naming it (and logged), never sent.
#[inline(never)]
fn checked(tool_name: &str, schema: &CompiledSchema, result: CallToolResult) -> CallToolResult {
    if !result.is_error()
        && let Some(structured) = result.structured()
        && let Err(mismatch) = schema.validate(structured)
    {
        tracing::error!(tool = %tool_name, mismatch = %Logged(mismatch.message()), "structured content does not match the outputSchema");
        return CallToolResult::error(format!(
            "{tool_name}: the tool's structured content does not match its outputSchema: {}",
            mismatch.message().replacen("arguments", "the content", 1)
        ));
    }
    result
}

/// The call waits: it becomes a task, answered now with the `CreateTaskResult`, and the rest
/// of it runs in the background until it ends or `tasks/cancel` drops it. Where tasks are
/// shared, it is announced only once the store keeps it, so any replica can read it at once.
async fn detach(
    server: &Server,
    context: &Context,
    (owner, shared): (Option<[u8; 32]>, bool),
    (tool_name, output): (&Arc<str>, Option<CompiledSchema>),
    running: Rest,
) -> Result<Value, ProtocolError> {
    let task = match server.inner.tasks.create(owner, shared) {
        Ok(task) => task,
        Err(full) => {
            tracing::warn!(tool = %tool_name, ?full, "no task: a task bound is reached");
            return Err(ProtocolError::TasksFull);
        }
    };
    // Where tasks are shared, the owner's shares are counted across the replicas.
    let tasks = &server.inner.tasks;
    match task.shared(shared.then(|| tasks.shares())).await {
        Ok(true) => {}
        Ok(false) => {
            tracing::warn!(tool = %tool_name, "no task: the principal's share is reached across the replicas");
            tasks.forget(&task.id);
            return Err(ProtocolError::TasksFull);
        }
        Err(error) => {
            // Not announced, so not kept: the host code is dropped with `running`.
            task.cancel();
            return Err(error.into());
        }
    }
    context.set_task(Arc::clone(&task));
    let mut created = task.envelope();
    created.insert("resultType".into(), Value::from("task"));
    let context = context.clone();
    let tool_name = Arc::clone(tool_name);
    tokio::spawn(async move {
        let ran = tokio::select! {
            ran = running => ran,
            () = task.cancelled() => {
                context.cancel();
                return;
            }
            // A task runs for its lifetime at most: then it is cancelled, not kept running.
            () = tokio::time::sleep(task.lifetime()) => {
                tracing::warn!(tool = %tool_name, lifetime_s = task.lifetime().as_secs(), "a task ran past its lifetime: cancelled");
                task.cancel();
                context.cancel();
                return;
            }
        };
        let status = match ran {
            // A protocol-level failure is `failed`; a tool's own error is a completed result.
            Ran::Panicked(panic) => {
                tracing::error!(tool = %tool_name, panic = %Logged(&panic), "tool panicked in a task");
                Status::Failed(ProtocolError::Internal.to_error_object(Some(Revision::V2026_07_28)))
            }
            ran => match outcome(&tool_name, output.as_ref(), ran) {
                Ok(result) => Status::Completed(result.into_value()),
                Err(error) => Status::Failed(error.to_error_object(Some(Revision::V2026_07_28))),
            },
        };
        task.finish(status);
    });
    Ok(Value::Object(created))
}

/// A panicking tool is a tool error that says nothing of the panic (which is logged).
fn panicked(tool: &str, panic: &str) -> CallToolResult {
    tracing::error!(%tool, panic = %Logged(panic), "tool panicked");
    CallToolResult::error(format!("{tool}: the tool failed with an internal error"))
}

fn invalid_arguments(tool: &str, reason: &str) -> CallToolResult {
    CallToolResult::error(format!("{tool}: invalid arguments: {reason}"))
}
