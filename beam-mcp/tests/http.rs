//! Streamable HTTP over a real socket on 127.0.0.1: the door (Origin, Host, method, framing,
//! authorization, body bounds), the connection rule (closed after a refusal issued before the
//! body is read, kept after one issued after it), every header rule of 2026-07-28, and the
//! status of every answer. Every JSON-RPC body is checked against the official schema.

mod loopback;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use beam_mcp::tool::{BoxFuture, ToolFault};
use beam_mcp::transport::http::{Hosts, Http, HttpBuilder, HttpError, Origins, Refusal};
use beam_mcp::{CallToolResult, Server, ToolContext};
use beam_mcp_tests::http_client::{Connection, HttpResponse, request};
use beam_mcp_tests::{modern_meta, spec, wait_until};
use loopback::start;
use serde_json::{Value, json};

/// Echoes the text.
#[beam_mcp::tool]
fn echo(text: String) -> String {
    text
}

/// Looks a thing up in a region; the region and flags travel as headers too.
#[beam_mcp::tool]
fn lookup(
    #[header("Region")] region: String,
    #[header("Limit")] limit: Option<i64>,
    #[header("Fresh")] fresh: Option<bool>,
    query: Option<String>,
) -> String {
    format!("{region} {limit:?} {fresh:?} {query:?}")
}

/// Says hi.
#[beam_mcp::prompt]
fn hi(name: String) -> String {
    format!("hi {name}")
}

#[beam_mcp::resource("test://static-text")]
fn text() -> &'static str {
    "static"
}

fn nested_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "filter": {
                "type": "object",
                "properties": { "region": { "type": "string", "x-mcp-header": "Region" } }
            }
        }
    })
}

fn answers(_: Value, _: ToolContext) -> BoxFuture<Result<CallToolResult, ToolFault>> {
    Box::pin(async { Ok(CallToolResult::new(vec![beam_mcp::Content::text("ok")])) })
}

fn faulty(_: Value, _: ToolContext) -> BoxFuture<Result<CallToolResult, ToolFault>> {
    Box::pin(async { Err(ToolFault::Internal("database password is hunter2".into())) })
}

fn catalog() -> Server {
    Server::builder()
        .name("http-test")
        .version("1")
        .crate_items(module_path!())
        .tool(echo::DEF.with_name("faulty").with_handler(faulty))
        .tool({
            let mut nested = echo::DEF
                .with_name("nested")
                .with_input_schema(nested_schema)
                .with_handler(answers);
            nested.output_schema = None;
            nested
        })
        .build()
        .unwrap()
}

fn base() -> HttpBuilder {
    base_seeing(Arc::default())
}

/// `base()`, with `authorize_body` storing the length of the body it saw last in `seen` (one
/// per server, so tests running in parallel do not share it).
fn base_seeing(seen: Arc<AtomicUsize>) -> HttpBuilder {
    base_of(catalog(), seen)
}

/// `base_seeing` for another catalog.
fn base_of(catalog: Server, seen: Arc<AtomicUsize>) -> HttpBuilder {
    Http::builder(catalog)
        .authorize(|parts| match parts.headers.get("authorization") {
            Some(v) if v == "Bearer good" => Ok(()),
            Some(v) if v == "Bearer panic" => panic!("authorize bug"),
            Some(v) if v == "Bearer expired" => Err(Refusal::unauthorized(
                "token expired",
                r#"Bearer realm="mcp", error="invalid_token""#,
            )),
            _ => Err(Refusal::new("no or wrong token; secret detail")),
        })
        .authorize_body(move |_, body| {
            seen.store(body.len(), Ordering::SeqCst);
            if body.windows(6).any(|w| w == b"forbid") {
                Err(Refusal::new("body says forbid"))
            } else {
                Ok(())
            }
        })
        .allowed_origins(Origins::list(["http://app.example"]))
        // Far past any pause between two requests on one connection, however loaded the
        // machine; the tests of the deadline set `DEADLINE`.
        .read_timeout(Duration::from_secs(30))
}

/// The header and body deadline of the tests that wait for it: what they serve meanwhile has
/// this long, on a loaded machine.
const DEADLINE: Duration = Duration::from_secs(2);

fn server() -> SocketAddr {
    start(base().build().unwrap())
}

/// The headers of a well-formed 2026-07-28 POST for `method` (and `Mcp-Name`, when given).
fn headers(addr: SocketAddr, method: &str, name: Option<&str>) -> Vec<(String, String)> {
    let mut h = vec![
        ("host".to_owned(), format!("127.0.0.1:{}", addr.port())),
        ("authorization".to_owned(), "Bearer good".to_owned()),
        ("content-type".to_owned(), "application/json".to_owned()),
        (
            "accept".to_owned(),
            "application/json, text/event-stream".to_owned(),
        ),
        ("mcp-protocol-version".to_owned(), "2026-07-28".to_owned()),
        ("mcp-method".to_owned(), method.to_owned()),
    ];
    if let Some(name) = name {
        h.push(("mcp-name".to_owned(), name.to_owned()));
    }
    h
}

fn without(mut h: Vec<(String, String)>, name: &str) -> Vec<(String, String)> {
    h.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
    h
}

fn with(mut h: Vec<(String, String)>, name: &str, value: &str) -> Vec<(String, String)> {
    h.push((name.to_owned(), value.to_owned()));
    h
}

fn body(id: i64, method: &str, mut params: Value) -> Vec<u8> {
    params["_meta"] = modern_meta();
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
        .to_string()
        .into_bytes()
}

fn post(addr: SocketAddr, headers: &[(String, String)], body: &[u8]) -> HttpResponse {
    let borrowed: Vec<(&str, &str)> = headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    Connection::open(addr).post(&borrowed, body)
}

/// The response's JSON-RPC body, checked against the 2026-07-28 schema.
fn checked(response: &HttpResponse, method: &str) -> Value {
    let value = response.json();
    if let Err(e) = spec().check_response(Some("2026-07-28"), method, &value) {
        panic!("{e}");
    }
    assert_eq!(response.header("content-type"), Some("application/json"));
    value
}

fn error_of(response: &HttpResponse, method: &str) -> (u16, i64) {
    let value = checked(response, method);
    let code = value["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("{value}"));
    (response.status, code)
}

#[test]
fn a_well_formed_request_is_served_200_and_a_notification_202() {
    let addr = server();
    let r = post(
        addr,
        &headers(addr, "tools/list", None),
        &body(1, "tools/list", json!({})),
    );
    assert_eq!(r.status, 200);
    let v = checked(&r, "tools/list");
    assert_eq!(v["result"]["tools"].as_array().unwrap().len(), 6);
    let call = body(
        2,
        "tools/call",
        json!({ "name": "echo", "arguments": { "text": "hi" } }),
    );
    let r = post(addr, &headers(addr, "tools/call", Some("echo")), &call);
    assert_eq!(
        checked(&r, "tools/call")["result"]["content"][0]["text"],
        "hi"
    );
    // Discover advertises both revisions: HTTP speaks both (2025-11-25 with sessions).
    let r = post(
        addr,
        &headers(addr, "server/discover", None),
        &body(3, "server/discover", json!({})),
    );
    assert_eq!(
        checked(&r, "server/discover")["result"]["supportedVersions"],
        json!(["2026-07-28", "2025-11-25"])
    );
    let note = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let r = post(
        addr,
        &headers(addr, "notifications/initialized", None),
        note,
    );
    assert_eq!((r.status, r.body.len()), (202, 0));
}

#[test]
fn status_codes_follow_the_error() {
    let addr = server();
    // -32601: 404.
    for method in [
        "initialize",
        "ping",
        "resources/subscribe",
        "unknown/method",
    ] {
        let r = post(
            addr,
            &headers(addr, method, None),
            &body(1, method, json!({})),
        );
        assert_eq!(error_of(&r, method), (404, -32601), "{method}");
    }
    // -32602 (an unknown tool, a resource not found): 200, the error in the body. The spec's
    // MUST-400 is a missing `_meta` field only; a client that reads 400 as a transport failure
    // would lose the error (rust-mcp-sdk's does).
    let call = body(2, "tools/call", json!({ "name": "nope", "arguments": {} }));
    let r = post(addr, &headers(addr, "tools/call", Some("nope")), &call);
    assert_eq!(error_of(&r, "tools/call"), (200, -32602));
    let read = body(3, "resources/read", json!({ "uri": "test://missing" }));
    let r = post(
        addr,
        &headers(addr, "resources/read", Some("test://missing")),
        &read,
    );
    assert_eq!(error_of(&r, "resources/read"), (200, -32602));
    assert_eq!(
        r.json()["error"]["data"],
        json!({ "uri": "test://missing" })
    );
    // A host fault: 200 with -32603, and nothing about it.
    let call = body(
        4,
        "tools/call",
        json!({ "name": "faulty", "arguments": { "text": "x" } }),
    );
    let r = post(addr, &headers(addr, "tools/call", Some("faulty")), &call);
    assert_eq!(error_of(&r, "tools/call"), (200, -32603));
    assert!(!String::from_utf8_lossy(&r.body).contains("hunter2"));
    assert_eq!(r.json()["id"], 4);
    // A tool's own failure is a result: 200.
    let call = body(
        5,
        "tools/call",
        json!({ "name": "echo", "arguments": { "text": 5 } }),
    );
    let r = post(addr, &headers(addr, "tools/call", Some("echo")), &call);
    assert_eq!(r.status, 200);
    assert_eq!(checked(&r, "tools/call")["result"]["isError"], true);
    // Decode refusals: 400.
    for (bytes, code) in [
        (&b""[..], -32700),
        (&b"{not json"[..], -32700),
        (&b"[1]"[..], -32600),
        (&br#"{"jsonrpc":"2.0","id":1,"result":{}}"#[..], -32600),
        (&br#"{"a":1,"a":2}"#[..], -32600),
    ] {
        let r = post(addr, &headers(addr, "tools/list", None), bytes);
        assert_eq!(
            error_of(&r, ""),
            (400, code),
            "{}",
            String::from_utf8_lossy(bytes)
        );
    }
}

/// 700 KB of unknown argument keys: the "invalid arguments" result names a few of them, cut,
/// and counts the rest; the answer stays small. (Before, every key came back in full.)
#[test]
fn unknown_argument_keys_are_echoed_cut_and_counted() {
    let addr = server();
    let mut arguments = serde_json::Map::new();
    arguments.insert("text".into(), json!("hi"));
    for i in 0..30_000 {
        arguments.insert(format!("unknown_key_{i:08}"), json!(0));
    }
    let call = body(
        1,
        "tools/call",
        json!({ "name": "echo", "arguments": arguments }),
    );
    assert!(call.len() > 700_000, "{}", call.len());
    let r = post(addr, &headers(addr, "tools/call", Some("echo")), &call);
    assert_eq!(r.status, 200);
    let result = checked(&r, "tools/call");
    assert_eq!(result["result"]["isError"], true);
    let text = result["result"]["content"][0]["text"].as_str().unwrap();
    let start: String = text.chars().take(300).collect();
    assert!(r.body.len() < 1024, "{} bytes: {start}…", r.body.len());
    assert!(
        text.contains("unknown properties: unknown_key_00000000, unknown_key_00000001"),
        "{text}"
    );
    let shown = text.matches("unknown_key_").count();
    assert!(
        text.contains(&format!(" and {} more", 30_000 - shown)),
        "{text}"
    );
}

#[test]
fn the_protocol_version_header_is_required_and_matched() {
    let addr = server();
    let b = body(1, "tools/list", json!({}));
    let h = headers(addr, "tools/list", None);
    let r = post(addr, &without(h.clone(), "mcp-protocol-version"), &b);
    assert_eq!(error_of(&r, "tools/list"), (400, -32020));
    assert_eq!(r.json()["id"], 1, "errors echo the request id");
    // Header 2026-07-28, body v999: a mismatch.
    let mut v999 = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": { "_meta": modern_meta() } });
    v999["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("v999.0.0");
    let r = post(addr, &h, v999.to_string().as_bytes());
    assert_eq!(error_of(&r, "tools/list"), (400, -32020));
    // Both v999: unsupported, naming what is.
    let h999 = with(
        without(h.clone(), "mcp-protocol-version"),
        "MCP-Protocol-Version",
        "v999.0.0",
    );
    let r = post(addr, &h999, v999.to_string().as_bytes());
    assert_eq!(error_of(&r, "tools/list"), (400, -32022));
    assert_eq!(
        r.json()["error"]["data"],
        json!({ "supported": ["2026-07-28", "2025-11-25"], "requested": "v999.0.0" })
    );
    // Repeated, one bad value: refused.
    let r = post(
        addr,
        &with(h.clone(), "mcp-protocol-version", "2025-11-25"),
        &b,
    );
    assert_eq!(error_of(&r, "tools/list").0, 400);
    // Missing _meta fields: -32602.
    let bare = br#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}}"#;
    assert_eq!(error_of(&post(addr, &h, bare), "tools/list"), (400, -32602));
    let mut no_caps = json!({ "jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": { "_meta": modern_meta() } });
    no_caps["params"]["_meta"]
        .as_object_mut()
        .unwrap()
        .remove("io.modelcontextprotocol/clientCapabilities");
    assert_eq!(
        error_of(
            &post(addr, &h, no_caps.to_string().as_bytes()),
            "tools/list"
        ),
        (400, -32602)
    );
    // clientInfo is optional.
    let mut no_info = json!({ "jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": { "_meta": modern_meta() } });
    no_info["params"]["_meta"]
        .as_object_mut()
        .unwrap()
        .remove("io.modelcontextprotocol/clientInfo");
    assert_eq!(post(addr, &h, no_info.to_string().as_bytes()).status, 200);
}

#[test]
fn method_and_name_headers_are_required_and_compared_exactly() {
    let addr = server();
    let b = body(1, "tools/list", json!({}));
    let h = headers(addr, "tools/list", None);
    for bad in [
        without(h.clone(), "mcp-method"),
        with(
            without(h.clone(), "mcp-method"),
            "Mcp-Method",
            "prompts/list",
        ),
        with(without(h.clone(), "mcp-method"), "Mcp-Method", "TOOLS/LIST"),
        with(h.clone(), "mcp-method", "tools/list"),
        with(h.clone(), "mcp-method", "prompts/list"),
    ] {
        assert_eq!(
            error_of(&post(addr, &bad, &b), "tools/list"),
            (400, -32020),
            "{bad:?}"
        );
    }
    for good in [
        with(without(h.clone(), "mcp-method"), "MCP-METHOD", "tools/list"),
        with(
            without(h.clone(), "mcp-method"),
            "mcp-method",
            "  tools/list\t",
        ),
    ] {
        assert_eq!(post(addr, &good, &b).status, 200, "{good:?}");
    }
    for (method, params, name) in [
        (
            "tools/call",
            json!({ "name": "echo", "arguments": { "text": "x" } }),
            "echo",
        ),
        (
            "prompts/get",
            json!({ "name": "hi", "arguments": { "name": "x" } }),
            "hi",
        ),
        (
            "resources/read",
            json!({ "uri": "test://static-text" }),
            "test://static-text",
        ),
    ] {
        let b = body(2, method, params);
        let r = post(addr, &headers(addr, method, None), &b);
        assert_eq!(error_of(&r, method), (400, -32020), "{method}: missing");
        let r = post(addr, &headers(addr, method, Some("other")), &b);
        assert_eq!(error_of(&r, method), (400, -32020), "{method}: wrong");
        let twice = with(headers(addr, method, Some(name)), "mcp-name", name);
        let r = post(addr, &twice, &b);
        assert_eq!(error_of(&r, method), (400, -32020), "{method}: repeated");
        assert_eq!(
            r.json()["error"]["message"],
            "Header mismatch: mcp-name header is repeated"
        );
        let r = post(addr, &headers(addr, method, Some(&format!(" {name} "))), &b);
        assert_eq!(r.status, 200, "{method}: trimmed");
        checked(&r, method);
    }
    // The base64 form of Mcp-Name is decoded.
    let b = body(
        3,
        "tools/call",
        json!({ "name": "echo", "arguments": { "text": "x" } }),
    );
    let r = post(
        addr,
        &headers(addr, "tools/call", Some("=?base64?ZWNobw==?=")),
        &b,
    );
    assert_eq!(r.status, 200);
}

#[test]
fn mcp_param_headers_mirror_the_annotated_arguments() {
    let addr = server();
    let call = |arguments: Value| {
        body(
            1,
            "tools/call",
            json!({ "name": "lookup", "arguments": arguments }),
        )
    };
    let h = headers(addr, "tools/call", Some("lookup"));
    // The listing carries the annotation.
    let r = post(
        addr,
        &headers(addr, "tools/list", None),
        &body(9, "tools/list", json!({})),
    );
    let tools = checked(&r, "tools/list")["result"]["tools"].clone();
    let lookup = tools
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "lookup")
        .unwrap()
        .clone();
    assert_eq!(
        lookup["inputSchema"]["properties"]["region"]["x-mcp-header"],
        "Region"
    );
    let ok = |extra: &[(&str, &str)], arguments: Value| {
        let mut h = h.clone();
        for (n, v) in extra {
            h.push(((*n).to_owned(), (*v).to_owned()));
        }
        post(addr, &h, &call(arguments))
    };
    for (extra, arguments) in [
        (vec![("Mcp-Param-Region", "eu")], json!({ "region": "eu" })),
        (
            vec![("mcp-param-region", "=?base64?SGVsbG8=?=")],
            json!({ "region": "Hello" }),
        ),
        (
            vec![("Mcp-Param-Region", "SGVsbG8=")],
            json!({ "region": "SGVsbG8=" }),
        ),
        (
            vec![("Mcp-Param-Region", "eu"), ("Mcp-Param-Limit", "42")],
            json!({ "region": "eu", "limit": 42 }),
        ),
        (
            vec![("Mcp-Param-Region", "eu"), ("Mcp-Param-Limit", "-7.0")],
            json!({ "region": "eu", "limit": -7 }),
        ),
        (
            vec![("Mcp-Param-Region", "eu"), ("Mcp-Param-Fresh", "false")],
            json!({ "region": "eu", "fresh": false }),
        ),
        (
            vec![("Mcp-Param-Region", "eu")],
            json!({ "region": "eu", "limit": null }),
        ),
        (
            vec![("Mcp-Param-Region", "eu"), ("Mcp-Param-Unknown", "x")],
            json!({ "region": "eu" }),
        ),
    ] {
        let r = ok(&extra, arguments.clone());
        assert_eq!(
            r.status,
            200,
            "{extra:?} {arguments}: {}",
            String::from_utf8_lossy(&r.body)
        );
        checked(&r, "tools/call");
    }
    for (extra, arguments) in [
        (vec![], json!({ "region": "eu" })),
        (vec![("Mcp-Param-Region", "us")], json!({ "region": "eu" })),
        (
            vec![("Mcp-Param-Region", "=?base64?SGVsbG8?=")],
            json!({ "region": "Hello" }),
        ),
        (
            vec![("Mcp-Param-Region", "=?base64?SGVs!!!bG8=?=")],
            json!({ "region": "Hello" }),
        ),
        (
            vec![("Mcp-Param-Region", "eu"), ("Mcp-Param-Region", "us")],
            json!({ "region": "eu" }),
        ),
        (
            vec![("Mcp-Param-Region", "eu"), ("Mcp-Param-Limit", "042")],
            json!({ "region": "eu", "limit": 42 }),
        ),
        (
            vec![("Mcp-Param-Region", "eu"), ("Mcp-Param-Limit", "42")],
            json!({ "region": "eu", "limit": 43 }),
        ),
        (
            vec![("Mcp-Param-Region", "eu"), ("Mcp-Param-Fresh", "True")],
            json!({ "region": "eu", "fresh": true }),
        ),
        (
            vec![("Mcp-Param-Region", "eu"), ("Mcp-Param-Limit", "1")],
            json!({ "region": "eu" }),
        ),
        (
            vec![("Mcp-Param-Region", "eu")],
            json!({ "region": "eu", "fresh": true }),
        ),
    ] {
        let r = ok(&extra, arguments.clone());
        assert_eq!(
            error_of(&r, "tools/call"),
            (400, -32020),
            "{extra:?} {arguments}"
        );
    }
}

#[test]
fn origin_and_host_guard_the_door() {
    let addr = server();
    let b = body(1, "tools/list", json!({}));
    let h = headers(addr, "tools/list", None);
    let r = post(addr, &with(h.clone(), "origin", "http://app.example"), &b);
    assert_eq!(r.status, 200);
    let r = post(addr, &with(h.clone(), "origin", "http://evil.example"), &b);
    assert_eq!(
        (r.status, r.json()["error"]["code"].clone()),
        (403, json!(-32600))
    );
    // Every value of a repeated Origin.
    let twice = with(
        with(h.clone(), "origin", "http://app.example"),
        "origin",
        "http://evil.example",
    );
    assert_eq!(post(addr, &twice, &b).status, 403);
    // A foreign Host, by itself or beside a good one.
    let evil = with(without(h.clone(), "host"), "host", "evil.example.com");
    let r = post(addr, &evil, &b);
    assert!((400..500).contains(&r.status), "{}", r.status);
    for host in [
        "localhost",
        &format!("localhost:{}", addr.port()),
        "[::1]:1",
    ] {
        let r = post(addr, &with(without(h.clone(), "host"), "host", host), &b);
        assert_eq!(r.status, 200, "{host}");
    }
}

#[test]
fn only_post_and_a_session_get_or_delete_are_served() {
    let addr = server();
    // GET and DELETE need a session id (2025-11-25); anything else is never served.
    for method in ["GET", "DELETE", "PUT"] {
        let mut c = Connection::open(addr);
        c.write(&request(method, &[("host", "127.0.0.1")], b""))
            .unwrap();
        let r = c.read_response().unwrap();
        assert_eq!(
            (r.status, r.header("allow")),
            (405, Some("GET, POST, DELETE")),
            "{method}"
        );
        assert_eq!(
            (&r.json()["error"]["message"], &r.json()["error"]["data"]),
            (
                &json!("Method not allowed; use POST"),
                &json!({ "method": method })
            )
        );
    }
}

#[test]
fn authorization_refusals_say_nothing_and_faults_are_500() {
    let seen = Arc::new(AtomicUsize::new(0));
    let addr = start(base_seeing(seen.clone()).build().unwrap());
    let b = body(1, "tools/list", json!({}));
    let h = headers(addr, "tools/list", None);
    let r = post(addr, &without(h.clone(), "authorization"), &b);
    assert_eq!(r.status, 403);
    assert_eq!(
        r.json()["error"],
        json!({ "code": -32600, "message": "Forbidden" })
    );
    assert!(!String::from_utf8_lossy(&r.body).contains("secret"));
    let panicking = with(
        without(h.clone(), "authorization"),
        "authorization",
        "Bearer panic",
    );
    assert_eq!(post(addr, &panicking, &b).status, 500);
    // authorize_body sees exactly the bytes sent, and its refusal keeps the connection.
    let forbid = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"forbid"}}"#;
    let borrowed: Vec<(&str, &str)> = h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let mut c = Connection::open(addr);
    let r = c.post(&borrowed, forbid);
    assert_eq!(r.status, 403);
    assert_eq!(seen.load(Ordering::SeqCst), forbid.len());
    assert_eq!(c.post(&borrowed, &b).status, 200, "the connection is kept");
}

#[test]
fn a_refusal_after_the_read_keeps_the_connection_alive() {
    let addr = server();
    let h = headers(addr, "tools/list", None);
    let borrowed: Vec<(&str, &str)> = h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let mut c = Connection::open(addr);
    let r = c.post(
        &borrowed,
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
    );
    assert_eq!(r.status, 400);
    assert_ne!(r.header("connection"), Some("close"));
    let r = c.post(&borrowed, &body(2, "tools/list", json!({})));
    assert_eq!(r.status, 200, "served on the same connection");
}

#[test]
fn a_refusal_before_the_read_closes_the_connection_and_never_reads_the_body() {
    let addr = server();
    // The 16 KiB body holds a whole second request; it must never be served.
    let smuggled = request(
        "POST",
        &[("host", "127.0.0.1")],
        &body(9, "tools/list", json!({})),
    );
    let mut big = smuggled.clone();
    big.resize(16 * 1024, b' ');
    let h = with(
        headers(addr, "tools/list", None),
        "origin",
        "http://evil.example",
    );
    let borrowed: Vec<(&str, &str)> = h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let mut c = Connection::open(addr);
    let r = c.post(&borrowed, &big);
    assert_eq!(r.status, 403);
    assert_eq!(r.header("connection"), Some("close"));
    assert!(c.read_response().is_none(), "nothing else is answered");
    assert!(c.is_closed_by_server(Duration::from_secs(5)));
    // Unauthorized, too large, chunked: all closed.
    let h = headers(addr, "tools/list", None);
    for (extra, expected) in [
        (vec![("authorization", "Bearer bad")], 403),
        (vec![("content-length", "2000000")], 413),
        (vec![("transfer-encoding", "chunked")], 411),
    ] {
        let mut hh: Vec<(String, String)> = h.clone();
        for (n, v) in &extra {
            hh.retain(|(name, _)| !name.eq_ignore_ascii_case(n));
            hh.push(((*n).to_owned(), (*v).to_owned()));
        }
        let borrowed: Vec<(&str, &str)> =
            hh.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        let mut c = Connection::open(addr);
        c.write(&request("POST", &borrowed, &big[..100])).unwrap();
        let r = c.read_response().expect("an answer");
        assert_eq!(
            (r.status, r.header("connection")),
            (expected, Some("close")),
            "{extra:?}"
        );
        assert!(c.is_closed_by_server(Duration::from_secs(5)), "{extra:?}");
    }
}

#[test]
fn a_body_over_one_mib_is_413_before_it_is_all_read() {
    let addr = server();
    let h = headers(addr, "tools/list", None);
    let borrowed: Vec<(&str, &str)> = h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let mut c = Connection::open(addr);
    // Declared 3 MiB; only the first MiB and a bit are sent before the answer comes back.
    let mut head = request(
        "POST",
        &[&borrowed[..], &[("content-length", "3145728")]].concat(),
        b"",
    );
    head.extend(std::iter::repeat_n(b' ', 1024 * 1024 + 10));
    let _ = c.write(&head);
    let r = c.read_response().expect("an answer");
    assert_eq!((r.status, r.header("connection")), (413, Some("close")));
    assert_eq!(
        r.json()["error"]["message"],
        "Request body exceeds 1048576 bytes"
    );
}

#[test]
fn a_dripping_body_gets_408_at_the_deadline_while_others_are_served() {
    let addr = start(base().read_timeout(DEADLINE).build().unwrap());
    let h = headers(addr, "tools/list", None);
    let borrowed: Vec<(String, String)> = h.clone();
    let (begun, dripping) = std::sync::mpsc::channel();
    let dripper = thread::spawn(move || {
        let b: Vec<(&str, &str)> = borrowed
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        let mut c = Connection::open(addr);
        let full = body(1, "tools/list", json!({}));
        let mut head = request("POST", &b, &full);
        let body_start = head.len() - full.len();
        let rest = head.split_off(body_start);
        c.write(&head).unwrap();
        let started = Instant::now();
        // The server has the head: from here the request is under way.
        wait_until("the server reads the head", || c.all_read_by_server());
        begun.send(()).unwrap();
        for byte in rest {
            if c.write(&[byte]).is_err() {
                break;
            }
            thread::sleep(Duration::from_millis(100));
            if started.elapsed() > Duration::from_secs(20) {
                break;
            }
        }
        (c.read_response(), started.elapsed())
    });
    dripping.recv().unwrap();
    let r = post(addr, &h, &body(2, "tools/list", json!({})));
    assert_eq!(r.status, 200);
    // The dripper keeps its connection for at least the deadline, which this answer had to
    // beat.
    assert!(!dripper.is_finished(), "served while the other drips");
    let (dripped, elapsed) = dripper.join().unwrap();
    let dripped = dripped.expect("an answer");
    assert_eq!(dripped.status, 408);
    assert_eq!(
        dripped.json()["error"]["message"],
        "Request body not received within 2000 ms"
    );
    // Not before the deadline; well before the 20 s the dripper would keep going (generous,
    // for a loaded machine).
    assert!(
        elapsed >= DEADLINE - Duration::from_millis(100) && elapsed < Duration::from_secs(15),
        "{elapsed:?}"
    );
}

#[test]
fn an_endpoint_without_authorize_or_origins_does_not_start() {
    let no_auth = Http::builder(catalog())
        .allowed_origins(Origins::Loopback)
        .build()
        .unwrap_err();
    assert_eq!(no_auth, HttpError::MissingAuthorize);
    assert!(no_auth.to_string().contains(".authorize(..)"));
    let no_origins = Http::builder(catalog())
        .authorize(|_| Ok(()))
        .build()
        .unwrap_err();
    assert_eq!(no_origins, HttpError::MissingAllowedOrigins);
    let no_sessions = Http::builder(catalog())
        .authorize(|_| Ok(()))
        .allowed_origins(Origins::Loopback)
        .max_sessions(0)
        .build()
        .unwrap_err();
    assert_eq!(no_sessions, HttpError::ZeroSessions);
    let hosts = Http::builder(catalog())
        .authorize(|_| Ok(()))
        .allowed_origins(Origins::Any)
        .allowed_hosts(Hosts::list(["mcp.example.com"]))
        .build();
    assert!(hosts.is_ok());
}

#[test]
fn session_control_and_malformed_envelopes_are_refused_before_the_headers() {
    let addr = server();
    for method in ["shutdown", "exit"] {
        let r = post(
            addr,
            &headers(addr, method, None),
            &body(1, method, json!({})),
        );
        assert_eq!(error_of(&r, method), (404, -32601), "{method}");
    }
    let h = without(headers(addr, "tools/list", None), "mcp-protocol-version");
    for bytes in [
        &br#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#[..],
        &br#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#[..],
        &br#"{"jsonrpc":"1.0","id":1,"method":"tools/list"}"#[..],
        &br#"{"id":1,"method":"tools/list"}"#[..],
    ] {
        let r = post(addr, &h, bytes);
        assert_eq!(
            error_of(&r, ""),
            (400, -32600),
            "{}",
            String::from_utf8_lossy(bytes)
        );
    }
    let r = post(
        addr,
        &headers(addr, "tools/list", None),
        br#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":[]}"#,
    );
    assert_eq!(error_of(&r, "tools/list"), (400, -32602));
    assert_eq!(
        r.json()["error"]["message"],
        "Invalid params: params must be an object"
    );
}

#[test]
fn authorize_can_ask_for_authentication_with_a_challenge() {
    let addr = server();
    let h = with(
        without(headers(addr, "tools/list", None), "authorization"),
        "authorization",
        "Bearer expired",
    );
    let r = post(addr, &h, &body(1, "tools/list", json!({})));
    assert_eq!(r.status, 401);
    assert_eq!(
        r.header("www-authenticate"),
        Some(r#"Bearer realm="mcp", error="invalid_token""#)
    );
    assert_eq!(
        r.json()["error"],
        json!({ "code": -32600, "message": "Unauthorized" })
    );
    assert!(!String::from_utf8_lossy(&r.body).contains("expired"));
}

#[test]
fn a_nested_x_mcp_header_is_mirrored_too() {
    let addr = server();
    let call = body(
        1,
        "tools/call",
        json!({ "name": "nested", "arguments": { "filter": { "region": "eu" } } }),
    );
    let h = headers(addr, "tools/call", Some("nested"));
    assert_eq!(
        error_of(&post(addr, &h, &call), "tools/call"),
        (400, -32020)
    );
    assert_eq!(
        error_of(
            &post(addr, &with(h.clone(), "Mcp-Param-Region", "us"), &call),
            "tools/call"
        ),
        (400, -32020)
    );
    let r = post(addr, &with(h, "Mcp-Param-Region", "eu"), &call);
    assert_eq!(r.status, 200);
    checked(&r, "tools/call");
}

#[test]
fn slow_headers_and_idle_connections_are_cut_at_the_deadline() {
    let addr = start(base().read_timeout(DEADLINE).build().unwrap());
    // Headers dripped a byte at a time: the connection is closed, whatever arrives.
    let mut slow = Connection::open(addr);
    let started = Instant::now();
    for byte in b"POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: "
        .iter()
        .cycle()
    {
        if slow.write(&[*byte]).is_err() || started.elapsed() > Duration::from_secs(20) {
            break;
        }
        thread::sleep(Duration::from_millis(50));
    }
    assert!(
        slow.is_closed_by_server(Duration::from_secs(5)),
        "still open after {:?}",
        started.elapsed()
    );
    // The deadline is 2 s; 15 s leaves room for a loaded machine and still fails a server that
    // waits for the client's 20 s.
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "cut at the deadline: {:?}",
        started.elapsed()
    );
    // An idle keep-alive connection after an answer.
    let h = headers(addr, "tools/list", None);
    let borrowed: Vec<(&str, &str)> = h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let mut idle = Connection::open(addr);
    assert_eq!(
        idle.post(&borrowed, &body(1, "tools/list", json!({})))
            .status,
        200
    );
    assert!(
        idle.is_closed_by_server(Duration::from_secs(10)),
        "an idle connection is closed"
    );
}

#[test]
fn an_absolute_form_target_is_checked_like_the_host_header() {
    let addr = server();
    let h = headers(addr, "tools/list", None);
    let borrowed: Vec<(&str, &str)> = h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let b = body(1, "tools/list", json!({}));
    let mut raw = request("POST", &borrowed, &b);
    let line_end = raw.windows(2).position(|w| w == b"\r\n").unwrap();
    raw.splice(
        ..line_end,
        b"POST http://evil.example/mcp HTTP/1.1".iter().copied(),
    );
    let mut c = Connection::open(addr);
    c.write(&raw).unwrap();
    assert_eq!(c.read_response().unwrap().status, 403);
    let mut raw = request("POST", &borrowed, &b);
    let good = format!("POST http://127.0.0.1:{}/mcp HTTP/1.1", addr.port());
    raw.splice(..line_end, good.bytes());
    let mut c = Connection::open(addr);
    c.write(&raw).unwrap();
    assert_eq!(c.read_response().unwrap().status, 200);
}

#[derive(serde::Deserialize, schemars::JsonSchema, beam_mcp::Elicit)]
struct Name {
    name: String,
}

/// Asks the user's name, then greets them.
#[beam_mcp::tool]
async fn ask_name(ctx: beam_mcp::Context) -> String {
    match ctx.elicit::<Name>("Name?").key("name").await {
        Ok(beam_mcp::Elicited::Accepted(n)) => format!("hello {}", n.name),
        Ok(_) => "no name".into(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_request_state_issued_to_one_caller_is_refused_from_another() {
    let http = Http::builder(catalog())
        .authorize(|parts| match parts.headers.get("authorization") {
            Some(v) if v == "Bearer alice" => Ok("alice".to_owned()),
            Some(v) if v == "Bearer bob" => Ok("bob".to_owned()),
            _ => Err(Refusal::new("no or wrong token")),
        })
        .allowed_origins(Origins::Loopback)
        .build()
        .unwrap();
    let addr = start(http);
    let as_user = |user: &str| {
        with(
            without(
                headers(addr, "tools/call", Some("ask_name")),
                "authorization",
            ),
            "authorization",
            &format!("Bearer {user}"),
        )
    };
    let call = |id: i64, extra: Value| {
        let mut params = json!({ "name": "ask_name", "arguments": {} });
        for (k, v) in extra.as_object().unwrap() {
            params[k] = v.clone();
        }
        let mut meta = modern_meta();
        meta["io.modelcontextprotocol/clientCapabilities"] = json!({ "elicitation": {} });
        params["_meta"] = meta;
        json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params })
            .to_string()
            .into_bytes()
    };
    let first = checked(
        &post(addr, &as_user("alice"), &call(1, json!({}))),
        "tools/call",
    );
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    assert_eq!(
        first["result"]["inputRequests"]["name"]["method"],
        "elicitation/create"
    );
    let retry = json!({
        "requestState": first["result"]["requestState"],
        "inputResponses": { "name": { "action": "accept", "content": { "name": "Ada" } } },
    });
    let stolen = post(addr, &as_user("bob"), &call(2, retry.clone()));
    assert_eq!(error_of(&stolen, "tools/call"), (200, -32602));
    assert_eq!(
        stolen.json()["error"]["message"],
        "Invalid params: requestState was issued for another request"
    );
    let own = checked(
        &post(addr, &as_user("alice"), &call(3, retry)),
        "tools/call",
    );
    assert_eq!(own["result"]["resultType"], "complete", "{own}");
    assert_eq!(own["result"]["content"][0]["text"], "hello Ada");
}

/// Which item `name_item` asks about: changed by the test between rounds, as a host's own
/// state may change while its client answers.
static ITEM: AtomicUsize = AtomicUsize::new(1);

/// Asks a name for the current item, then a second name.
#[beam_mcp::tool]
async fn name_item(ctx: beam_mcp::Context) -> String {
    let item = ITEM.load(Ordering::SeqCst);
    let first = ctx
        .elicit::<Name>(format!("Name of item {item}?"))
        .key("first")
        .await;
    let second = ctx.elicit::<Name>("A second name?").key("second").await;
    match (first, second) {
        (Ok(beam_mcp::Elicited::Accepted(a)), Ok(beam_mcp::Elicited::Accepted(b))) => {
            format!("item {item}: {} and {}", a.name, b.name)
        }
        _ => "no names".into(),
    }
}

/// A 2026-07-28 `tools/call` of `name` with the elicitation capability and `extra` params.
fn eliciting_call(id: i64, name: &str, extra: Value) -> Vec<u8> {
    let mut params = json!({ "name": name, "arguments": {} });
    for (k, v) in extra.as_object().unwrap() {
        params[k] = v.clone();
    }
    let mut meta = modern_meta();
    meta["io.modelcontextprotocol/clientCapabilities"] = json!({ "elicitation": {} });
    params["_meta"] = meta;
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params })
        .to_string()
        .into_bytes()
}

fn accepted(name: &str) -> Value {
    json!({ "action": "accept", "content": { "name": name } })
}

/// An answer goes with the question it answered: when the host asks something else under the
/// same key in a later round, neither a sealed answer nor one sent in `inputResponses` is
/// taken for it; the new question goes out.
#[test]
fn an_answer_is_used_only_for_the_question_it_answered() {
    let addr = server();
    let h = headers(addr, "tools/call", Some("name_item"));
    let round = |id, extra| {
        checked(
            &post(addr, &h, &eliciting_call(id, "name_item", extra)),
            "tools/call",
        )
    };
    ITEM.store(1, Ordering::SeqCst);
    let r1 = round(1, json!({}));
    assert_eq!(
        r1["result"]["inputRequests"]["first"]["params"]["message"], "Name of item 1?",
        "{r1}"
    );
    // Sent in inputResponses: the question changed meanwhile, so the answer is not taken.
    ITEM.store(2, Ordering::SeqCst);
    let moved = round(
        2,
        json!({ "requestState": r1["result"]["requestState"],
                "inputResponses": { "first": accepted("Ada") } }),
    );
    assert_eq!(moved["result"]["resultType"], "input_required", "{moved}");
    assert_eq!(
        moved["result"]["inputRequests"]["first"]["params"]["message"],
        "Name of item 2?"
    );
    // Answered to the question asked: taken; the second ask goes out, the first answer sealed.
    let r2 = round(
        3,
        json!({ "requestState": moved["result"]["requestState"],
                "inputResponses": { "first": accepted("Ada") } }),
    );
    assert_eq!(
        r2["result"]["inputRequests"]["second"]["params"]["message"], "A second name?",
        "{r2}"
    );
    assert!(r2["result"]["inputRequests"].get("first").is_none(), "{r2}");
    // Sealed: the item changes again, so the sealed answer to item 2 is not item 3's.
    ITEM.store(3, Ordering::SeqCst);
    let r3 = round(
        4,
        json!({ "requestState": r2["result"]["requestState"],
                "inputResponses": { "second": accepted("Bob") } }),
    );
    assert_eq!(r3["result"]["resultType"], "input_required", "{r3}");
    assert_eq!(
        r3["result"]["inputRequests"]["first"]["params"]["message"],
        "Name of item 3?"
    );
    // The second answer stays sealed (its question did not change): one more answer ends it.
    let done = round(
        5,
        json!({ "requestState": r3["result"]["requestState"],
                "inputResponses": { "first": accepted("Cy") } }),
    );
    assert_eq!(done["result"]["resultType"], "complete", "{done}");
    assert_eq!(done["result"]["content"][0]["text"], "item 3: Cy and Bob");
}

fn unix_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// A later round's state keeps the first round's expiry: answering again and again does not
/// keep a request's answers alive past the lifetime.
#[test]
fn the_rounds_of_one_request_end_within_the_first_rounds_lifetime() {
    let catalog = Server::builder()
        .name("http-test")
        .version("1")
        .crate_items(module_path!())
        .request_state_lifetime(Duration::from_secs(3))
        .build()
        .unwrap();
    let addr = start(base_of(catalog, Arc::default()).build().unwrap());
    let h = headers(addr, "tools/call", Some("ask_name"));
    let round = |id, extra| {
        checked(
            &post(addr, &h, &eliciting_call(id, "ask_name", extra)),
            "tools/call",
        )
    };
    let r1 = round(1, json!({}));
    assert_eq!(r1["result"]["resultType"], "input_required", "{r1}");
    // Sealed at or before this second: it expires at this second plus 3 at the latest.
    let first = unix_seconds();
    // A second round two seconds on, answering nothing: it asks again, with a new state
    // (which, renewed, would live to this second plus 3: at least `first` plus 5).
    while unix_seconds() < first + 2 {
        thread::sleep(Duration::from_millis(50));
    }
    let r2 = round(2, json!({ "requestState": r1["result"]["requestState"] }));
    assert_eq!(r2["result"]["resultType"], "input_required", "{r2}");
    // Past the first round's expiry, within what a renewal would have given.
    while unix_seconds() < first + 4 {
        thread::sleep(Duration::from_millis(50));
    }
    let late = post(
        addr,
        &h,
        &eliciting_call(
            3,
            "ask_name",
            json!({ "requestState": r2["result"]["requestState"],
                    "inputResponses": { "name": accepted("Ada") } }),
        ),
    );
    assert_eq!(error_of(&late, "tools/call"), (200, -32602));
    assert_eq!(
        late.json()["error"]["message"],
        "Invalid params: requestState has expired"
    );
}

/// Who is calling, as `authorize` returned it (hand-written, so only this test serves it).
fn whoami(_: Value, context: ToolContext) -> BoxFuture<Result<CallToolResult, ToolFault>> {
    let text = match context.request().principal::<String>() {
        Some(user) => format!("user {user}"),
        None => "nobody".into(),
    };
    Box::pin(async { Ok(CallToolResult::new(vec![beam_mcp::Content::text(text)])) })
}

#[test]
fn a_tool_reads_the_principal_authorize_returned_and_authorize_may_await() {
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    let gate = std::sync::Mutex::new(Some(rx));
    let server = Server::builder()
        .tool(
            echo::DEF
                .with_name("whoami")
                .with_handler(whoami)
                .with_input_schema(|| json!({ "type": "object" }))
                .with_context(true),
        )
        .build()
        .unwrap();
    let http = Http::builder(server)
        .authorize_async(move |parts| {
            let token = parts
                .headers
                .get("authorization")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            // "Bearer slow" waits for a signal that never comes: the deadline answers it.
            let stuck = match token.as_deref() {
                Some("Bearer slow") => gate.lock().unwrap().take(),
                _ => None,
            };
            async move {
                tokio::task::yield_now().await;
                if let Some(rx) = stuck {
                    let _ = tokio::task::spawn_blocking(move || rx.recv()).await;
                }
                match token.as_deref() {
                    Some("Bearer good") => Ok("alice".to_owned()),
                    Some("Bearer panic") => panic!("authorize bug"),
                    _ => Err(Refusal::new("no or wrong token")),
                }
            }
        })
        .allowed_origins(Origins::Loopback)
        // Met only by "Bearer slow": the others decide at once, on a loaded machine too.
        .read_timeout(DEADLINE)
        .build()
        .unwrap();
    let addr = start(http);
    let call = body(1, "tools/call", json!({ "name": "whoami" }));
    let r = post(addr, &headers(addr, "tools/call", Some("whoami")), &call);
    let answer = checked(&r, "tools/call");
    assert_eq!(answer["result"]["content"][0]["text"], "user alice");
    let h = |token: &str| {
        with(
            without(headers(addr, "tools/call", Some("whoami")), "authorization"),
            "authorization",
            token,
        )
    };
    assert_eq!(post(addr, &h("Bearer wrong"), &call).status, 403);
    assert_eq!(post(addr, &h("Bearer panic"), &call).status, 500);
    assert_eq!(post(addr, &h("Bearer slow"), &call).status, 500);
    drop(tx);
    // The server goes on.
    let r = post(addr, &headers(addr, "tools/call", Some("whoami")), &call);
    assert_eq!(
        checked(&r, "tools/call")["result"]["content"][0]["text"],
        "user alice"
    );
}
