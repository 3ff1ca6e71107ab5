//! Prompts: names and arguments checked, the argument schema derived and compiled.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::{CatalogError, Message};
use crate::completion::CompletionDef;
use crate::connectome::ItemCounter;
use crate::prompt::{PromptDef, PromptHandler};
use crate::schema::CompiledSchema;
use crate::tool::StateMap;

/// One prompt as the server serves it.
pub(crate) struct Prompt {
    pub(crate) name: Arc<str>,
    pub(crate) listing: Value,
    /// The declared arguments as a schema: strings, the required ones required, no others.
    pub(crate) arguments: CompiledSchema,
    pub(crate) handler: PromptHandler,
    pub(crate) takes_context: bool,
    /// The host's labels (never advertised).
    pub(crate) tags: &'static [&'static str],
    /// The scopes a caller needs.
    pub(crate) scopes: &'static [&'static str],
    pub(crate) completions: &'static [CompletionDef],
    pub(crate) argument_names: Vec<&'static str>,
    /// Its counter in the observed connectome, when the server has an observer.
    pub(crate) observed: Option<ItemCounter>,
    /// Where it came from, when mounted.
    pub(crate) origin: Option<crate::origin::Origin>,
}

pub(crate) fn build(defs: &[PromptDef], states: &StateMap) -> Result<Vec<Prompt>, CatalogError> {
    let mut prompts = Vec::with_capacity(defs.len());
    let mut refused = Vec::new();
    for def in defs {
        match build_prompt(def, states) {
            Ok(prompt) => prompts.push(prompt),
            Err(e) => refused.push(e),
        }
    }
    CatalogError::gathered(refused)?;
    super::sort_unique(&mut prompts, |p| &p.name, "prompt name")?;
    Ok(prompts)
}

fn build_prompt(def: &PromptDef, states: &StateMap) -> Result<Prompt, CatalogError> {
    if def.name.is_empty() {
        return Err(Message::EmptyName { kind: "prompt" }.into());
    }
    if def.description.trim().is_empty() {
        return Err(Message::MissingDescription {
            kind: "prompt",
            name: def.name.into(),
        }
        .into());
    }
    super::check_states(|| format!("prompt {:?}", def.name), def.states, states)?;
    super::check_icons(|| format!("prompt {:?}", def.name), def.icons)?;
    for (i, argument) in def.arguments.iter().enumerate() {
        if def.arguments[..i].iter().any(|a| a.name == argument.name) {
            return Err(Message::RepeatedArgument {
                prompt: def.name.into(),
                argument: argument.name.into(),
            }
            .into());
        }
    }
    if let Some(completion) = def
        .completions
        .iter()
        .find(|c| !def.arguments.iter().any(|a| a.name == c.argument))
    {
        return Err(Message::CompletionTarget {
            item: def.name.into(),
            argument: completion.argument.into(),
        }
        .into());
    }
    let mut properties = Map::new();
    let mut required = Vec::new();
    let mut listed = Vec::new();
    for argument in def.arguments {
        let mut property = json!({ "type": "string" });
        let mut entry = Map::new();
        entry.insert("name".into(), Value::from(argument.name));
        if let Some(title) = argument.title {
            entry.insert("title".into(), Value::from(title));
        }
        if let Some(description) = argument.description {
            property["description"] = Value::from(description);
            entry.insert("description".into(), Value::from(description));
        }
        entry.insert("required".into(), Value::Bool(argument.required));
        if argument.required {
            required.push(Value::from(argument.name));
        }
        properties.insert(argument.name.into(), property);
        listed.push(Value::Object(entry));
    }
    let schema = json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    });
    let arguments = CompiledSchema::compile(&schema).map_err(|e| CatalogError::Schema {
        item: format!("prompt {:?}", def.name),
        reason: e.to_string(),
    })?;
    let mut listing = Map::new();
    listing.insert("name".into(), Value::from(def.name));
    if let Some(title) = def.title {
        listing.insert("title".into(), Value::from(title));
    }
    crate::icon::insert_icons(&mut listing, def.icons);
    listing.insert("description".into(), Value::from(def.description));
    if !listed.is_empty() {
        listing.insert("arguments".into(), Value::Array(listed));
    }
    Ok(Prompt {
        name: Arc::from(def.name),
        listing: Value::Object(listing),
        arguments,
        handler: def.handler,
        takes_context: def.takes_context,
        tags: def.tags,
        scopes: def.scopes,
        completions: def.completions,
        argument_names: def.arguments.iter().map(|a| a.name).collect(),
        observed: None,
        origin: def.origin,
    })
}
