//! The connectome on the wire, as a host chooses: three read-only resources
//! (`connectome://declared`, `connectome://observed`, `connectome://diff`) and one read-only
//! tool, `connectome`. Each answers the canonical bytes, byte-identical to the file export.

use std::sync::Arc;

use serde_json::{Value, json};

use beam_mcp_connectome::{Algorithm, Canonical, diff};

use super::declared::Declared;
use super::observer::Observer;
use crate::resource::{ReadRequest, ResourceContents, ResourceDef, ResourceError};
use crate::tool::{
    BoxFuture, CallToolResult, Content, StateRequirement, ToolAnnotations, ToolContext, ToolDef,
    ToolFault,
};

/// What the surface reads: set on the builder, shared by every read.
#[derive(Clone)]
pub(crate) struct Surface {
    pub(crate) declared: Option<Arc<Declared>>,
    pub(crate) observer: Option<Observer>,
}

/// The three graphs the surface serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Which {
    Declared,
    Observed,
    Diff,
}

impl Which {
    fn parse(name: &str) -> Option<Which> {
        match name {
            "declared" => Some(Which::Declared),
            "observed" => Some(Which::Observed),
            "diff" => Some(Which::Diff),
            _ => None,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Which::Declared => "declared",
            Which::Observed => "observed",
            Which::Diff => "diff",
        }
    }
}

impl Surface {
    /// The canonical bytes of one graph, in the declared file's algorithm (SHA-256 when there
    /// is none), or why there are none.
    fn bytes(&self, which: Which) -> Result<Answer, String> {
        let algorithm = self
            .declared
            .as_ref()
            .map_or(Algorithm::Sha256, |d| d.algorithm);
        let declared = || {
            self.declared
                .as_ref()
                .ok_or_else(|| "the server was given no declared connectome".to_owned())
        };
        let observed = || {
            let observer = self
                .observer
                .as_ref()
                .ok_or_else(|| "the server has no observer: nothing is watching".to_owned())?;
            observer.graph().map_err(|e| e.to_string())
        };
        match which {
            Which::Declared => {
                let declared = declared()?;
                Ok(Answer {
                    bytes: declared.bytes.to_vec(),
                    algorithm,
                    digest_hex: declared.digest_hex.clone(),
                })
            }
            Which::Observed => {
                let canonical = Canonical::of(&observed()?.graph, algorithm);
                canonical.map(Answer::from).map_err(|e| e.to_string())
            }
            Which::Diff => {
                let declared = declared()?;
                let observed = observed()?;
                let window = observed.window.to_value();
                let record = diff(&declared.diff_side, &observed.graph, &window)
                    .map_err(|e| e.to_string())?;
                let canonical = record.canonical(algorithm);
                canonical.map(Answer::from).map_err(|e| e.to_string())
            }
        }
    }
}

/// One graph's canonical bytes and their digest.
struct Answer {
    bytes: Vec<u8>,
    algorithm: Algorithm,
    digest_hex: String,
}

impl From<Canonical> for Answer {
    fn from(canonical: Canonical) -> Answer {
        Answer {
            algorithm: canonical.algorithm(),
            digest_hex: canonical.digest_hex().to_owned(),
            bytes: canonical.into_bytes(),
        }
    }
}

const STATES: &[StateRequirement] = &[StateRequirement {
    type_id: std::any::TypeId::of::<Surface>,
    type_name: std::any::type_name::<Surface>,
}];

fn resource(uri: &'static str, name: &'static str, description: &'static str) -> ResourceDef {
    ResourceDef {
        uri,
        name,
        title: None,
        description: Some(description),
        mime_type: Some("application/json"),
        icons: &[],
        size: None,
        annotations: crate::annotations::Annotations::NONE,
        app: None,
        parameters: &[],
        reader: read,
        takes_context: false,
        tags: &[],
        scopes: &[],
        completions: &[],
        states: STATES,
        catalog: None,
        origin: None,
        module_path: module_path!(),
        location: (file!(), line!()),
    }
}

/// The three resources, sorted by URI.
pub(crate) fn resources() -> [ResourceDef; 3] {
    [
        resource(
            "connectome://declared",
            "connectome-declared",
            "The declared connectome: the call graph read from the code at build time, as canonical JSON.",
        ),
        resource(
            "connectome://diff",
            "connectome-diff",
            "Declared against observed: four classes of edges and ten coverage counts, as canonical JSON.",
        ),
        resource(
            "connectome://observed",
            "connectome-observed",
            "The observed connectome: the calls seen since the observer started, as canonical JSON.",
        ),
    ]
}

fn read(request: ReadRequest) -> BoxFuture<Result<Vec<ResourceContents>, ResourceError>> {
    let answer = (|| {
        let surface = request
            .state::<Surface>()
            .ok_or_else(|| ResourceError::internal("the connectome surface has no state"))?;
        let which = request
            .uri()
            .strip_prefix("connectome://")
            .and_then(Which::parse)
            .ok_or_else(|| ResourceError::not_found("not a connectome graph"))?;
        let canonical = surface.bytes(which).map_err(ResourceError::not_found)?;
        let text = String::from_utf8(canonical.bytes)
            .map_err(|_| ResourceError::internal("canonical bytes are UTF-8"))?;
        Ok(vec![ResourceContents::text(text)])
    })();
    Box::pin(std::future::ready(answer))
}

/// The tool's input: one of the three graphs.
fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "graph": { "type": "string", "enum": ["declared", "observed", "diff"] }
        },
        "required": ["graph"],
        "additionalProperties": false
    })
}

fn output_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "graph": { "type": "string", "enum": ["declared", "observed", "diff"] },
            "bytes": { "type": "string" },
            "sha256": { "type": "string" },
            "sha384": { "type": "string" },
            "sha512": { "type": "string" }
        },
        "required": ["graph", "bytes"],
        "additionalProperties": false
    })
}

/// The `connectome` tool: `{"graph": "declared" | "observed" | "diff"}` in, `{graph, bytes,
/// <algorithm>: hex}` out, the bytes verbatim.
pub(crate) fn tool() -> ToolDef {
    ToolDef {
        name: "connectome",
        title: None,
        icons: &[],
        description: "Returns one of this server's connectome graphs (declared, observed, or their diff) as canonical JSON with its digest. Reads only.",
        annotations: ToolAnnotations {
            read_only: Some(true),
            ..ToolAnnotations::NONE
        },
        input_schema,
        output_schema: Some(output_schema),
        handler: call,
        arguments_handler: None,
        states: STATES,
        client_capabilities: &[],
        takes_context: false,
        // It reads the surface state, never the request.
        reads_request: false,
        tags: &[],
        scopes: &[],
        time_limit: None,
        task_support: crate::task::TaskSupport::Forbidden,
        ui: None,
        catalog: None,
        origin: None,
        module_path: module_path!(),
        location: (file!(), line!()),
        given_schemas: None,
    }
}

fn call(arguments: Value, context: ToolContext) -> BoxFuture<Result<CallToolResult, ToolFault>> {
    let answer = (|| {
        let surface = context
            .state::<Surface>()
            .ok_or_else(|| ToolFault::Internal("the connectome surface has no state".into()))?;
        // The schema admits only the three names.
        let which = arguments
            .get("graph")
            .and_then(Value::as_str)
            .and_then(Which::parse)
            .ok_or_else(|| ToolFault::InvalidArguments("graph names no graph".into()))?;
        let canonical = match surface.bytes(which) {
            Ok(canonical) => canonical,
            Err(reason) => return Ok(CallToolResult::error(reason)),
        };
        let mut structured = serde_json::Map::new();
        structured.insert("graph".into(), Value::from(which.as_str()));
        let text = String::from_utf8(canonical.bytes)
            .map_err(|_| ToolFault::Internal("canonical bytes are UTF-8".into()))?;
        structured.insert("bytes".into(), Value::from(text));
        structured.insert(
            canonical.algorithm.as_str().into(),
            Value::from(canonical.digest_hex),
        );
        let structured = Value::Object(structured);
        Ok(
            CallToolResult::new(vec![Content::text(structured.to_string())])
                .with_structured(structured),
        )
    })();
    Box::pin(std::future::ready(answer))
}
