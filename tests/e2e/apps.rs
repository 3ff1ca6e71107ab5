//! MCP Apps (`io.modelcontextprotocol/ui`) from the weather example over a real pipe at both
//! revisions: the extension declared, the tools' `_meta.ui` links (one visible to the view
//! only), the `ui://` view listed and read with its `_meta.ui`, its HTML the file's bytes, and
//! the app-only tool answering. Every message is checked against the official schema of its
//! revision (`stdio_weather::ask`); the browser test (`tests/apps`) renders the view.

use beam_mcp_tests::{ServerProcess, modern_meta, workspace_root};
use serde_json::{Value, json};

const VIEW: &str = "ui://weather/reading";
const MIME_TYPE: &str = "text/html;profile=mcp-app";

fn ask(server: &mut ServerProcess, revision: &str, id: u64, method: &str, extra: Value) -> Value {
    let mut params = extra;
    if revision == "2026-07-28" {
        params["_meta"] = modern_meta();
    }
    let request = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
    let stateless = (revision == "2026-07-28").then_some(revision);
    let response = super::stdio_weather::ask(server, stateless, request);
    assert!(response.get("error").is_none(), "{response}");
    response["result"].clone()
}

fn tool<'a>(tools: &'a Value, name: &str) -> &'a Value {
    tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
}

/// The view's `_meta`, as the example's attribute declares it.
fn view_meta() -> Value {
    json!({ "ui": {
        "csp": {
            "connectDomains": ["https://api.example.invalid"],
            "resourceDomains": ["https://fonts.example.invalid"],
        },
        "permissions": { "clipboardWrite": {} },
        "prefersBorder": true,
    } })
}

fn the_catalog_links_tools_to_the_view(s: &mut ServerProcess, revision: &str) {
    let tools = ask(s, revision, 10, "tools/list", json!({}));
    assert_eq!(
        tool(&tools, "reading")["_meta"],
        json!({
            "ui": { "resourceUri": VIEW, "visibility": ["model", "app"] },
            "ui/resourceUri": VIEW,
        })
    );
    // Visible to the view only: hosts hide it from the model, tools/list still lists it.
    assert_eq!(
        tool(&tools, "reading_fahrenheit")["_meta"],
        json!({
            "ui": { "resourceUri": VIEW, "visibility": ["app"] },
            "ui/resourceUri": VIEW,
        })
    );
    assert!(tool(&tools, "get_weather").get("_meta").is_none());

    let resources = ask(s, revision, 11, "resources/list", json!({}));
    let listed = resources["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["uri"] == VIEW)
        .expect("the view is listed");
    assert_eq!(listed["mimeType"], MIME_TYPE);
    assert_eq!(listed["title"], "Reading card");
    assert_eq!(listed["_meta"], view_meta());

    let read = ask(s, revision, 12, "resources/read", json!({ "uri": VIEW }));
    let html =
        std::fs::read_to_string(workspace_root().join("examples/weather/assets/reading.html"))
            .expect("the view's file");
    assert_eq!(
        read["contents"],
        json!([{ "uri": VIEW, "mimeType": MIME_TYPE, "text": html, "_meta": view_meta() }])
    );

    // The app-only tool answers like any other (visibility is the host's to enforce).
    let reading = ask(
        s,
        revision,
        13,
        "tools/call",
        json!({ "name": "reading", "arguments": { "place": "Lisbon" } }),
    );
    let celsius = reading["structuredContent"]["celsius"].as_f64().unwrap();
    let fahrenheit = ask(
        s,
        revision,
        14,
        "tools/call",
        json!({ "name": "reading_fahrenheit", "arguments": { "place": "Lisbon" } }),
    );
    assert_eq!(
        fahrenheit["content"],
        json!([{ "type": "text", "text": format!("{} °F", celsius * 9.0 / 5.0 + 32.0) }])
    );
}

#[test]
fn a_2026_07_28_client_finds_the_extension_at_discover_and_the_view_by_its_link() {
    let mut s = super::stdio_weather::weather();
    let rev = "2026-07-28";
    let discovered = ask(&mut s, rev, 1, "server/discover", json!({}));
    assert_eq!(
        discovered["capabilities"]["extensions"]["io.modelcontextprotocol/ui"],
        json!({})
    );
    the_catalog_links_tools_to_the_view(&mut s, rev);
    assert!(s.finish().success());
}

#[test]
fn a_2025_11_25_client_that_renders_views_finds_the_extension_at_initialize() {
    let mut s = super::stdio_weather::weather();
    let rev = "2025-11-25";
    // As the extension's document has a host declare it, whatever the revision.
    let hello = ask(
        &mut s,
        rev,
        1,
        "initialize",
        json!({
            "protocolVersion": rev,
            "capabilities": { "extensions": { "io.modelcontextprotocol/ui": { "mimeTypes": [MIME_TYPE] } } },
            "clientInfo": { "name": "apps-test", "version": "1" },
        }),
    );
    assert_eq!(
        hello["capabilities"]["extensions"]["io.modelcontextprotocol/ui"],
        json!({})
    );
    s.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    the_catalog_links_tools_to_the_view(&mut s, rev);
    assert!(s.finish().success());
}
