//! Every error a caller can see, each mapped to exactly one JSON-RPC code in one place.

use serde_json::{Value, json};

use super::Revision;
use crate::json::JsonError;

/// A protocol-level refusal: a JSON-RPC error object the core answers with.
///
/// The wording of each message is part of the wire contract (see `docs/wire.md`).
///
/// ```
/// use beam_mcp::protocol::ProtocolError;
/// let e = ProtocolError::MethodNotFound("ping".into());
/// assert_eq!(e.code(), -32601);
/// assert_eq!(e.to_string(), "Method not found: ping");
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ProtocolError {
    /// The bytes were refused by the bounded JSON reader.
    #[error(transparent)]
    Json(#[from] JsonError),
    /// A top-level JSON array.
    #[error("Batch requests are not supported at any supported protocol version")]
    Batch,
    /// A JSON value that is not an object.
    #[error("Expected a JSON object, got {0}")]
    NotAnObject(&'static str),
    /// A message handed to the core longer than the bound.
    #[error("Request body exceeds 1048576 bytes")]
    TooLarge,
    /// A stdio line longer than the bound.
    #[error("Request line exceeds 1048576 bytes")]
    LineTooLong,
    /// A `Content-Length` frame longer than the bound.
    #[error("Request frame exceeds 1048576 bytes")]
    FrameTooLong,
    /// A `Content-Length` header whose value is not a length.
    #[error("Parse error: invalid_content_length")]
    InvalidContentLength,
    /// Not a JSON-RPC 2.0 request (wrong `jsonrpc`, no string `method`, a bad `id`, ...).
    #[error("Invalid Request")]
    InvalidRequest,
    /// `_meta` at the top level of a request.
    #[error(
        "Invalid params: _meta belongs in params._meta (2026-07-28 RequestParams), not at the top level of the request"
    )]
    TopLevelMeta,
    /// `params` present but not an object.
    #[error("Invalid params: params must be an object")]
    ParamsNotObject,
    /// `params._meta` present but not an object.
    #[error("Invalid params: params._meta must be an object")]
    MetaNotObject,
    /// `params._meta` without a string protocol version.
    #[error("Invalid params: params._meta lacks io.modelcontextprotocol/protocolVersion")]
    MetaLacksVersion,
    /// A 2026-07-28 request without client capabilities.
    #[error(
        "Invalid params: params._meta lacks io.modelcontextprotocol/clientCapabilities, which 2026-07-28 requires on every request"
    )]
    MetaLacksCapabilities,
    /// A protocol version this server does not serve.
    #[error("Unsupported protocol version")]
    UnsupportedVersion {
        /// The versions this server serves, in advertised order.
        supported: Vec<&'static str>,
        /// The version the client asked for.
        requested: String,
    },
    /// A method this revision does not have, or whose capability is not advertised.
    #[error("Method not found: {0}")]
    MethodNotFound(String),
    /// `tools/call` without a string `name`.
    #[error("Invalid params: tools/call requires a string name")]
    ToolNameMissing,
    /// `tools/call` naming a tool the catalog does not list.
    #[error("Unknown tool: {0}")]
    UnknownTool(String),
    /// A list cursor this server did not issue.
    #[error("Invalid params: cursor is malformed")]
    CursorMalformed,
    /// A cursor issued for another list.
    #[error("Invalid params: cursor belongs to another list, not {0}")]
    CursorForeign(&'static str),
    /// A fault on the server's side; the details go to the log, never to the caller.
    #[error("Internal error")]
    Internal,
}

impl ProtocolError {
    /// The JSON-RPC error code.
    pub fn code(&self) -> i64 {
        match self {
            Self::Json(JsonError::Syntax) | Self::InvalidContentLength => -32700,
            Self::Json(_)
            | Self::Batch
            | Self::NotAnObject(_)
            | Self::TooLarge
            | Self::LineTooLong
            | Self::FrameTooLong
            | Self::InvalidRequest => -32600,
            Self::TopLevelMeta
            | Self::ParamsNotObject
            | Self::MetaNotObject
            | Self::MetaLacksVersion
            | Self::MetaLacksCapabilities
            | Self::ToolNameMissing
            | Self::UnknownTool(_)
            | Self::CursorMalformed
            | Self::CursorForeign(_) => -32602,
            Self::MethodNotFound(_) => -32601,
            Self::UnsupportedVersion { .. } => -32022,
            Self::Internal => -32603,
        }
    }

    /// The `data` member of the error object, if this error carries one.
    pub fn data(&self) -> Option<Value> {
        match self {
            Self::UnsupportedVersion {
                supported,
                requested,
            } => Some(json!({ "supported": supported, "requested": requested })),
            Self::UnknownTool(name) => Some(json!({ "name": name })),
            _ => None,
        }
    }

    /// The JSON-RPC `error` object, as the given revision spells it.
    pub fn to_error_object(&self, _revision: Option<Revision>) -> Value {
        let mut error = serde_json::Map::new();
        error.insert("code".into(), Value::from(self.code()));
        error.insert("message".into(), Value::String(self.to_string()));
        if let Some(data) = self.data() {
            error.insert("data".into(), data);
        }
        Value::Object(error)
    }
}
