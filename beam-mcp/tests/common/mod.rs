//! Helpers shared by the core's wire tests: send a message, resolve the reply, and check
//! every answer against the official schema of the request's revision.
#![allow(dead_code, reason = "each test file uses its own subset")]

use beam_mcp::Server;
use beam_mcp::protocol::{Reply, Session};
use beam_mcp_tests::{modern_meta, spec};
use serde_json::{Value, json};

/// Sends one message; validates any answer against the schema of the request's revision.
pub(crate) fn send(server: &Server, session: &Session, message: Value) -> Option<Value> {
    let method = message
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let revision = message
        .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let bytes = message.to_string();
    let response = resolve(server.handle(session, bytes.as_bytes()))?;
    if let Err(e) = spec().check_response(revision.as_deref(), &method, &response) {
        panic!("{e}");
    }
    Some(response)
}

pub(crate) fn resolve(reply: Reply) -> Option<Value> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let response = runtime.block_on(reply.resolve())?;
    let mut bytes = Vec::new();
    response.write_to(&mut bytes);
    let value: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(value, response.to_value(), "write_to and to_value agree");
    Some(value)
}

pub(crate) fn raw(server: &Server, bytes: &[u8]) -> Value {
    let response = resolve(server.handle(&Session::new(), bytes)).expect("an answer");
    spec()
        .check("2026-07-28", "JSONRPCErrorResponse", &response)
        .unwrap();
    spec()
        .check("2025-11-25", "JSONRPCErrorResponse", &response)
        .unwrap();
    response
}

pub(crate) fn modern(id: i64, method: &str, mut params: Value) -> Value {
    params["_meta"] = modern_meta();
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
}

/// A `tools/call` request, at 2026-07-28 when `stateless`, else bare.
pub(crate) fn call(id: i64, stateless: bool, name: &str, arguments: Value) -> Value {
    let params = json!({ "name": name, "arguments": arguments });
    if stateless {
        modern(id, "tools/call", params)
    } else {
        bare(id, "tools/call", params)
    }
}

pub(crate) fn bare(id: i64, method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
}

/// The result of a request that must succeed.
pub(crate) fn result(server: &Server, message: Value) -> Value {
    let response = send(server, &Session::new(), message).expect("an answer");
    assert!(response.get("error").is_none(), "{response}");
    response["result"].clone()
}

/// The error object of a request that must fail.
pub(crate) fn error(server: &Server, message: Value) -> Value {
    let response = send(server, &Session::new(), message).expect("an answer");
    response
        .get("error")
        .cloned()
        .unwrap_or_else(|| panic!("{response}"))
}
