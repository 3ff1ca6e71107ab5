//! The checked catalog: every tool, its compiled schema and its advertised entry, built once.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::schema::CompiledSchema;
use crate::schemagen::portability_defect;
use crate::tool::{StateMap, ToolDef, ToolHandler};

/// Why a catalog was refused when the server was built. Every refusal names the item.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CatalogError {
    /// A tool name outside 1 to 64 characters of `A-Za-z0-9_.-/`.
    #[error("tool name {0:?} is invalid: a tool name is 1 to 64 characters of A-Z a-z 0-9 _ . - /")]
    InvalidToolName(String),
    /// Two tools with one name.
    #[error("tool name {0:?} is declared more than once; rename one of them")]
    DuplicateTool(String),
    /// A tool without a description.
    #[error("tool {0:?} has no description; write a doc comment on the function")]
    MissingDescription(String),
    /// A tool whose input schema the validator cannot enforce, or which is not portable.
    #[error("tool {tool:?}: {reason}")]
    Schema {
        /// The tool.
        tool: String,
        /// What is wrong with its schema.
        reason: String,
    },
    /// A tool takes a `State<T>` the server was not given.
    #[error(
        "tool {tool:?} takes State<{type_name}>, but the server was given no such state; call .state(..) on the builder"
    )]
    MissingState {
        /// The tool.
        tool: String,
        /// The missing state type.
        type_name: &'static str,
    },
}

/// One tool as the server serves it.
pub(crate) struct Tool {
    pub(crate) name: Arc<str>,
    pub(crate) listing: Value,
    pub(crate) input: CompiledSchema,
    pub(crate) handler: ToolHandler,
    pub(crate) wrap_output: bool,
}

/// Every item the server serves, sorted by key.
pub(crate) struct Catalog {
    tools: Vec<Tool>,
}

impl Catalog {
    pub(crate) fn build(defs: &[ToolDef], states: &StateMap) -> Result<Self, CatalogError> {
        let mut tools = Vec::with_capacity(defs.len());
        for def in defs {
            tools.push(build_tool(def, states)?);
        }
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        if let Some(pair) = tools.windows(2).find(|w| w[0].name == w[1].name) {
            return Err(CatalogError::DuplicateTool(pair[0].name.to_string()));
        }
        Ok(Catalog { tools })
    }

    pub(crate) fn tools(&self) -> &[Tool] {
        &self.tools
    }

    pub(crate) fn tool(&self, name: &str) -> Option<&Tool> {
        self.tools
            .binary_search_by(|t| t.name.as_ref().cmp(name))
            .ok()
            .map(|i| &self.tools[i])
    }
}

/// True for 1 to 64 characters of `A-Za-z0-9_.-/` (the conformance suite's rule).
pub(crate) fn valid_tool_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'/'))
}

fn build_tool(def: &ToolDef, states: &StateMap) -> Result<Tool, CatalogError> {
    if !valid_tool_name(def.name) {
        return Err(CatalogError::InvalidToolName(def.name.into()));
    }
    if def.description.trim().is_empty() {
        return Err(CatalogError::MissingDescription(def.name.into()));
    }
    for need in def.states {
        if !states.contains((need.type_id)()) {
            return Err(CatalogError::MissingState {
                tool: def.name.into(),
                type_name: (need.type_name)(),
            });
        }
    }
    let schema_error = |reason: String| CatalogError::Schema {
        tool: def.name.into(),
        reason,
    };
    let input_schema = (def.input_schema)();
    if input_schema.get("type").and_then(Value::as_str) != Some("object") {
        return Err(schema_error(
            "the input schema's root must have type \"object\"".into(),
        ));
    }
    if let Some(defect) = portability_defect(&input_schema) {
        return Err(schema_error(defect));
    }
    let input = CompiledSchema::compile(&input_schema).map_err(|e| schema_error(e.to_string()))?;

    let mut listing = Map::new();
    listing.insert("name".into(), Value::from(def.name));
    if let Some(title) = def.title {
        listing.insert("title".into(), Value::from(title));
    }
    listing.insert("description".into(), Value::from(def.description));
    listing.insert("inputSchema".into(), input_schema);
    let mut wrap_output = false;
    if let Some(output_schema) = def.output_schema {
        let schema = (output_schema)();
        if let Some(defect) = portability_defect(&schema) {
            return Err(schema_error(format!("output: {defect}")));
        }
        wrap_output = schema.get("type").and_then(Value::as_str) != Some("object");
        let schema = if wrap_output {
            serde_json::json!({
                "type": "object",
                "properties": { "result": schema },
                "required": ["result"],
            })
        } else {
            schema
        };
        listing.insert("outputSchema".into(), schema);
    }
    if let Some(annotations) = def.annotations.to_value() {
        listing.insert("annotations".into(), annotations);
    }
    Ok(Tool {
        name: Arc::from(def.name),
        listing: Value::Object(listing),
        input,
        handler: def.handler,
        wrap_output,
    })
}
