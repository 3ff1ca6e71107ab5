//! Tools: each definition checked, its input schema compiled, its listing entry built.

use std::sync::Arc;

use serde_json::{Map, Value};

use beam_mcp_rules::valid_tool_name;

use super::{CatalogError, Message};
use crate::connectome::ItemCounter;
use crate::schema::CompiledSchema;
use crate::schemagen::{SchemaProfile, object_root};
use crate::tool::{StateMap, ToolArgumentsHandler, ToolDef, ToolHandler};

/// The client capabilities a tool may require (the 2026-07-28 `ClientCapabilities` keys).
pub(crate) const CLIENT_CAPABILITIES: [&str; 3] = ["elicitation", "roots", "sampling"];

/// An argument mirrored in the HTTP header `Mcp-Param-{name}`.
pub(crate) struct HeaderParameter {
    /// The header name as declared.
    pub(crate) name: String,
    /// The HTTP header that mirrors it, lowercased once here: `mcp-param-{name}`.
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "read by the HTTP transport")
    )]
    pub(crate) field: String,
    /// The property path from the arguments object (`["filter", "region"]`).
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "read by the HTTP transport")
    )]
    pub(crate) path: Vec<String>,
}

/// A tool's listing entry and input schema in one client profile other than `Portable`.
pub(crate) struct ToolForm {
    profile: SchemaProfile,
    listing: Value,
    input: CompiledSchema,
}

/// One tool as the server serves it.
pub(crate) struct Tool {
    pub(crate) name: Arc<str>,
    /// The listing entry in the portable profile.
    pub(crate) listing: Value,
    /// The portable input schema, compiled.
    pub(crate) input: CompiledSchema,
    /// The entry and the input schema in each other profile some client is shown.
    forms: Box<[ToolForm]>,
    pub(crate) handler: ToolHandler,
    /// The handler from the arguments as read, where the definition has one.
    pub(crate) arguments_handler: Option<ToolArgumentsHandler>,
    pub(crate) wrap_output: bool,
    /// The advertised `outputSchema`, compiled: what structured content is checked against.
    pub(crate) output: Option<CompiledSchema>,
    /// The client capabilities a call needs.
    pub(crate) client_capabilities: &'static [&'static str],
    /// The `x-mcp-header` parameters.
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "read by the HTTP transport")
    )]
    pub(crate) headers: Vec<HeaderParameter>,
    /// The handler may send notifications through its request context.
    pub(crate) takes_context: bool,
    /// The handler may read its request context (`ToolDef::reads_request`).
    pub(crate) reads_request: bool,
    /// The host's labels (never advertised).
    pub(crate) tags: &'static [&'static str],
    /// The scopes a caller needs.
    pub(crate) scopes: &'static [&'static str],
    /// This tool's own time limit.
    pub(crate) time_limit: Option<std::time::Duration>,
    /// Whether a call may become a task.
    pub(crate) task_support: crate::task::TaskSupport,
    /// Its counter in the observed connectome, when the server has an observer.
    pub(crate) observed: Option<ItemCounter>,
    /// Where it came from, when mounted.
    pub(crate) origin: Option<crate::origin::Origin>,
    /// The `ui://` view it is linked to (MCP Apps), checked against the catalog's resources.
    pub(crate) view: Option<&'static str>,
}

impl Tool {
    /// The listing entry and the input schema a client shown `profile` gets: one pair, so what
    /// it is shown is what its arguments are checked against.
    pub(crate) fn form(&self, profile: SchemaProfile) -> (&Value, &CompiledSchema) {
        if profile != SchemaProfile::Portable
            && let Some(form) = self.forms.iter().find(|f| f.profile == profile)
        {
            return (&form.listing, &form.input);
        }
        (&self.listing, &self.input)
    }
}

pub(crate) fn build(
    defs: &[ToolDef],
    states: &StateMap,
    profiles: &[SchemaProfile],
) -> Result<Vec<Tool>, CatalogError> {
    let mut tools = Vec::with_capacity(defs.len());
    let mut refused = Vec::new();
    for def in defs {
        match build_tool(def, states, profiles) {
            Ok(tool) => tools.push(tool),
            Err(e) => refused.push(e),
        }
    }
    CatalogError::gathered(refused)?;
    super::sort_unique(&mut tools, |t| &t.name, "tool name")?;
    Ok(tools)
}

/// A tool's input schema as advertised (an object root) and compiled.
fn input_schema(def: &ToolDef) -> Result<(Value, CompiledSchema), String> {
    let mut schema = match def.given_schemas {
        Some((input, _)) => input.clone(),
        None => (def.input_schema)(),
    };
    object_root(&mut schema)?;
    let compiled = CompiledSchema::compile(&schema).map_err(|e| e.to_string())?;
    Ok((schema, compiled))
}

/// A structured tool's output schema as advertised (a non-object root wrapped under `result`),
/// compiled, and whether it was wrapped.
fn output_schema(def: &ToolDef) -> Result<Option<(Value, CompiledSchema, bool)>, String> {
    let schema = match (def.given_schemas, def.output_schema) {
        (Some((_, Some(output))), _) => output.clone(),
        (Some((_, None)), _) | (None, None) => return Ok(None),
        (None, Some(output_schema)) => output_schema(),
    };
    let wrap = schema.get("type").and_then(Value::as_str) != Some("object");
    let schema = if wrap {
        let mut inner = schema;
        // A recursive type's `$defs` go to the new root, where its `$ref`s point.
        let defs = inner.as_object_mut().and_then(|m| m.remove("$defs"));
        let mut wrapped = serde_json::json!({
            "type": "object",
            "properties": { "result": inner },
            "required": ["result"],
        });
        if let Some(defs) = defs {
            wrapped["$defs"] = defs;
        }
        wrapped
    } else {
        schema
    };
    let compiled = CompiledSchema::compile(&schema).map_err(|e| format!("output: {e}"))?;
    Ok(Some((schema, compiled, wrap)))
}

/// Why a tool's schemas would be refused at `build()`, if they would: what the `#[cfg(test)]`
/// check `#[tool]` emits reports, so that `cargo test` names every such tool at once.
pub(crate) fn schema_refusal(def: &ToolDef) -> Option<String> {
    input_schema(def).and_then(|_| output_schema(def)).err()
}

fn build_tool(
    def: &ToolDef,
    states: &StateMap,
    profiles: &[SchemaProfile],
) -> Result<Tool, CatalogError> {
    if !valid_tool_name(def.name) {
        return Err(Message::InvalidToolName {
            name: def.name.into(),
        }
        .into());
    }
    if def.description.trim().is_empty() {
        return Err(Message::MissingDescription {
            kind: "tool",
            name: def.name.into(),
        }
        .into());
    }
    super::check_states(|| format!("tool {:?}", def.name), def.states, states)?;
    super::check_icons(|| format!("tool {:?}", def.name), def.icons)?;
    if let Some(name) = def
        .client_capabilities
        .iter()
        .find(|c| !CLIENT_CAPABILITIES.contains(c))
    {
        return Err(Message::ClientCapability {
            name: (*name).into(),
        }
        .into());
    }
    let schema_error = |reason: String| CatalogError::Schema {
        item: format!("tool {:?}", def.name),
        reason,
    };
    let (input_schema, input) = input_schema(def).map_err(schema_error)?;
    let headers = header_parameters(&input_schema)?;

    let mut listing = Map::new();
    listing.insert("name".into(), Value::from(def.name));
    if let Some(title) = def.title {
        listing.insert("title".into(), Value::from(title));
    }
    crate::icon::insert_icons(&mut listing, def.icons);
    listing.insert("description".into(), Value::from(def.description));
    listing.insert("inputSchema".into(), input_schema);
    let (output, wrap_output) = match output_schema(def).map_err(schema_error)? {
        Some((schema, compiled, wrapped)) => {
            listing.insert("outputSchema".into(), schema);
            (Some(compiled), wrapped)
        }
        None => (None, false),
    };
    if let Some(annotations) = def.annotations.to_value() {
        listing.insert("annotations".into(), annotations);
    }
    if let Some(link) = &def.ui {
        if let Err(why) = beam_mcp_rules::app_uri(link.resource_uri) {
            return Err(CatalogError::App {
                item: format!("tool {:?}", def.name),
                reason: format!("its view {:?}: {why}", link.resource_uri),
            });
        }
        listing.insert("_meta".into(), crate::app::tool_meta(link));
    }
    if def.task_support != crate::task::TaskSupport::Forbidden {
        listing.insert(
            "execution".into(),
            serde_json::json!({ "taskSupport": def.task_support.as_str() }),
        );
    }
    let forms = profiles
        .iter()
        .map(|&profile| {
            let form = profile.form(&listing["inputSchema"]);
            let input = CompiledSchema::compile(&profile.enforced(&form)).map_err(|e| {
                schema_error(format!("the {profile:?} form of its input schema: {e}"))
            })?;
            let mut listing = listing.clone();
            listing.insert("inputSchema".into(), form);
            Ok(ToolForm {
                profile,
                listing: Value::Object(listing),
                input,
            })
        })
        .collect::<Result<_, CatalogError>>()?;
    Ok(Tool {
        name: Arc::from(def.name),
        listing: Value::Object(listing),
        input,
        forms,
        handler: def.handler,
        arguments_handler: def.arguments_handler,
        wrap_output,
        output,
        headers,
        client_capabilities: def.client_capabilities,
        takes_context: def.takes_context,
        reads_request: def.reads_request,
        tags: def.tags,
        scopes: def.scopes,
        time_limit: def.time_limit,
        task_support: def.task_support,
        view: def.ui.map(|link| link.resource_uri),
        observed: None,
        origin: def.origin,
    })
}

/// The `x-mcp-header` annotations, found through `properties` at any depth (the path is kept),
/// each checked: on an integer, string or boolean property (optional or not), a valid header
/// name, unique ignoring case across the tool.
fn header_parameters(schema: &Value) -> Result<Vec<HeaderParameter>, CatalogError> {
    let mut headers = Vec::new();
    collect_headers(schema, &mut Vec::new(), &mut headers)?;
    Ok(headers)
}

fn collect_headers(
    schema: &Value,
    path: &mut Vec<String>,
    headers: &mut Vec<HeaderParameter>,
) -> Result<(), CatalogError> {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Ok(());
    };
    for (property, subschema) in properties {
        path.push(property.clone());
        if let Some(annotation) = subschema.get("x-mcp-header") {
            let Some(name) = annotation.as_str() else {
                return Err(Message::HeaderName {
                    name: annotation.to_string(),
                    reason: "an x-mcp-header value is a string",
                }
                .into());
            };
            if let Some(reason) = beam_mcp_rules::header_name_defect(name) {
                return Err(Message::HeaderName {
                    name: name.into(),
                    reason,
                }
                .into());
            }
            if !header_type(subschema) {
                return Err(Message::HeaderType {
                    parameter: path.join("."),
                }
                .into());
            }
            if let Some(first) = headers
                .iter()
                .find(|h: &&HeaderParameter| h.name.eq_ignore_ascii_case(name))
            {
                return Err(Message::HeaderRepeated {
                    first: first.name.clone(),
                    second: name.into(),
                }
                .into());
            }
            headers.push(HeaderParameter {
                name: name.to_owned(),
                field: format!("mcp-param-{}", name.to_ascii_lowercase()),
                path: path.clone(),
            });
        }
        collect_headers(subschema, path, headers)?;
        path.pop();
    }
    Ok(())
}

/// True when the property's `type` is integer, string or boolean, possibly with null.
fn header_type(subschema: &Value) -> bool {
    let primitive = |t: &Value| matches!(t.as_str(), Some("integer" | "string" | "boolean"));
    match subschema.get("type") {
        Some(Value::Array(types)) => {
            types.iter().filter(|t| primitive(t)).count() == 1
                && types.iter().all(|t| primitive(t) || t == "null")
        }
        Some(t) => primitive(t),
        None => false,
    }
}
