//! A refusal a transport answers by itself, before or instead of the core: written as a
//! JSON-RPC error response, keys in the order the core writes its own.

use serde_json::{Map, Value};

/// `{"error": {code, data?, message}, "id"?, "jsonrpc": "2.0"}` as bytes.
pub(crate) fn error_response(
    id: Option<&Value>,
    code: i64,
    message: String,
    data: Option<Value>,
) -> Vec<u8> {
    let mut error = Map::new();
    error.insert("code".into(), Value::from(code));
    error.insert("message".into(), Value::String(message));
    if let Some(data) = data {
        error.insert("data".into(), data);
    }
    let mut out = Map::new();
    out.insert("error".into(), Value::Object(error));
    if let Some(id) = id {
        out.insert("id".into(), id.clone());
    }
    out.insert("jsonrpc".into(), Value::from("2.0"));
    // A map of strings and numbers always serializes.
    serde_json::to_vec(&Value::Object(out)).unwrap_or_default()
}
