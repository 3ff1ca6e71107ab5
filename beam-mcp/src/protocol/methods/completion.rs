//! `completion/complete`: a prompt argument's or a template variable's completer, if declared.

use serde_json::{Map, Value};

use std::sync::Arc;

use super::admission::{admit, admitted};
use crate::completion::{Completion, CompletionDef, CompletionRequest};
use crate::dispatch::{self, Call, Ran};
use crate::limit::Limited;
use crate::params::Params;
use crate::protocol::answer::Answer;
use crate::protocol::request::Request;
use crate::protocol::{Logged, ProtocolError};
use crate::server::Server;

/// Checks the reference and the argument now; runs the completer later (it may wait).
pub(crate) fn complete(server: &Server, request: &mut Request<'_>) -> Answer {
    let (item, def, asked) = match resolve(server, request.params) {
        Ok(found) => found,
        Err(error) => return Answer::Now(Err(error)),
    };
    // The host's rate limit, once the request is valid (also when no completer is declared).
    let verdict = match admit(server, request.session, Limited::Completion) {
        Ok(verdict) => verdict,
        Err(error) => return Answer::Now(Err(error)),
    };
    let Some(def) = def else {
        return match verdict {
            None => Answer::Now(Ok(Completion::default().to_value())),
            // Nothing to run, but the verdict is still awaited before the (empty) answer.
            verdict @ Some(_) => {
                let begun = request.begin(server, false);
                let work = async move {
                    admitted(verdict).await?;
                    Ok(Completion::default().to_value())
                };
                Answer::run(begun, work)
            }
        };
    };
    // A completer sees the request context, but `logging` is not advertised for it: it gets
    // a notification queue only when this request asked for one.
    let reference = request.params.get("ref").cloned().unwrap_or(Value::Null);
    let states = Arc::clone(&server.inner.states);
    let begun = request.begin(server, false);
    let completion_request = move |request| CompletionRequest {
        argument: asked.0,
        value: asked.1,
        context: asked.2,
        request,
        reference,
        states,
    };
    let call = Call {
        kind: "completer",
        name: Arc::from(item.as_str()),
        limit: server.inner.limits.call_time_limit,
        // A completion is not an item of the catalog: no node of the connectome.
        observed: None,
    };
    let complete = def.complete;
    let context = begun.context.clone();
    let work = async move {
        admitted(verdict).await?;
        match dispatch::run(&call, context, |context| {
            complete(completion_request(context))
        })
        .await
        {
            Ran::Done(completion) => Ok(completion.to_value()),
            Ran::Panicked(panic) => {
                tracing::error!(%item, panic = %Logged(&panic), "completer panicked");
                Err(ProtocolError::Internal)
            }
            Ran::TimedOut(limit) => {
                tracing::warn!(%item, ?limit, "a completer overran the call time limit");
                Err(ProtocolError::Internal)
            }
            // A completer has no round to ask in: its asks return `AskError::Unavailable`.
            Ran::InputRequired => Err(ProtocolError::Internal),
        }
    };
    Answer::run(begun, work)
}

/// What a completion asks: the item's key, its completer (if it declares one for the
/// argument), and the argument's name, typed value and resolved context.
type Asked = (
    String,
    Option<CompletionDef>,
    (String, String, Map<String, Value>),
);

fn resolve(server: &Server, params: &Params) -> Result<Asked, ProtocolError> {
    let catalog = server.catalog();
    let text = |v: Option<&Value>, key: &str| {
        v.and_then(|v| v.get(key))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let reference = params.get("ref");
    let argument = params.get("argument");
    let (Some(kind), Some(name), Some(value)) = (
        text(reference, "type"),
        text(argument, "name"),
        text(argument, "value"),
    ) else {
        return Err(ProtocolError::CompletionMalformed);
    };
    let context = match params.get("context").and_then(|c| c.get("arguments")) {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(arguments)) => arguments.clone(),
        Some(_) => return Err(ProtocolError::CompletionMalformed),
    };
    let (item, declared, completions): (String, bool, &[CompletionDef]) = match kind.as_str() {
        "ref/prompt" => {
            let prompt_name = text(reference, "name").ok_or(ProtocolError::CompletionMalformed)?;
            let prompt = catalog
                .prompt(&prompt_name)
                .ok_or_else(|| ProtocolError::UnknownPrompt(prompt_name.clone()))?;
            let declared = prompt.argument_names.contains(&name.as_str());
            (prompt_name, declared, prompt.completions)
        }
        "ref/resource" => {
            let uri = text(reference, "uri").ok_or(ProtocolError::CompletionMalformed)?;
            let template = catalog
                .template(&uri)
                .ok_or_else(|| ProtocolError::UnknownTemplate(uri.clone()))?;
            let declared = template.template.variables().any(|v| v == name);
            (uri, declared, template.completions)
        }
        _ => return Err(ProtocolError::CompletionMalformed),
    };
    if !declared {
        return Err(ProtocolError::UnknownArgument {
            item,
            argument: name,
        });
    }
    // An argument without a completer has no suggestions, which is an answer, not an error.
    let def = completions.iter().find(|c| c.argument == name).copied();
    Ok((item, def, (name, value, context)))
}
