//! A JSON-RPC response, as the core answers it; written straight into the output buffer.

use serde_json::{Map, Value};

use crate::error::ProtocolError;
use crate::revision::Revision;

/// A JSON-RPC response: the request's id and either a result or an error.
///
/// ```
/// use beam_mcp::protocol::{ProtocolError, Response};
/// let r = Response::error(None, ProtocolError::Batch, None);
/// assert_eq!(
///     r.to_json(),
///     r#"{"error":{"code":-32600,"message":"Batch requests are not supported at any supported protocol version"},"jsonrpc":"2.0"}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    id: Option<Value>,
    body: Result<Value, ProtocolError>,
    revision: Option<Revision>,
}

impl Response {
    /// A successful response carrying `result`.
    pub fn result(id: Option<Value>, result: Value) -> Self {
        Self {
            id,
            body: Ok(result),
            revision: None,
        }
    }

    /// An error response; `id` is omitted when the request's id could not be read.
    pub fn error(id: Option<Value>, error: ProtocolError, revision: Option<Revision>) -> Self {
        Self {
            id,
            body: Err(error),
            revision,
        }
    }

    /// The id this response echoes.
    pub fn id(&self) -> Option<&Value> {
        self.id.as_ref()
    }

    /// The result, or the error.
    pub fn body(&self) -> Result<&Value, &ProtocolError> {
        self.body.as_ref()
    }

    /// The response as a JSON value (keys sorted).
    pub fn to_value(&self) -> Value {
        let mut out = Map::new();
        out.insert("jsonrpc".into(), Value::from("2.0"));
        if let Some(id) = &self.id {
            out.insert("id".into(), id.clone());
        }
        match &self.body {
            Ok(result) => out.insert("result".into(), result.clone()),
            Err(error) => out.insert("error".into(), error.to_error_object(self.revision)),
        };
        Value::Object(out)
    }

    /// The response as one compact JSON line (no trailing newline).
    pub fn to_json(&self) -> String {
        self.to_value().to_string()
    }

    /// Appends the compact JSON form to `out`, without an intermediate value for the result.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        // Keys in sorted order, as `to_value` would give them, without cloning the result.
        out.extend_from_slice(b"{");
        match &self.body {
            Ok(result) => {
                self.write_id(out);
                out.extend_from_slice(b"\"jsonrpc\":\"2.0\",\"result\":");
                write_value(out, result);
            }
            Err(error) => {
                out.extend_from_slice(b"\"error\":");
                write_value(out, &error.to_error_object(self.revision));
                out.extend_from_slice(b",");
                self.write_id(out);
                out.extend_from_slice(b"\"jsonrpc\":\"2.0\"");
            }
        }
        out.extend_from_slice(b"}");
    }

    fn write_id(&self, out: &mut Vec<u8>) {
        if let Some(id) = &self.id {
            out.extend_from_slice(b"\"id\":");
            write_value(out, id);
            out.extend_from_slice(b",");
        }
    }
}

fn write_value(out: &mut Vec<u8>, value: &Value) {
    // Writing a `Value` into a Vec cannot fail: every key is a string, every number finite.
    if serde_json::to_writer(&mut *out, value).is_err() {
        out.extend_from_slice(b"null");
    }
}
