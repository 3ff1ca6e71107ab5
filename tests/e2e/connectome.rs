//! The connectome surface of a real server process, over a pipe and over a socket: the
//! declared graph its build step wrote, the observed graph of the calls just made, and their
//! diff, each canonical bytes that verify independently and agree with what was listed.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::OnceLock;

use beam_mcp_connectome::{Algorithm, canonical};
use beam_mcp_tests::http_client::Connection;
use beam_mcp_tests::{HttpServerProcess, ServerProcess, modern_meta};
use serde_json::{Value, json};

fn fixture_path() -> &'static PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| beam_mcp_tests::workspace_binary("beam-mcp-fixture", "fixture"))
}

fn request(id: u64, method: &str, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = modern_meta();
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
}

fn read(id: u64, uri: &str) -> Value {
    request(id, "resources/read", json!({ "uri": uri }))
}

/// The text of a `resources/read` answer, checked to be the one JSON content of the URI.
fn text_of(answer: &Value, uri: &str) -> String {
    let contents = &answer["result"]["contents"];
    assert_eq!(contents.as_array().map(Vec::len), Some(1), "{answer}");
    assert_eq!(contents[0]["uri"], uri);
    assert_eq!(contents[0]["mimeType"], "application/json");
    contents[0]["text"].as_str().expect("text").to_owned()
}

/// What the same conversation shows, whichever transport carried it.
fn check(tools: &Value, declared: &str, observed: &str, diff: &str, tool_answer: &Value) {
    // The declared file: a canonical v3 graph for this server, its tools the listed ones.
    let verified = canonical::verify(declared.as_bytes()).expect("the declared bytes verify");
    assert_eq!(
        (verified.schema_version, verified.algorithm),
        (3, Algorithm::Sha256)
    );
    let (graph, _) = canonical::parse(declared.as_bytes()).unwrap();
    let declared_tools: BTreeSet<String> = graph
        .nodes()
        .iter()
        .filter_map(|n| n.id().strip_prefix("fixture/tool/").map(str::to_owned))
        .collect();
    let listed: BTreeSet<String> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        // Registered by hand, not by `#[tool]`: outside the declared graph.
        .filter(|name| !["connectome", "whoami_by_hand"].contains(&name.as_str()))
        .collect();
    assert_eq!(
        declared_tools, listed,
        "the declared tools are the linked ones"
    );
    // The tool answers the same bytes, with their digest.
    let structured = &tool_answer["result"]["structuredContent"];
    assert_eq!(structured["bytes"], declared);
    assert_eq!(structured["sha256"], verified.digest_hex);

    // Observed: the echo call, counted once, by identity only.
    canonical::verify(observed.as_bytes()).expect("the observed bytes verify");
    let (observed, _) = canonical::parse(observed.as_bytes()).unwrap();
    let echo = observed
        .edges()
        .iter()
        .find(|e| e.to == "fixture/tool/echo")
        .expect("the echo call was observed");
    assert_eq!(echo.from, "fixture/server");
    assert!(
        !observed
            .to_owned()
            .nodes()
            .iter()
            .any(|n| !n.labels().is_empty())
    );

    // The diff: the echo edge declared and observed; the surface's own reads are of
    // hand-built items (the build step cannot see them), recorded as such: not drift.
    let record: Value = serde_json::from_str(diff).unwrap();
    assert_eq!(canonical::encode_value(&record).unwrap(), diff.as_bytes());
    let classes = &record["classes"];
    let has = |class: &str, to: &str| {
        classes[class]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["from"] == "fixture/server" && e["to"] == to)
    };
    assert!(has("declared_and_observed", "fixture/tool/echo"), "{diff}");
    assert!(
        has("declared_never_observed", "fixture/tool/sleepy"),
        "{diff}"
    );
    assert!(
        has(
            "declared_and_observed",
            "fixture/resource/connectome:%2F%2Fdeclared"
        ),
        "{diff}"
    );
    assert!(
        classes["observed_but_undeclared"]
            .as_array()
            .unwrap()
            .is_empty(),
        "{diff}"
    );
    assert!(
        record["window"]["started_at"].as_str().unwrap()
            <= record["window"]["ended_at"].as_str().unwrap()
    );
}

#[test]
fn stdio_the_surface_answers_canonical_bytes_of_this_very_conversation() {
    let mut server = ServerProcess::spawn(fixture_path());
    let tools = server.request(&request(1, "tools/list", json!({})));
    let echo = server.request(&request(
        2,
        "tools/call",
        json!({ "name": "echo", "arguments": { "text": "hi" } }),
    ));
    assert_eq!(echo["result"]["content"][0]["text"], "hi");
    let declared = text_of(
        &server.request(&read(3, "connectome://declared")),
        "connectome://declared",
    );
    let observed = text_of(
        &server.request(&read(4, "connectome://observed")),
        "connectome://observed",
    );
    let diff = text_of(
        &server.request(&read(5, "connectome://diff")),
        "connectome://diff",
    );
    let tool = server.request(&request(
        6,
        "tools/call",
        json!({ "name": "connectome", "arguments": { "graph": "declared" } }),
    ));
    check(&tools, &declared, &observed, &diff, &tool);
    // Bad input on the surface is a clear error, and the server keeps serving.
    let unknown = server.request(&request(
        7,
        "tools/call",
        json!({ "name": "connectome", "arguments": { "graph": "all" } }),
    ));
    assert_eq!(unknown["result"]["isError"], true, "{unknown}");
    let again = server.request(&read(8, "connectome://observed"));
    assert!(again["result"].is_object(), "{again}");
    assert!(server.finish().success());
}

#[test]
fn http_the_surface_answers_the_same_over_a_socket() {
    let server = HttpServerProcess::spawn(fixture_path());
    let post = |method: &str, name: Option<&str>, body: Value| {
        let mut headers = vec![
            ("host", "127.0.0.1"),
            ("content-type", "application/json"),
            ("accept", "application/json, text/event-stream"),
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", method),
        ];
        if let Some(name) = name {
            headers.push(("mcp-name", name));
        }
        let response = Connection::open(server.addr).post(&headers, body.to_string().as_bytes());
        assert_eq!(response.status, 200);
        response.json()
    };
    let tools = post("tools/list", None, request(1, "tools/list", json!({})));
    post(
        "tools/call",
        Some("echo"),
        request(
            2,
            "tools/call",
            json!({ "name": "echo", "arguments": { "text": "hi" } }),
        ),
    );
    let uri = |graph: &str| format!("connectome://{graph}");
    let mut texts = Vec::new();
    for graph in ["declared", "observed", "diff"] {
        let answer = post("resources/read", Some(&uri(graph)), read(3, &uri(graph)));
        texts.push(text_of(&answer, &uri(graph)));
    }
    let tool = post(
        "tools/call",
        Some("connectome"),
        request(
            4,
            "tools/call",
            json!({ "name": "connectome", "arguments": { "graph": "declared" } }),
        ),
    );
    check(&tools, &texts[0], &texts[1], &texts[2], &tool);
}
