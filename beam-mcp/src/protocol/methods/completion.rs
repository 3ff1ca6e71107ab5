//! `completion/complete`: a prompt argument's or a template variable's completer, if declared.

use serde_json::{Map, Value};

use crate::Server;
use crate::completion::{Completion, CompletionDef, CompletionRequest};
use crate::panic::catch;
use crate::protocol::ProtocolError;

pub(crate) fn complete(
    server: &Server,
    params: &Map<String, Value>,
) -> Result<Value, ProtocolError> {
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
    let Some(def) = completions.iter().find(|c| c.argument == name) else {
        return Ok(Completion::default().to_value());
    };
    let request = CompletionRequest {
        argument: name,
        value,
        context,
    };
    match catch(|| (def.complete)(&request)) {
        Ok(completion) => Ok(completion.to_value()),
        Err(panic) => {
            tracing::error!(%item, panic = %panic, "completer panicked");
            Err(ProtocolError::Internal)
        }
    }
}
