//! What every pass case does with its items: build a server from the crate's catalog and
//! send it requests through the pure core, on a current-thread runtime.
#![allow(dead_code, reason = "each case uses its own subset")]

use beam_mcp::protocol::Session;
use beam_mcp::{Server, ServerBuilder};
use serde_json::{Value, json};

/// A builder holding every `#[tool]`, `#[resource]` and `#[prompt]` of the case.
pub fn builder() -> ServerBuilder {
    Server::builder().crate_items(module_path!())
}

/// The server of the case's items, which must be a valid catalog.
pub fn server() -> Server {
    builder().build().expect("the case's catalog is valid")
}

/// The whole response to one request (`id` 1, no `_meta`).
pub fn response(server: &Server, method: &str, params: Value) -> Value {
    let message = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
    let bytes = message.to_string();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let reply = server.handle(&Session::new(), bytes.as_bytes());
    runtime
        .block_on(reply.resolve())
        .expect("a request is answered")
        .to_value()
}

/// The result of a request that must succeed.
pub fn result(server: &Server, method: &str, params: Value) -> Value {
    let response = response(server, method, params);
    assert!(
        response.get("error").is_none(),
        "{method} was refused: {response}"
    );
    response["result"].clone()
}

/// The error code of a request that must fail.
pub fn error_code(server: &Server, method: &str, params: Value) -> i64 {
    let response = response(server, method, params);
    response["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("{method} should have failed: {response}"))
}

/// `tools/call`'s result.
pub fn call(server: &Server, name: &str, arguments: Value) -> Value {
    result(
        server,
        "tools/call",
        json!({ "name": name, "arguments": arguments }),
    )
}

/// The first text content of a `tools/call` or `prompts/get` result item.
pub fn text(value: &Value) -> &str {
    value["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {value}"))
}

/// The names of a list (`tools`, `prompts`, `resources`: by `name`), sorted.
pub fn names(server: &Server, method: &str, field: &str) -> Vec<String> {
    let list = result(server, method, json!({}));
    let mut names: Vec<String> = list[field]
        .as_array()
        .unwrap_or_else(|| panic!("no {field} in {list}"))
        .iter()
        .map(|item| item["name"].as_str().expect("a name").to_owned())
        .collect();
    names.sort();
    names
}

/// The listed tool named `name` (with its schemas and annotations).
pub fn tool(server: &Server, name: &str) -> Value {
    let list = result(server, "tools/list", json!({}));
    list["tools"]
        .as_array()
        .expect("a tool list")
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name} in {list}"))
        .clone()
}
