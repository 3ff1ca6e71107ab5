//! A JSON-RPC response, as the core answers it; written straight into the output buffer.

use std::sync::OnceLock;

use serde_json::{Map, Value};

use super::answer::Body;
use crate::error::ProtocolError;
use crate::json;
use crate::revision::Revision;
use crate::server::Stamp;

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
#[derive(Debug, Clone)]
pub struct Response {
    id: Option<Value>,
    body: Result<Body, ProtocolError>,
    revision: Option<Revision>,
    /// What a 2026-07-28 result carries besides its own fields: added when it is written.
    stamp: Option<Stamp>,
    /// A tool's result as a value, made the first time [`body`](Self::body) is asked.
    shown: OnceLock<Box<Value>>,
}

// `shown` is a cache of `body`: two responses are equal whether or not it was asked.
impl PartialEq for Response {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
            && self.body == other.body
            && self.revision == other.revision
            && self.stamp == other.stamp
    }
}

impl Response {
    /// A successful response carrying `result`.
    pub fn result(id: Option<Value>, result: Value) -> Self {
        Self::of(id, Body::Value(result))
    }

    /// A result as the core holds it (a tool's written as the host gave it).
    pub(crate) fn of(id: Option<Value>, body: Body) -> Self {
        Self {
            id,
            body: Ok(body),
            revision: None,
            stamp: None,
            shown: OnceLock::new(),
        }
    }

    /// A 2026-07-28 result: stamped when written, without a copy of the stamp in each result.
    pub(crate) fn stamped(id: Value, result: Body, stamp: &Stamp) -> Self {
        match result {
            // A result with a `_meta` of its own is merged now (rare: a listen stream's).
            Body::Value(Value::Object(ref map)) if map.contains_key("_meta") => {
                let mut result = result.into_value();
                stamp.apply(&mut result);
                Self::result(Some(id), result)
            }
            Body::Value(Value::Object(_)) | Body::Tool(_) => Self {
                stamp: Some(stamp.clone()),
                ..Self::of(Some(id), result)
            },
            Body::Value(mut result) => {
                stamp.apply(&mut result);
                Self::result(Some(id), result)
            }
        }
    }

    /// An error response; `id` is omitted when the request's id could not be read.
    pub fn error(id: Option<Value>, error: ProtocolError, revision: Option<Revision>) -> Self {
        Self {
            id,
            body: Err(error),
            revision,
            stamp: None,
            shown: OnceLock::new(),
        }
    }

    /// The id this response echoes.
    pub fn id(&self) -> Option<&Value> {
        self.id.as_ref()
    }

    /// The result, or the error. A 2026-07-28 result is given as its method answered it:
    /// the `resultType` and server `_meta` every such result carries are added by
    /// [`to_value`](Self::to_value) and [`write_to`](Self::write_to).
    pub fn body(&self) -> Result<&Value, &ProtocolError> {
        match &self.body {
            Ok(Body::Value(value)) => Ok(value),
            Ok(Body::Tool(result)) => Ok(self.shown.get_or_init(|| Box::new(result.to_value()))),
            Err(error) => Err(error),
        }
    }

    /// The error, if it is one (no value made of a result, as [`body`](Self::body) may).
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "the HTTP transport's status reads it")
    )]
    pub(crate) fn failure(&self) -> Option<&ProtocolError> {
        self.body.as_ref().err()
    }

    /// The response as a JSON value (keys sorted).
    pub fn to_value(&self) -> Value {
        let mut out = Map::new();
        out.insert("jsonrpc".into(), Value::from("2.0"));
        if let Some(id) = &self.id {
            out.insert("id".into(), id.clone());
        }
        match &self.body {
            Ok(result) => {
                let mut result = match result {
                    Body::Value(value) => value.clone(),
                    Body::Tool(result) => result.to_value(),
                };
                if let Some(stamp) = &self.stamp {
                    stamp.apply(&mut result);
                }
                out.insert("result".into(), result)
            }
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
                match (&self.stamp, result) {
                    (Some(stamp), Body::Value(Value::Object(map))) => {
                        write_stamped(out, map, stamp);
                    }
                    (stamp, Body::Tool(result)) => {
                        result.write_to(out, stamp.as_ref().map(Stamp::meta_json));
                    }
                    (_, Body::Value(value)) => json::write(out, value),
                }
            }
            Err(error) => {
                out.extend_from_slice(b"\"error\":");
                json::write(out, &error.to_error_object(self.revision));
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
            crate::json_out::write_id(out, id);
            out.extend_from_slice(b",");
        }
    }
}

/// A result object with the stamp's `_meta` (which `map` lacks: [`Response::stamped`]) and,
/// unless it says its own, `resultType`; the stamp's keys first, then the result's own.
fn write_stamped(out: &mut Vec<u8>, map: &Map<String, Value>, stamp: &Stamp) {
    out.extend_from_slice(b"{\"_meta\":");
    out.extend_from_slice(stamp.meta_json().as_bytes());
    if !map.contains_key("resultType") {
        out.extend_from_slice(b",\"resultType\":\"complete\"");
    }
    for (key, value) in map {
        out.push(b',');
        // A key is a string: writing it cannot fail.
        let _ = serde_json::to_writer(&mut *out, key);
        out.push(b':');
        json::write(out, value);
    }
    out.push(b'}');
}

#[cfg(test)]
mod tests {
    use serde_json::{Map, json};

    use super::*;
    use crate::annotations::{Annotations, Role};
    use crate::tool::{CallToolResult, Content};

    /// Tool results of every shape the wire carries.
    fn results() -> Vec<CallToolResult> {
        vec![
            CallToolResult::new(vec![Content::text("plain \"quoted\" \u{1F600} \\ text")]),
            CallToolResult::new(vec![]),
            CallToolResult::error("it failed"),
            CallToolResult::new(vec![
                Content::text("a"),
                Content::text("b").with_annotations(Annotations::NONE.with_audience(&[Role::User])),
                Content::image(&[1, 2, 3], "image/png"),
            ]),
            CallToolResult::new(vec![Content::text("{\"result\":42}")]).with_structured(
                json!({ "result": 42, "nested": { "b": [1, 2.5, null], "a": true } }),
            ),
        ]
    }

    #[test]
    fn a_tool_result_is_written_as_its_value_would_be() {
        let mut meta = Map::new();
        meta.insert(
            "io.modelcontextprotocol/serverInfo".into(),
            json!({ "name": "s", "version": "1" }),
        );
        let stamp = Stamp::new(meta);
        for result in results() {
            let as_value = result.to_value();
            for stamped in [false, true] {
                let (kept, built) = if stamped {
                    (
                        Response::stamped(json!(7), Body::Tool(result.clone()), &stamp),
                        Response::stamped(json!(7), Body::Value(as_value.clone()), &stamp),
                    )
                } else {
                    (
                        Response::of(Some(json!(7)), Body::Tool(result.clone())),
                        Response::result(Some(json!(7)), as_value.clone()),
                    )
                };
                let (mut written, mut expected) = (Vec::new(), Vec::new());
                kept.write_to(&mut written);
                built.write_to(&mut expected);
                assert_eq!(
                    String::from_utf8(written).unwrap(),
                    String::from_utf8(expected).unwrap(),
                    "stamped: {stamped}"
                );
                assert_eq!(kept.to_value(), built.to_value());
                assert_eq!(kept.body(), built.body());
                assert_eq!(kept.failure(), None);
            }
        }
        let refused = Response::error(Some(json!(1)), ProtocolError::Internal, None);
        assert_eq!(refused.failure(), Some(&ProtocolError::Internal));
        assert!(matches!(refused.body(), Err(ProtocolError::Internal)));
    }
}
