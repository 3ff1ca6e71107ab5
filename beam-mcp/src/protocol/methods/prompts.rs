//! `prompts/list` and `prompts/get`.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::admission::{admit, admitted};
use super::{ListSpec, input_required, list};
use crate::catalog::Prompt;
use crate::dispatch::{self, Call, Ran};
use crate::limit::Limited;
use crate::params::Params;
use crate::prompt::{PromptFault, PromptRequest};
use crate::protocol::answer::Answer;
use crate::protocol::request::{Era, Request};
use crate::protocol::{Logged, ProtocolError};
use crate::server::Server;

pub(crate) fn list_prompts(
    server: &Server,
    params: &Params,
    era: Era,
) -> Result<Value, ProtocolError> {
    let catalog = server.catalog();
    let spec = ListSpec {
        items: catalog.prompts(),
        key: |p: &Prompt| &p.name,
        listing: &|p: &Prompt| &p.listing,
        kind: "prompts",
        field: "prompts",
        cache: era.is_stateless().then_some(server.inner.prompts_cache),
    };
    list(server, params, spec)
}

/// Checks the name and the arguments now (an error, unlike a tool's `isError`); renders later.
pub(crate) fn get_prompt(server: &Server, request: &mut Request<'_>) -> Answer {
    let refuse = |error| Answer::Now(Err(error));
    // One lookup, before any field is taken: the round binds the params as sent.
    let catalog = server.catalog();
    let found = request.params.name().and_then(|name| catalog.prompt(name));
    if let Err(error) = request.open_round(server, found.is_some_and(|p| p.takes_context)) {
        return refuse(error);
    }
    let params = &mut request.params;
    let Some(Value::String(name)) = params.remove("name") else {
        return refuse(ProtocolError::PromptNameMissing);
    };
    let Some(prompt) = found else {
        return refuse(ProtocolError::UnknownPrompt(name));
    };
    let arguments = match params.remove("arguments") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(arguments)) => arguments,
        Some(_) => {
            let reason = "arguments must be an object".to_owned();
            return refuse(ProtocolError::PromptArguments { name, reason });
        }
    };
    let arguments = Value::Object(arguments);
    if let Err(error) = prompt.arguments.validate(&arguments) {
        let reason = error.to_string();
        return refuse(ProtocolError::PromptArguments { name, reason });
    }
    let Value::Object(arguments) = arguments else {
        unreachable!("built as an object above")
    };
    // The host's rate limit, last: only a prompt that would render spends a token.
    let verdict = match admit(
        server,
        request.session,
        Limited::PromptGet { name: &prompt.name },
    ) {
        Ok(verdict) => verdict,
        Err(error) => return refuse(error),
    };
    let begun = request.begin(server, prompt.takes_context);
    let prompt_name = Arc::clone(&prompt.name);
    let states = Arc::clone(&server.inner.states);
    let render = move |context| PromptRequest {
        name: prompt_name,
        arguments,
        states,
        context,
    };
    let handler = prompt.handler;
    let call = Call {
        kind: "prompt",
        name: Arc::clone(&prompt.name),
        limit: server.inner.limits.call_time_limit,
        observed: prompt.observed.as_ref().and_then(|c| c.recording()),
    };
    let responder = server.clone();
    let context = begun.context.clone();
    let work = async move {
        admitted(verdict).await?;
        let asking = context.clone();
        match dispatch::run(&call, context, |context| handler(render(context))).await {
            Ran::Done(Ok(result)) => Ok(result.to_value()),
            Ran::Done(Err(PromptFault::Refused(reason))) => {
                Err(ProtocolError::PromptNotRendered { name, reason })
            }
            Ran::Done(Err(PromptFault::Internal(detail))) => {
                tracing::error!(prompt = %name, detail = %Logged(&detail), "prompt fault");
                Err(ProtocolError::Internal)
            }
            Ran::Panicked(panic) => {
                tracing::error!(prompt = %name, panic = %Logged(&panic), "prompt panicked");
                Err(ProtocolError::Internal)
            }
            Ran::TimedOut(limit) => {
                tracing::warn!(prompt = %name, ?limit, "a prompt overran the call time limit");
                Err(ProtocolError::Internal)
            }
            Ran::InputRequired => input_required(&responder, &asking),
        }
    };
    Answer::run(begun, work)
}
