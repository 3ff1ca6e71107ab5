//! What hosts display, from the weather example over a real pipe at both revisions: the
//! server's title, description, website and icon; icons on tools and prompts; a resource's size
//! and annotations; annotations on content. Every message is checked against the official
//! schema of its revision, and the embedded icons against `base64` of the files (coreutils, not
//! our encoder).

use std::process::Command;

use beam_mcp_tests::{ServerProcess, modern_meta, workspace_root};
use serde_json::{Value, json};

/// `data:<type>;base64,<the file, encoded by coreutils>`.
fn data_uri(mime_type: &str, asset: &str) -> String {
    let path = workspace_root().join("examples/weather/assets").join(asset);
    let out = Command::new("base64")
        .arg("-w0")
        .arg(&path)
        .output()
        .expect("coreutils base64 runs");
    assert!(out.status.success(), "base64 {}", path.display());
    format!(
        "data:{mime_type};base64,{}",
        String::from_utf8(out.stdout).unwrap()
    )
}

/// The result of a request, its answer checked against the schema of `revision`.
fn ask(server: &mut ServerProcess, revision: &str, request: Value) -> Value {
    let stateless = (revision == "2026-07-28").then_some(revision);
    let response = super::stdio_weather::ask(server, stateless, request);
    assert!(response.get("error").is_none(), "{response}");
    response["result"].clone()
}

fn params(revision: &str, extra: Value) -> Value {
    let mut params = extra;
    if revision == "2026-07-28" {
        params["_meta"] = modern_meta();
    }
    params
}

/// The entry of `list` whose `key` is `value`.
fn entry<'a>(list: &'a Value, key: &str, value: &str) -> &'a Value {
    list.as_array()
        .unwrap()
        .iter()
        .find(|e| e[key] == value)
        .unwrap_or_else(|| panic!("no {key} {value} in {list}"))
}

fn server_info_in_full() -> Value {
    json!({
        "name": "weather",
        "version": "0.1.0",
        "title": "Weather",
        "description": "Current readings and toy forecasts for a few European cities.",
        "websiteUrl": "https://example.invalid/beam-mcp/weather",
        "icons": [{
            "src": data_uri("image/svg+xml", "weather.svg"),
            "mimeType": "image/svg+xml",
            "sizes": ["any"],
            "theme": "light",
        }],
    })
}

/// The listings and the forecast's annotated blocks, exact, at `revision` (after its
/// handshake).
fn lists_and_content(s: &mut ServerProcess, revision: &str) {
    let tools = ask(
        s,
        revision,
        json!({ "jsonrpc": "2.0", "id": 10, "method": "tools/list", "params": params(revision, json!({})) }),
    );
    let get_weather = entry(&tools["tools"], "name", "get_weather");
    assert_eq!(get_weather["title"], "Current weather");
    assert_eq!(
        get_weather["icons"],
        json!([{ "src": data_uri("image/png", "sun.png"), "mimeType": "image/png", "sizes": ["16x16"] }])
    );
    // An item without icons has no `icons` key, not an empty array.
    assert!(
        entry(&tools["tools"], "name", "reading")
            .get("icons")
            .is_none()
    );

    let resources = ask(
        s,
        revision,
        json!({ "jsonrpc": "2.0", "id": 11, "method": "resources/list", "params": params(revision, json!({})) }),
    );
    let stations = entry(&resources["resources"], "uri", "weather://stations");
    assert_eq!(
        stations["annotations"],
        json!({ "audience": ["user", "assistant"], "priority": 0.8, "lastModified": "2026-07-28T09:00:00Z" })
    );
    assert!(stations.get("size").is_none());
    let icon = entry(&resources["resources"], "uri", "weather://icon.png");
    assert_eq!(icon["size"], 67);
    assert_eq!(
        icon["annotations"],
        json!({ "audience": ["user"], "priority": 0.0 })
    );
    // The size advertised is the size read.
    let read = ask(
        s,
        revision,
        json!({ "jsonrpc": "2.0", "id": 12, "method": "resources/read",
                "params": params(revision, json!({ "uri": "weather://icon.png" })) }),
    );
    let blob = read["contents"][0]["blob"].as_str().unwrap();
    let padding = blob.bytes().rev().take_while(|b| *b == b'=').count();
    assert_eq!(blob.len() / 4 * 3 - padding, 67);

    let prompts = ask(
        s,
        revision,
        json!({ "jsonrpc": "2.0", "id": 13, "method": "prompts/list", "params": params(revision, json!({})) }),
    );
    assert_eq!(
        entry(&prompts["prompts"], "name", "plan_trip")["icons"],
        json!([{ "src": data_uri("image/svg+xml", "weather.svg"), "mimeType": "image/svg+xml", "sizes": ["any"] }])
    );

    let forecast = ask(
        s,
        revision,
        json!({ "jsonrpc": "2.0", "id": 14, "method": "tools/call",
                "params": params(revision, json!({ "name": "forecast", "arguments": { "place": "Oslo", "days": 2 } })) }),
    );
    assert_eq!(
        forecast["content"],
        json!([
            { "type": "text", "text": "day 1: -2 °C, snow",
              "annotations": { "audience": ["user", "assistant"], "priority": 1.0 } },
            { "type": "text", "text": "day 2: -1 °C, snow",
              "annotations": { "audience": ["user", "assistant"], "priority": 0.5 } },
        ])
    );
}

#[test]
fn a_2026_07_28_client_sees_the_server_in_full_at_discover_and_in_brief_on_every_result() {
    let mut s = super::stdio_weather::weather();
    let rev = "2026-07-28";
    let discovered = ask(
        &mut s,
        rev,
        json!({ "jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": { "_meta": modern_meta() } }),
    );
    assert_eq!(
        discovered["_meta"]["io.modelcontextprotocol/serverInfo"],
        server_info_in_full()
    );
    let tools = ask(
        &mut s,
        rev,
        json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": { "_meta": modern_meta() } }),
    );
    // Every other result carries it without the icons (their data: URIs), description or site.
    assert_eq!(
        tools["_meta"]["io.modelcontextprotocol/serverInfo"],
        json!({ "name": "weather", "version": "0.1.0", "title": "Weather" })
    );
    lists_and_content(&mut s, rev);
    assert!(s.finish().success());
}

#[test]
fn a_2025_11_25_client_sees_the_server_in_full_at_initialize() {
    let mut s = super::stdio_weather::weather();
    let rev = "2025-11-25";
    let hello = ask(
        &mut s,
        rev,
        json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": rev, "capabilities": {},
            "clientInfo": { "name": "display-test", "version": "1" } } }),
    );
    assert_eq!(hello["serverInfo"], server_info_in_full());
    s.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    lists_and_content(&mut s, rev);
    assert!(s.finish().success());
}
