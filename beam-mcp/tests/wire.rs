//! Wire tests of the pure core: every method of both revisions, exact expected JSON, and
//! every message the server emits validated against the official schema of its revision.

mod common;

use beam_mcp::protocol::{Reply, Session};
use beam_mcp::{Args, CacheHint, CacheScope, Content, Server, State, ToolError};
use beam_mcp_tests::check_against;
use common::{bare, call, modern, raw, send};
use serde_json::{Value, json};

/// Echoes the text.
#[beam_mcp::tool(read_only)]
fn echo(text: String) -> String {
    text
}

/// Adds two integers, as structured output.
#[beam_mcp::tool(idempotent)]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
struct Point {
    /// Horizontal.
    x: f64,
    /// Vertical.
    y: f64,
    /// A label.
    label: Option<String>,
}

/// Mirrors a point.
#[beam_mcp::tool(name = "geo.mirror", title = "Mirror")]
fn mirror(Args(p): Args<Point>) -> Point {
    Point {
        x: -p.x,
        y: -p.y,
        label: p.label,
    }
}

/// Always fails, as a tool error.
#[beam_mcp::tool]
fn fail(reason: String) -> Result<String, ToolError> {
    Err(ToolError::new(format!("refused: {reason}")))
}

/// Panics.
#[beam_mcp::tool]
fn boom() -> String {
    panic!("secret internals")
}

/// Returns the JSON value it was given, untouched.
#[beam_mcp::tool]
fn mirror_value(value: Value) -> Value {
    value
}

#[derive(Clone)]
struct Greeting(&'static str);

/// Greets with the host's greeting.
#[beam_mcp::tool]
fn greet(name: String, State(greeting): State<Greeting>) -> Vec<Content> {
    vec![
        Content::text(format!("{}, {name}", greeting.0)),
        Content::image(b"\x89PNG", "image/png"),
    ]
}

fn server() -> Server {
    Server::builder()
        .name("wire")
        .version("9.9.9")
        .crate_items(module_path!())
        .state(Greeting("Hello"))
        .build()
        .expect("the test catalog is valid")
}

const INFO: &str = "io.modelcontextprotocol/serverInfo";

fn server_meta() -> Value {
    json!({ INFO: { "name": "wire", "version": "9.9.9" } })
}

#[test]
fn discover_answers_the_stateless_shape_at_every_era() {
    let s = server();
    let expected = json!({
        "jsonrpc": "2.0", "id": 1,
        "result": {
            "supportedVersions": ["2026-07-28", "2025-11-25"],
            "capabilities": { "tools": { "listChanged": false } },
            "ttlMs": 0, "cacheScope": "private", "resultType": "complete",
            "_meta": server_meta(),
        }
    });
    assert_eq!(
        send(&s, &Session::new(), bare(1, "server/discover", json!({}))),
        Some(expected.clone())
    );
    assert_eq!(
        send(&s, &Session::new(), modern(1, "server/discover", json!({}))),
        Some(expected)
    );
}

#[test]
fn an_unsupported_version_is_answered_32022_with_supported_and_requested() {
    let s = server();
    let mut m = bare(7, "tools/list", json!({}));
    m["params"]["_meta"] = json!({ "io.modelcontextprotocol/protocolVersion": "2024-11-05" });
    assert_eq!(
        send(&s, &Session::new(), m),
        Some(json!({ "jsonrpc": "2.0", "id": 7, "error": {
            "code": -32022, "message": "Unsupported protocol version",
            "data": { "supported": ["2026-07-28", "2025-11-25"], "requested": "2024-11-05" }
        }}))
    );
}

#[test]
fn meta_rules_are_checked_before_any_method() {
    let s = server();
    let cases = [
        (
            json!({ "io.modelcontextprotocol/protocolVersion": "2026-07-28" }),
            "Invalid params: params._meta lacks io.modelcontextprotocol/clientCapabilities, which 2026-07-28 requires on every request",
        ),
        (
            json!({ "io.modelcontextprotocol/clientCapabilities": {} }),
            "Invalid params: params._meta lacks io.modelcontextprotocol/protocolVersion",
        ),
        (
            json!("2026-07-28"),
            "Invalid params: params._meta must be an object",
        ),
    ];
    for (meta, message) in cases {
        for method in ["tools/list", "server/discover", "tools/call"] {
            let mut m = bare(3, method, json!({}));
            m["params"]["_meta"] = meta.clone();
            assert_eq!(
                send(&s, &Session::new(), m),
                Some(
                    json!({ "jsonrpc": "2.0", "id": 3, "error": { "code": -32602, "message": message } })
                ),
                "{method} with {meta}"
            );
        }
    }
}

#[test]
fn initialize_is_legacy_and_offers_a_served_version() {
    let s = server();
    let session = Session::new();
    let expected = |version: &str| {
        json!({ "jsonrpc": "2.0", "id": 1, "result": {
            "protocolVersion": version,
            "capabilities": { "tools": { "listChanged": false } },
            "serverInfo": { "name": "wire", "version": "9.9.9" },
        }})
    };
    let params = json!({ "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "c", "version": "1" } });
    assert!(!session.is_initialized());
    assert_eq!(
        send(&s, &session, bare(1, "initialize", params)),
        Some(expected("2025-11-25"))
    );
    assert!(session.is_initialized());
    let older = json!({ "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "c", "version": "1" } });
    assert_eq!(
        send(&s, &Session::new(), bare(1, "initialize", older)),
        Some(expected("2025-11-25"))
    );
    // A 2026-07-28 request has no initialize.
    assert_eq!(
        send(&s, &Session::new(), modern(1, "initialize", json!({}))),
        Some(
            json!({ "jsonrpc": "2.0", "id": 1, "error": { "code": -32601, "message": "Method not found", "data": { "method": "initialize" } } })
        )
    );
}

#[test]
fn a_modern_only_server_refuses_initialize_naming_what_it_serves() {
    let s = Server::builder()
        .supported_versions([beam_mcp::protocol::Revision::V2026_07_28])
        .build()
        .unwrap();
    let params = json!({ "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "c", "version": "1" } });
    assert_eq!(
        send(&s, &Session::new(), bare(1, "initialize", params)),
        Some(
            json!({ "jsonrpc": "2.0", "id": 1, "error": { "code": -32022, "message": "Unsupported protocol version",
            "data": { "supported": ["2026-07-28"], "requested": "2025-11-25" } } })
        )
    );
}

#[test]
fn ping_is_legacy_only() {
    let s = server();
    let ok = json!({ "jsonrpc": "2.0", "id": 1, "result": {} });
    assert_eq!(
        send(
            &s,
            &Session::new(),
            json!({ "jsonrpc": "2.0", "id": 1, "method": "ping" })
        ),
        Some(ok.clone())
    );
    let mut legacy = bare(1, "ping", json!({}));
    legacy["params"]["_meta"] = json!({ "io.modelcontextprotocol/protocolVersion": "2025-11-25" });
    assert_eq!(send(&s, &Session::new(), legacy), Some(ok));
    assert_eq!(
        send(&s, &Session::new(), modern(1, "ping", json!({}))),
        Some(
            json!({ "jsonrpc": "2.0", "id": 1, "error": { "code": -32601, "message": "Method not found", "data": { "method": "ping" } } })
        )
    );
}

#[test]
fn tools_list_advertises_names_schemas_and_hints_sorted_by_name() {
    let s = server();
    let listed = send(&s, &Session::new(), bare(1, "tools/list", json!({}))).unwrap();
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "add",
            "boom",
            "echo",
            "fail",
            "geo.mirror",
            "greet",
            "mirror_value",
            "summarise"
        ]
    );
    let echo = &listed["result"]["tools"][2];
    assert_eq!(
        echo,
        &json!({
            "name": "echo",
            "description": "Echoes the text.",
            "inputSchema": {
                "type": "object",
                "properties": { "text": { "type": "string" } },
                "required": ["text"],
                "additionalProperties": false,
            },
            "annotations": { "readOnlyHint": true },
        })
    );
    let add = &listed["result"]["tools"][0];
    assert_eq!(add["annotations"], json!({ "idempotentHint": true }));
    assert_eq!(
        add["outputSchema"],
        json!({ "type": "object", "properties": { "result": {
            "type": "integer", "format": "int64", "minimum": i64::MIN, "maximum": i64::MAX
        } }, "required": ["result"] })
    );
    let mirror = &listed["result"]["tools"][4];
    assert_eq!(mirror["title"], "Mirror");
    // Outputs keep null for None (serde writes it); an optional input may be left out or sent
    // as null (serde reads both as None).
    assert_eq!(
        mirror["outputSchema"]["properties"]["label"],
        json!({ "description": "A label.", "type": ["string", "null"] })
    );
    assert_eq!(mirror["inputSchema"]["required"], json!(["x", "y"]));
    assert_eq!(
        mirror["inputSchema"]["properties"]["label"],
        json!({ "description": "A label.", "type": ["string", "null"] })
    );
    // 2026-07-28's caching hints and result type are not 2025-11-25 fields.
    for key in ["ttlMs", "cacheScope", "resultType"] {
        assert!(
            listed["result"].get(key).is_none(),
            "a legacy result carries no {key}"
        );
    }

    let modern_list = send(&s, &Session::new(), modern(2, "tools/list", json!({}))).unwrap();
    assert_eq!(modern_list["result"]["resultType"], "complete");
    assert_eq!(modern_list["result"]["ttlMs"], 0);
    assert_eq!(modern_list["result"]["cacheScope"], "private");
    assert_eq!(modern_list["result"]["_meta"], server_meta());
    assert_eq!(modern_list["result"]["tools"], listed["result"]["tools"]);
}

#[test]
fn cache_hints_and_pages_follow_the_builder() {
    let s = Server::builder()
        .crate_items(module_path!())
        .state(Greeting("Hi"))
        .tools_cache(CacheHint {
            ttl_ms: 60_000,
            scope: CacheScope::Public,
        })
        .discover_cache(CacheHint {
            ttl_ms: 5,
            scope: CacheScope::Public,
        })
        .page_size(3)
        .build()
        .unwrap();
    let d = send(&s, &Session::new(), modern(1, "server/discover", json!({}))).unwrap();
    assert_eq!(
        (
            d["result"]["ttlMs"].clone(),
            d["result"]["cacheScope"].clone()
        ),
        (json!(5), json!("public"))
    );
    let mut seen = Vec::new();
    let mut cursor = Value::Null;
    for page in 0.. {
        let r = send(
            &s,
            &Session::new(),
            modern(1, "tools/list", json!({ "cursor": cursor })),
        )
        .unwrap();
        assert_eq!(r["result"]["ttlMs"], 60_000);
        assert_eq!(r["result"]["cacheScope"], "public");
        let tools = r["result"]["tools"].as_array().unwrap();
        assert!(tools.len() <= 3);
        seen.extend(tools.iter().map(|t| t["name"].as_str().unwrap().to_owned()));
        match r["result"].get("nextCursor") {
            Some(next) => cursor = next.clone(),
            None => break,
        }
        assert!(page < 5, "the walk ends");
    }
    assert_eq!(
        seen,
        [
            "add",
            "boom",
            "echo",
            "fail",
            "geo.mirror",
            "greet",
            "mirror_value",
            "summarise"
        ]
    );
    for (cursor, message) in [
        (json!("not a cursor"), "Invalid params: cursor is malformed"),
        (json!(17), "Invalid params: cursor is malformed"),
        (
            json!("eyJhIjoieCIsImsiOiJwcm9tcHRzIiwidiI6MX0"),
            "Invalid params: cursor belongs to another list, not tools",
        ),
    ] {
        assert_eq!(
            send(
                &s,
                &Session::new(),
                bare(4, "tools/list", json!({ "cursor": cursor }))
            ),
            Some(
                json!({ "jsonrpc": "2.0", "id": 4, "error": { "code": -32602, "message": message } })
            )
        );
    }
}

#[test]
fn tools_call_returns_text_structured_content_and_tool_errors() {
    let s = server();
    let session = Session::new();
    assert_eq!(
        send(
            &s,
            &session,
            call(1, false, "echo", json!({ "text": "hé" }))
        ),
        Some(json!({ "jsonrpc": "2.0", "id": 1, "result": {
            "content": [{ "type": "text", "text": "hé" }], "isError": false
        }}))
    );
    assert_eq!(
        send(
            &s,
            &session,
            call(2, true, "add", json!({ "a": 2, "b": 40 }))
        ),
        Some(json!({ "jsonrpc": "2.0", "id": 2, "result": {
            "content": [{ "type": "text", "text": "{\"result\":42}" }],
            "structuredContent": { "result": 42 },
            "isError": false, "resultType": "complete", "_meta": server_meta(),
        }}))
    );
    let mirrored = send(
        &s,
        &session,
        call(3, false, "geo.mirror", json!({ "x": 1.5, "y": -2 })),
    )
    .unwrap();
    assert_eq!(
        mirrored["result"]["structuredContent"],
        json!({ "x": -1.5, "y": 2.0, "label": null })
    );
    assert_eq!(
        send(
            &s,
            &session,
            call(4, false, "fail", json!({ "reason": "no" }))
        ),
        Some(json!({ "jsonrpc": "2.0", "id": 4, "result": {
            "content": [{ "type": "text", "text": "refused: no" }], "isError": true
        }}))
    );
    let greeted = send(
        &s,
        &session,
        call(5, true, "greet", json!({ "name": "Ada" })),
    )
    .unwrap();
    assert_eq!(
        greeted["result"]["content"],
        json!([{ "type": "text", "text": "Hello, Ada" }, { "type": "image", "data": "iVBORw==", "mimeType": "image/png" }])
    );
}

#[test]
fn structured_content_matches_the_advertised_output_schema() {
    let s = server();
    let listed = send(&s, &Session::new(), bare(1, "tools/list", json!({}))).unwrap();
    let output_schema = |name: &str| {
        listed["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap()["outputSchema"]
            .clone()
    };
    let calls = [
        ("add", json!({ "a": 1, "b": 2 })),
        ("geo.mirror", json!({ "x": 1, "y": 2 })),
        ("geo.mirror", json!({ "x": 1, "y": 2, "label": "p" })),
        ("mirror_value", json!({ "value": [null, { "k": true }] })),
    ];
    for (name, arguments) in calls {
        let r = send(
            &s,
            &Session::new(),
            modern(
                2,
                "tools/call",
                json!({ "name": name, "arguments": arguments }),
            ),
        )
        .unwrap();
        assert_eq!(r["result"]["isError"], false);
        let structured = &r["result"]["structuredContent"];
        check_against(&output_schema(name), structured).unwrap();
        assert_eq!(
            r["result"]["content"][0]["text"],
            structured.to_string(),
            "the text mirrors it"
        );
    }
}

#[test]
fn booleans_and_null_stay_booleans_and_null_at_every_depth() {
    let s = server();
    let value = json!({ "t": true, "f": false, "n": null, "deep": [[{ "x": null, "y": [true] }]] });
    let r = send(
        &s,
        &Session::new(),
        call(1, false, "mirror_value", json!({ "value": value })),
    )
    .unwrap();
    assert_eq!(r["result"]["structuredContent"], json!({ "result": value }));
}

#[test]
fn invalid_arguments_are_an_is_error_result_naming_the_tool_and_reason() {
    let s = server();
    let cases = [
        (
            json!({ "text": 42 }),
            "echo: invalid arguments: text must be of type string",
        ),
        (
            json!({}),
            "echo: invalid arguments: missing required property: text",
        ),
        (
            json!({ "text": "a", "extra": 1 }),
            "echo: invalid arguments: unknown property: extra",
        ),
        (
            json!([1]),
            "echo: invalid arguments: arguments must be an object",
        ),
        (
            json!(null),
            "echo: invalid arguments: arguments must be an object",
        ),
    ];
    for (arguments, text) in cases {
        assert_eq!(
            send(
                &s,
                &Session::new(),
                modern(
                    9,
                    "tools/call",
                    json!({ "name": "echo", "arguments": arguments })
                )
            ),
            Some(json!({ "jsonrpc": "2.0", "id": 9, "result": {
                "content": [{ "type": "text", "text": text }], "isError": true,
                "resultType": "complete", "_meta": server_meta(),
            }})),
            "{arguments}"
        );
    }
    // Passed the schema, but too large for the typed parameter: still the caller's error.
    let r = send(
        &s,
        &Session::new(),
        call(1, false, "add", json!({ "a": 1, "b": 1e300 })),
    )
    .unwrap();
    assert_eq!(r["result"]["isError"], true);
    assert!(
        r["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("add: invalid arguments: ")
    );
}

#[test]
fn ten_thousand_distinct_caller_keys_are_refused_and_leave_the_catalog_as_it_was() {
    let s = server();
    let before = send(&s, &Session::new(), bare(1, "tools/list", json!({}))).unwrap();
    let mut arguments = serde_json::Map::new();
    arguments.insert("text".into(), json!("x"));
    for i in 0..10_000 {
        arguments.insert(format!("caller_key_{i:05}"), json!(i));
    }
    let r = send(
        &s,
        &Session::new(),
        bare(
            2,
            "tools/call",
            json!({ "name": "echo", "arguments": arguments }),
        ),
    )
    .unwrap();
    let text = r["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with(
            "echo: invalid arguments: unknown properties: caller_key_00000, caller_key_00001"
        ),
        "{}",
        &text[..80]
    );
    assert_eq!(r["result"]["isError"], true);
    let after = send(&s, &Session::new(), bare(1, "tools/list", json!({}))).unwrap();
    assert_eq!(before, after);
}

#[test]
fn a_panicking_tool_is_a_tool_error_that_leaks_nothing() {
    let s = server();
    let r = send(
        &s,
        &Session::new(),
        bare(1, "tools/call", json!({ "name": "boom" })),
    )
    .unwrap();
    assert_eq!(
        r,
        json!({ "jsonrpc": "2.0", "id": 1, "result": {
            "content": [{ "type": "text", "text": "boom: the tool failed with an internal error" }], "isError": true
        }})
    );
    assert!(!r.to_string().contains("secret"));
    // The server goes on serving: the next call succeeds, with its own answer.
    let next = send(
        &s,
        &Session::new(),
        call(2, false, "echo", json!({ "text": "ok" })),
    )
    .unwrap();
    assert_eq!(next["result"]["isError"], false, "{next}");
    assert_eq!(
        next["result"]["content"],
        json!([{ "type": "text", "text": "ok" }])
    );
}

#[test]
fn tools_call_refuses_a_missing_name_and_an_unknown_tool() {
    let s = server();
    let missing = json!({ "jsonrpc": "2.0", "id": 1, "error": { "code": -32602, "message": "Invalid params: tools/call requires a string name" } });
    assert_eq!(
        send(&s, &Session::new(), bare(1, "tools/call", json!({}))),
        Some(missing.clone())
    );
    assert_eq!(
        send(
            &s,
            &Session::new(),
            json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call" })
        ),
        Some(missing.clone())
    );
    assert_eq!(
        send(
            &s,
            &Session::new(),
            bare(1, "tools/call", json!({ "name": true }))
        ),
        Some(missing)
    );
    assert_eq!(
        send(
            &s,
            &Session::new(),
            modern(2, "tools/call", json!({ "name": "nope" }))
        ),
        Some(
            json!({ "jsonrpc": "2.0", "id": 2, "error": { "code": -32602, "message": "Unknown tool", "data": { "name": "nope" } } })
        )
    );
}

#[test]
fn envelope_refusals_are_exact() {
    let s = server();
    let err = |code: i64, message: &str| json!({ "jsonrpc": "2.0", "error": { "code": code, "message": message } });
    assert_eq!(
        raw(&s, b"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]"),
        err(
            -32600,
            "Batch requests are not supported at any supported protocol version"
        )
    );
    assert_eq!(
        raw(&s, b"{\"jsonrpc\":"),
        err(-32700, "Parse error: body is not valid JSON")
    );
    assert_eq!(
        raw(&s, b"\"\xff\xfe\""),
        err(-32700, "Parse error: body is not valid JSON")
    );
    assert_eq!(
        raw(&s, b"\"hello\""),
        err(-32600, "Expected a JSON object, got a string")
    );
    assert_eq!(
        raw(&s, b"3"),
        err(-32600, "Expected a JSON object, got a number")
    );
    let mut huge = br#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"p":""#.to_vec();
    huge.extend(std::iter::repeat_n(b'x', 1_048_576));
    huge.extend_from_slice(b"\"}}");
    assert_eq!(
        raw(&s, &huge),
        err(-32600, "Request body exceeds 1048576 bytes")
    );
    assert_eq!(
        raw(&s, b"null"),
        err(-32600, "Expected a JSON object, got null")
    );
    assert_eq!(
        raw(&s, b"true"),
        err(-32600, "Expected a JSON object, got a scalar")
    );
    let deep = format!("{{\"a\":{}{}}}", "[".repeat(64), "]".repeat(64));
    assert_eq!(
        raw(&s, deep.as_bytes()),
        err(-32600, "Request body nests deeper than 64 levels")
    );
    assert_eq!(
        raw(
            &s,
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"ping\"}"
        ),
        json!({ "jsonrpc": "2.0", "error": { "code": -32600, "message": "Request body repeats a key", "data": { "key": "id" } } })
    );
    assert_eq!(
        raw(&s, b"{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}"),
        err(-32600, "Invalid Request")
    );
    assert_eq!(
        raw(&s, b"{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}"),
        err(-32600, "Invalid Request")
    );
    let with_id = |id: Value, code: i64, message: &str| json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } });
    assert_eq!(
        raw(&s, br#"{"jsonrpc":"1.0","id":"a","method":"ping"}"#),
        with_id(json!("a"), -32600, "Invalid Request")
    );
    assert_eq!(
        raw(&s, br#"{"jsonrpc":"2.0","id":0,"method":7}"#),
        with_id(json!(0), -32600, "Invalid Request")
    );
    // A response (to a request the server sent on a 2025-11-25 session) is never answered;
    // one nobody waits for is dropped.
    for response in [
        &br#"{"jsonrpc":"2.0","id":0,"result":{}}"#[..],
        br#"{"jsonrpc":"2.0","id":"x","error":{"code":1,"message":"no"}}"#,
    ] {
        assert_eq!(
            common::resolve(s.handle(&beam_mcp::protocol::Session::new(), response)),
            None
        );
    }
    assert_eq!(
        raw(&s, br#"{"jsonrpc":"2.0","id":5,"method":"nope/nope"}"#),
        json!({ "jsonrpc": "2.0", "id": 5, "error": { "code": -32601, "message": "Method not found", "data": { "method": "nope/nope" } } })
    );
    assert_eq!(
        raw(
            &s,
            br#"{"jsonrpc":"2.0","id":5,"method":"ping","params":[1]}"#
        ),
        with_id(json!(5), -32602, "Invalid params: params must be an object")
    );
    assert_eq!(
        raw(
            &s,
            br#"{"jsonrpc":"2.0","id":5,"method":"server/discover","_meta":{}}"#
        ),
        with_id(
            json!(5),
            -32602,
            "Invalid params: _meta belongs in params._meta (2026-07-28 RequestParams), not at the top level of the request"
        )
    );
    // Methods removed in 2026-07-28 or never advertised here.
    for method in [
        "logging/setLevel",
        "resources/subscribe",
        "resources/list",
        "prompts/list",
        "completion/complete",
    ] {
        assert_eq!(
            send(&s, &Session::new(), modern(6, method, json!({}))),
            Some(
                json!({ "jsonrpc": "2.0", "id": 6, "error": { "code": -32601, "message": "Method not found", "data": { "method": method } } })
            )
        );
    }
}

#[test]
fn notifications_are_never_answered() {
    let s = server();
    let session = Session::new();
    for message in [
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
        json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": 1 } }),
        json!({ "jsonrpc": "2.0", "method": "tools/call", "params": { "name": "boom" } }),
        json!({ "jsonrpc": "2.0", "method": "ping", "_meta": {} }),
        json!({ "jsonrpc": "1.0", "method": "x" }),
        json!({ "method": 5 }),
    ] {
        assert!(
            matches!(s.handle_value(&session, message.clone()), Reply::Silent),
            "{message}"
        );
    }
    assert!(session.is_initialized());
}

#[test]
fn shutdown_answers_then_closes_and_exit_closes_silently() {
    let s = server();
    let session = Session::new();
    assert_eq!(
        send(&s, &session, modern(1, "shutdown", json!({}))),
        Some(
            json!({ "jsonrpc": "2.0", "id": 1, "result": { "resultType": "complete", "_meta": server_meta() } })
        )
    );
    assert!(session.is_closed());
    let session = Session::new();
    assert!(matches!(
        s.handle_value(
            &session,
            json!({ "jsonrpc": "2.0", "id": 2, "method": "exit" })
        ),
        Reply::Silent
    ));
    assert!(session.is_closed());
}

/// Summarises a text with the client's model.
#[beam_mcp::tool(requires(sampling))]
fn summarise(text: String) -> String {
    format!("would sample a summary of {} characters", text.len())
}

#[test]
fn a_call_lacking_a_required_client_capability_is_32021() {
    let s = server();
    let session = Session::new();
    let r = send(
        &s,
        &session,
        call(1, true, "summarise", json!({ "text": "abc" })),
    )
    .unwrap();
    assert_eq!(
        r["error"],
        json!({
            "code": -32021,
            "message": "Missing required client capability: sampling",
            "data": { "requiredCapabilities": { "sampling": {} } }
        })
    );
    let mut with_sampling = call(2, true, "summarise", json!({ "text": "abc" }));
    with_sampling["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] =
        json!({ "sampling": {} });
    let r = send(&s, &session, with_sampling).unwrap();
    assert_eq!(r["result"]["isError"], false);
    // A bare request does not say what the client can do: the tool runs.
    let r = send(
        &s,
        &session,
        call(3, false, "summarise", json!({ "text": "abc" })),
    )
    .unwrap();
    assert_eq!(r["result"]["isError"], false, "{r}");
    assert_eq!(
        r["result"]["content"][0]["text"],
        "would sample a summary of 3 characters"
    );
}

fn panics_before_its_future(
    _: Value,
    _: beam_mcp::ToolContext,
) -> beam_mcp::tool::BoxFuture<Result<beam_mcp::CallToolResult, beam_mcp::tool::ToolFault>> {
    panic!("a hand-written handler that panics while building its future")
}

#[test]
fn a_handler_panicking_before_its_future_is_still_a_tool_error() {
    let s = Server::builder()
        .tool(
            echo::DEF
                .with_name("eager")
                .with_handler(panics_before_its_future),
        )
        .build()
        .unwrap();
    let r = send(
        &s,
        &Session::new(),
        call(1, true, "eager", json!({ "text": "x" })),
    )
    .unwrap();
    assert_eq!(r["result"]["isError"], true);
    assert_eq!(
        r["result"]["content"][0]["text"],
        "eager: the tool failed with an internal error"
    );
}

#[test]
fn the_builder_refuses_a_bad_catalog_before_the_first_request() {
    let missing_state = Server::builder().tool(greet::DEF).build().unwrap_err();
    assert!(
        missing_state
            .to_string()
            .contains("tool \"greet\" takes State<"),
        "{missing_state}"
    );
    assert!(
        missing_state
            .to_string()
            .ends_with("call .state(..) on the builder")
    );
    let twice = Server::builder()
        .tool(echo::DEF)
        .tool(echo::DEF)
        .build()
        .unwrap_err();
    assert_eq!(
        twice.to_string(),
        "tool name \"echo\" is declared more than once; the lists are keyed by it, so rename or remove one"
    );
    let mut bad = echo::DEF;
    bad.name = "has space";
    assert_eq!(
        Server::builder().tool(bad).build().unwrap_err().to_string(),
        "tool name \"has space\" is invalid: a tool name is 1 to 64 characters of A-Z a-z 0-9 _ . - /; rename it, or set name = \"...\""
    );
    let mut undocumented = echo::DEF;
    undocumented.description = " ";
    assert_eq!(
        Server::builder()
            .tool(undocumented)
            .build()
            .unwrap_err()
            .to_string(),
        "tool \"echo\" has no description: write a doc comment on the function, or set description = \"...\""
    );
    assert_eq!(
        Server::builder()
            .page_size(0)
            .build()
            .unwrap_err()
            .to_string(),
        "page_size must be at least 1"
    );
    assert_eq!(
        Server::builder()
            .supported_versions([])
            .build()
            .unwrap_err()
            .to_string(),
        "supported_versions must name at least one revision"
    );
}

#[test]
fn an_empty_server_advertises_nothing_it_cannot_serve() {
    let s = Server::builder().build().unwrap();
    let d = send(&s, &Session::new(), modern(1, "server/discover", json!({}))).unwrap();
    assert_eq!(d["result"]["capabilities"], json!({}));
    assert_eq!(
        send(&s, &Session::new(), modern(2, "tools/list", json!({}))),
        Some(
            json!({ "jsonrpc": "2.0", "id": 2, "error": { "code": -32601, "message": "Method not found", "data": { "method": "tools/list" } } })
        )
    );
}
