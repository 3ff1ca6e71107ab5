//! A request as a conversation, over real pipes and real sockets: progress and logs before
//! the response and only when asked, cancellation, time limits.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Instant;

use beam_mcp_tests::http_client::Connection;
use beam_mcp_tests::{HttpServerProcess, ServerProcess, modern_meta, spec, wait_until};
use serde_json::{Value, json};

fn fixture_path() -> &'static PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| beam_mcp_tests::workspace_binary("beam-mcp-fixture", "fixture"))
}

fn fixture() -> ServerProcess {
    ServerProcess::spawn(fixture_path())
}

fn meta_with(extra: Value) -> Value {
    let mut meta = modern_meta();
    for (k, v) in extra.as_object().unwrap() {
        meta[k] = v.clone();
    }
    meta
}

fn call(id: Value, tool: &str, arguments: Value, meta: Option<Value>) -> Value {
    let mut params = json!({ "name": tool, "arguments": arguments });
    if let Some(meta) = meta {
        params["_meta"] = meta;
    }
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params })
}

/// Checks a notification against the official schema of `revision`.
fn check_notification(revision: &str, message: &Value) {
    let def = match message["method"].as_str() {
        Some("notifications/progress") => "ProgressNotification",
        Some("notifications/message") => "LoggingMessageNotification",
        other => panic!("unexpected notification {other:?}: {message}"),
    };
    spec()
        .check(revision, def, message)
        .unwrap_or_else(|e| panic!("{e}"));
}

/// Reads messages up to and including the response with `id`; the notifications before it.
fn until_response(server: &mut ServerProcess, id: &Value) -> (Vec<Value>, Value) {
    let mut notes = Vec::new();
    loop {
        let message = server.recv().expect("a message before EOF");
        if message.get("id") == Some(id) {
            return (notes, message);
        }
        assert!(
            message.get("id").is_none(),
            "another request's answer: {message}"
        );
        notes.push(message);
    }
}

fn methods(notes: &[Value]) -> Vec<(String, Value)> {
    notes
        .iter()
        .map(|n| {
            let method = n["method"].as_str().unwrap().to_owned();
            let key = if method == "notifications/progress" {
                n["params"]["progress"].clone()
            } else {
                n["params"]["level"].clone()
            };
            (method, key)
        })
        .collect()
}

#[test]
fn stdio_2026_progress_and_logs_come_before_the_response_and_only_when_asked() {
    let mut s = fixture();
    let args = json!({ "count": 3, "delay_ms": 5 });
    let meta =
        meta_with(json!({ "progressToken": "t", "io.modelcontextprotocol/logLevel": "error" }));
    s.send(&call(json!(1), "steps", args.clone(), Some(meta)));
    let (notes, response) = until_response(&mut s, &json!(1));
    notes
        .iter()
        .for_each(|n| check_notification("2026-07-28", n));
    let expected: Vec<(String, Value)> = ["error", "critical", "alert", "emergency"]
        .iter()
        .map(|l| ("notifications/message".to_owned(), json!(l)))
        .chain((1..=3).map(|i| ("notifications/progress".to_owned(), json!(f64::from(i)))))
        .collect();
    assert_eq!(methods(&notes), expected);
    assert!(
        notes[4..]
            .iter()
            .all(|n| n["params"]["progressToken"] == "t")
    );
    assert_eq!(response["result"]["content"][0]["text"], "3 steps");
    spec()
        .check_response(Some("2026-07-28"), "tools/call", &response)
        .unwrap();

    // Neither a token nor a level: the response alone.
    s.send(&call(json!(2), "steps", args, Some(modern_meta())));
    let (notes, _) = until_response(&mut s, &json!(2));
    assert_eq!(notes, Vec::<Value>::new());

    // An unknown level is refused.
    let meta = meta_with(json!({ "io.modelcontextprotocol/logLevel": "loud" }));
    let refused = s.request(&call(
        json!(3),
        "steps",
        json!({"count": 1, "delay_ms": 0}),
        Some(meta),
    ));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
}

#[test]
fn stdio_2025_honours_a_bare_progress_token_and_set_level() {
    let mut s = fixture();
    let init = s.request(&json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "t", "version": "0" } } }));
    assert_eq!(init["result"]["capabilities"]["logging"], json!({}));
    s.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    // What rmcp and the Python client send on every request: a `_meta` with only a token.
    let args = json!({ "count": 2, "delay_ms": 5 });
    s.send(&call(
        json!(1),
        "steps",
        args.clone(),
        Some(json!({ "progressToken": 0 })),
    ));
    let (notes, response) = until_response(&mut s, &json!(1));
    notes
        .iter()
        .for_each(|n| check_notification("2025-11-25", n));
    assert_eq!(
        notes.len(),
        8 + 2,
        "every level until setLevel, then the progress: {notes:?}"
    );
    assert_eq!(
        notes[8]["params"],
        json!({ "progressToken": 0, "progress": 1.0, "total": 2.0, "message": "step 1" })
    );
    assert_eq!(response["result"]["content"][0]["text"], "2 steps");
    assert!(
        response["result"].get("resultType").is_none(),
        "legacy-shaped"
    );

    let set = s.request(&json!({ "jsonrpc": "2.0", "id": 2, "method": "logging/setLevel", "params": { "level": "alert" } }));
    assert_eq!(set["result"], json!({}));
    s.send(&call(json!(3), "steps", args, None));
    let (notes, _) = until_response(&mut s, &json!(3));
    assert_eq!(
        methods(&notes),
        [
            ("notifications/message".to_owned(), json!("alert")),
            ("notifications/message".to_owned(), json!("emergency"))
        ]
    );
    let bad = s.request(&json!({ "jsonrpc": "2.0", "id": 4, "method": "logging/setLevel", "params": { "level": "loud" } }));
    assert_eq!(bad["error"]["code"], -32602);
}

fn counts(s: &mut ServerProcess, id: i64) -> Value {
    let answer = s.request(&call(json!(id), "counts", json!({}), None));
    answer["result"]["structuredContent"].clone()
}

#[test]
fn stdio_a_cancelled_call_is_dropped_and_never_answered() {
    let mut s = fixture();
    s.send(&call(
        json!("slow"),
        "sleepy",
        json!({ "ms": 30_000 }),
        None,
    ));
    // Started: the counter moves once the tool runs.
    let mut id = 100;
    wait_until("sleepy started", || {
        id += 1;
        counts(&mut s, id)["started"] == 1
    });
    s.send(&json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": "slow", "reason": "changed my mind" } }));
    wait_until("the cancelled future is dropped", || {
        id += 1;
        let c = counts(&mut s, id); // never the answer to "slow": `request` reads the next line
        assert_eq!(c["finished"], 0, "{c}");
        c["dropped"] == 1
    });
    // A cancel for an unknown or finished id is ignored, and the server goes on.
    s.send(&json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": "slow" } }));
    let echo = s.request(&call(
        json!(1),
        "echo",
        json!({ "text": "still here" }),
        None,
    ));
    assert_eq!(echo["result"]["content"][0]["text"], "still here");
    // Nothing was ever written for "slow": EOF follows.
    s.finish();
}

/// stdio polls a tool's host code where it reads the message, and makes no context for a tool
/// that never reads one (`echo`, `sleepy`): a tool that does read its context there still sees
/// the request's own, at both revisions, between calls to tools that do not; so does a
/// definition written by hand whose handler reads it without saying so.
#[test]
fn stdio_a_tool_answered_in_place_reads_its_own_requests_context() {
    let mut s = fixture();
    // The same answer from the tool's macro and from a definition written by hand.
    let whoami = |s: &mut ServerProcess, id: i64, meta: Option<Value>| {
        let answer = s.request(&call(json!(id), "whoami", json!({}), meta.clone()));
        let by_hand = s.request(&call(json!(-id), "whoami_by_hand", json!({}), meta));
        let text = answer["result"]["content"][0]["text"].clone();
        assert_eq!(by_hand["result"]["content"][0]["text"], text, "{by_hand}");
        text
    };
    let echo = |s: &mut ServerProcess, id: i64, meta: Option<Value>| {
        let answer = s.request(&call(json!(id), "echo", json!({ "text": "plain" }), meta));
        assert_eq!(answer["result"]["content"][0]["text"], "plain", "{answer}");
    };
    echo(&mut s, 1, Some(modern_meta()));
    assert_eq!(
        whoami(&mut s, 2, Some(modern_meta())),
        "2026-07-28 beam-mcp-tests"
    );
    let other = meta_with(json!({
        "io.modelcontextprotocol/clientInfo": { "name": "another", "version": "1" }
    }));
    assert_eq!(whoami(&mut s, 3, Some(other)), "2026-07-28 another");
    echo(&mut s, 4, None);
    // Legacy-shaped: no revision named, no `initialize` yet.
    assert_eq!(whoami(&mut s, 5, None), "none unnamed");
    let init = s.request(&json!({ "jsonrpc": "2.0", "id": 6, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "legacy", "version": "0" } } }));
    assert!(init["result"].is_object(), "{init}");
    s.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    assert_eq!(whoami(&mut s, 7, None), "none legacy");
    echo(&mut s, 8, None);
    s.finish();
}

#[test]
fn stdio_a_blocking_tool_past_its_limit_is_a_tool_error_while_others_are_served() {
    let mut s = fixture();
    // Blocks far past its 2 s limit, which answers it meanwhile.
    s.send(&call(
        json!("stuck"),
        "stuck",
        json!({ "ms": 10_000 }),
        Some(modern_meta()),
    ));
    s.send(&call(
        json!("echo"),
        "echo",
        json!({ "text": "meanwhile" }),
        Some(modern_meta()),
    ));
    let first = s.recv().unwrap();
    assert_eq!(
        first["id"], "echo",
        "the blocked tool holds up nothing: {first}"
    );
    let second = s.recv().unwrap();
    assert_eq!(second["id"], "stuck");
    assert_eq!(second["result"]["isError"], true);
    assert_eq!(
        second["result"]["content"][0]["text"],
        "stuck: the call exceeded its time limit of 2000 ms"
    );
    spec()
        .check_response(Some("2026-07-28"), "tools/call", &second)
        .unwrap();
}

fn headers_for<'a>(body: &'a Value, tool: &'a str) -> Vec<(&'a str, &'a str)> {
    let _ = body;
    vec![
        ("host", "127.0.0.1"),
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", tool),
    ]
}

fn http_counts(addr: std::net::SocketAddr) -> Value {
    let body = call(json!(1), "counts", json!({}), Some(modern_meta()));
    let response =
        Connection::open(addr).post(&headers_for(&body, "counts"), body.to_string().as_bytes());
    response.json()["result"]["structuredContent"].clone()
}

#[test]
fn http_a_call_that_asks_is_answered_as_an_event_stream() {
    let server = HttpServerProcess::spawn(fixture_path());
    let meta =
        meta_with(json!({ "progressToken": 7, "io.modelcontextprotocol/logLevel": "emergency" }));
    let body = call(
        json!(1),
        "steps",
        json!({ "count": 3, "delay_ms": 5 }),
        Some(meta),
    );
    let mut conn = Connection::open(server.addr);
    let head = conn.post_head(&headers_for(&body, "steps"), body.to_string().as_bytes());
    assert_eq!(head.status, 200);
    assert_eq!(head.header("content-type"), Some("text/event-stream"));
    assert_eq!(head.header("x-accel-buffering"), Some("no"));
    let mut events = Vec::new();
    while let Some(event) = conn.next_event() {
        assert!(!event.contains('\n'), "one data line per message");
        events.push(serde_json::from_str::<Value>(&event).unwrap());
    }
    let (response, notes) = events.split_last().expect("events");
    notes
        .iter()
        .for_each(|n| check_notification("2026-07-28", n));
    assert_eq!(
        methods(notes),
        [
            ("notifications/message".to_owned(), json!("emergency")),
            ("notifications/progress".to_owned(), json!(1.0)),
            ("notifications/progress".to_owned(), json!(2.0)),
            ("notifications/progress".to_owned(), json!(3.0)),
        ]
    );
    assert_eq!(response["id"], 1);
    spec()
        .check_response(Some("2026-07-28"), "tools/call", response)
        .unwrap();

    // Asking, for a tool that sends nothing: still an event stream, holding only the response.
    let meta = meta_with(json!({ "progressToken": "e" }));
    let body = call(json!(3), "echo", json!({ "text": "hi" }), Some(meta));
    let head = conn.post_head(&headers_for(&body, "echo"), body.to_string().as_bytes());
    assert_eq!(head.header("content-type"), Some("text/event-stream"));
    let only: Value = serde_json::from_str(&conn.next_event().expect("the response")).unwrap();
    assert_eq!(only["result"]["content"][0]["text"], "hi");
    assert_eq!(conn.next_event(), None);

    // Asking for nothing: plain JSON.
    let body = call(
        json!(2),
        "steps",
        json!({ "count": 2, "delay_ms": 0 }),
        Some(modern_meta()),
    );
    let plain = conn.post(&headers_for(&body, "steps"), body.to_string().as_bytes());
    assert_eq!(plain.header("content-type"), Some("application/json"));
    assert_eq!(plain.json()["result"]["content"][0]["text"], "2 steps");
}

/// Starts a 30 s `sleepy` call with `meta`, waits until it runs, closes the connection, and
/// waits until its future was dropped (never finished).
fn close_cancels(addr: std::net::SocketAddr, meta: Value) {
    let before = http_counts(addr);
    let body = call(json!(1), "sleepy", json!({ "ms": 30_000 }), Some(meta));
    let mut conn = Connection::open(addr);
    let request = beam_mcp_tests::http_client::request(
        "POST",
        &headers_for(&body, "sleepy"),
        body.to_string().as_bytes(),
    );
    conn.write(&request).unwrap();
    wait_until("sleepy started", || {
        http_counts(addr)["started"] != before["started"]
    });
    drop(conn);
    wait_until("closing the connection cancels the call", || {
        let now = http_counts(addr);
        assert_eq!(now["finished"], before["finished"], "{now}");
        now["dropped"] != before["dropped"]
    });
    let now = http_counts(addr);
    assert_eq!(
        now["dropped"].as_u64(),
        before["dropped"].as_u64().map(|d| d + 1)
    );
}

#[test]
fn http_closing_the_response_cancels_the_call() {
    let server = HttpServerProcess::spawn(fixture_path());
    // A JSON response, then an event stream.
    close_cancels(server.addr, modern_meta());
    close_cancels(server.addr, meta_with(json!({ "progressToken": "p" })));
}

#[test]
fn http_a_blocking_tool_past_its_limit_is_a_tool_error_while_others_are_served() {
    let server = HttpServerProcess::spawn(fixture_path());
    let addr = server.addr;
    // Blocks far past its 2 s limit, which answers it meanwhile.
    let stuck = std::thread::spawn(move || {
        let body = call(
            json!(1),
            "stuck",
            json!({ "ms": 10_000 }),
            Some(modern_meta()),
        );
        let answer =
            Connection::open(addr).post(&headers_for(&body, "stuck"), body.to_string().as_bytes());
        (Instant::now(), answer.json())
    });
    // The echo is sent once the tool blocks its thread, not after a pause that presumes it.
    wait_until("stuck blocks", || http_counts(addr)["blocked"] == 1);
    let body = call(
        json!(2),
        "echo",
        json!({ "text": "meanwhile" }),
        Some(modern_meta()),
    );
    let echo =
        Connection::open(addr).post(&headers_for(&body, "echo"), body.to_string().as_bytes());
    let echoed = Instant::now();
    assert_eq!(echo.json()["result"]["content"][0]["text"], "meanwhile");
    let (stuck_at, stuck) = stuck.join().unwrap();
    assert!(
        echoed < stuck_at,
        "the blocked tool held up another request"
    );
    assert_eq!(stuck["result"]["isError"], true);
    assert_eq!(
        stuck["result"]["content"][0]["text"],
        "stuck: the call exceeded its time limit of 2000 ms"
    );
}

#[test]
fn asking_the_client_over_a_pipe_takes_rounds_and_a_tampered_state_is_refused() {
    let mut server = fixture();
    let caps =
        json!({ "io.modelcontextprotocol/clientCapabilities": { "elicitation": {}, "roots": {} } });
    let first = server.request(&call(
        json!(1),
        "confirm",
        json!({}),
        Some(meta_with(caps.clone())),
    ));
    spec()
        .check_response(Some("2026-07-28"), "tools/call", &first)
        .unwrap_or_else(|e| panic!("{e}"));
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required", "{first}");
    assert_eq!(
        result["inputRequests"]["elicit-1"]["method"],
        "elicitation/create"
    );
    assert_eq!(
        result["inputRequests"]["roots-2"],
        json!({ "method": "roots/list", "params": {} })
    );
    let state = result["requestState"].as_str().unwrap();
    let retry = |id: i64, state: &str, action: Value| {
        let mut message = call(
            json!(id),
            "confirm",
            json!({}),
            Some(meta_with(caps.clone())),
        );
        message["params"]["requestState"] = json!(state);
        message["params"]["inputResponses"] = json!({
            "elicit-1": action, "roots-2": { "roots": [{ "uri": "file:///w" }] } });
        message
    };
    let accepted = json!({ "action": "accept", "content": { "ok": true } });
    let tampered = server.request(&retry(2, &format!("{state}x"), accepted.clone()));
    assert_eq!(tampered["error"]["code"], -32602, "{tampered}");
    let declined = server.request(&retry(3, state, json!({ "action": "decline" })));
    assert_eq!(
        declined["result"]["content"][0]["text"], "declined",
        "{declined}"
    );
    let done = server.request(&retry(4, state, accepted));
    assert_eq!(done["result"]["resultType"], "complete", "{done}");
    assert_eq!(done["result"]["content"][0]["text"], "ok=true with 1 roots");
    assert!(server.finish().success());
}

/// A 2025-11-25 session over stdio whose client can be asked.
fn legacy_session(server: &mut ServerProcess, capabilities: Value) {
    let init = server.request(
        &json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": capabilities,
        "clientInfo": { "name": "t", "version": "1" } } }),
    );
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    server.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
}

/// Reads until the response to `id`, answering each request the server sends with `answer`.
fn answering(
    server: &mut ServerProcess,
    id: &Value,
    answer: impl Fn(&Value) -> Option<Value>,
) -> (Vec<Value>, Value) {
    let mut asked = Vec::new();
    loop {
        let message = server.recv().expect("a message before EOF");
        if message.get("id") == Some(id) && message.get("method").is_none() {
            return (asked, message);
        }
        if message.get("method").is_some() && message.get("id").is_some() {
            spec()
                .check("2025-11-25", "JSONRPCRequest", &message)
                .unwrap_or_else(|e| panic!("{e}"));
            if let Some(reply) = answer(&message) {
                server.send(&reply);
            }
            asked.push(message);
        }
    }
}

#[test]
fn on_a_legacy_session_asks_are_requests_to_the_client_matched_by_id() {
    let mut server = fixture();
    legacy_session(&mut server, json!({ "elicitation": {}, "roots": {} }));
    server.send(&call(json!(1), "confirm", json!({}), None));
    let (asked, done) = answering(&mut server, &json!(1), |request| {
        let result = match request["method"].as_str() {
            Some("elicitation/create") => json!({ "action": "accept", "content": { "ok": true } }),
            Some("roots/list") => {
                json!({ "roots": [{ "uri": "file:///a" }, { "uri": "file:///b" }] })
            }
            _ => return None,
        };
        Some(json!({ "jsonrpc": "2.0", "id": request["id"], "result": result }))
    });
    let methods: Vec<&str> = asked
        .iter()
        .map(|m| m["method"].as_str().unwrap())
        .collect();
    assert_eq!(
        methods,
        ["elicitation/create", "roots/list"],
        "both asks go out at once"
    );
    assert_ne!(asked[0]["id"], asked[1]["id"]);
    assert_eq!(asked[0]["params"]["message"], "Sure?");
    assert_eq!(
        done["result"]["content"][0]["text"], "ok=true with 2 roots",
        "{done}"
    );
    // The client refuses one ask: the host sees the client's error.
    server.send(&call(json!(2), "confirm", json!({}), None));
    let (_, refused) = answering(&mut server, &json!(2), |request| {
        Some(match request["method"].as_str() {
            Some("roots/list") => json!({ "jsonrpc": "2.0", "id": request["id"],
                "error": { "code": -32601, "message": "no roots here" } }),
            _ => {
                json!({ "jsonrpc": "2.0", "id": request["id"], "result": { "action": "decline" } })
            }
        })
    });
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    assert_eq!(
        refused["result"]["content"][0]["text"],
        "the client refused: no roots here (-32601)"
    );
    // Nobody answers: the ask times out (the fixture's limit is 1.5 s) and the server goes on.
    server.send(&call(json!(3), "confirm", json!({}), None));
    let (asked, silent) = answering(&mut server, &json!(3), |_| None);
    assert_eq!(asked.len(), 2);
    assert_eq!(
        silent["result"]["content"][0]["text"], "the client did not answer within 1500 ms",
        "{silent}"
    );
    // A late answer to a forgotten request, and one to an id never used, are ignored.
    server.send(
        &json!({ "jsonrpc": "2.0", "id": asked[0]["id"], "result": { "action": "decline" } }),
    );
    server.send(&json!({ "jsonrpc": "2.0", "id": 999_999, "result": {} }));
    let pong = server.request(&json!({ "jsonrpc": "2.0", "id": 4, "method": "ping" }));
    assert_eq!(pong, json!({ "jsonrpc": "2.0", "id": 4, "result": {} }));
    assert!(server.finish().success());
}

/// Every slot taken (64, the default) by calls that wait on their asks, and a 65th call sent
/// before the answers: the answers queued behind it are still read, so every call completes.
/// (Before, the reader waited for a slot with the 65th call in hand and read nothing more: the
/// 64 asks timed out unanswered.)
#[test]
fn answers_behind_a_request_that_waits_for_a_slot_are_read_and_every_call_completes() {
    let mut server = fixture();
    legacy_session(&mut server, json!({ "elicitation": {}, "roots": {} }));
    let calls = 65;
    for id in 1..=calls {
        server.send(&call(json!(id), "confirm", json!({}), None));
    }
    let mut done = std::collections::BTreeMap::new();
    let mut asks = 0;
    while done.len() < calls {
        let message = server.recv().expect("a message before EOF");
        match message["method"].as_str() {
            Some(method) => {
                asks += 1;
                let result = match method {
                    "elicitation/create" => {
                        json!({ "action": "accept", "content": { "ok": true } })
                    }
                    "roots/list" => json!({ "roots": [{ "uri": "file:///a" }] }),
                    other => panic!("an unexpected request {other}"),
                };
                server.send(&json!({ "jsonrpc": "2.0", "id": message["id"], "result": result }));
            }
            None => {
                let id = message["id"].as_u64().expect("a call's id");
                done.insert(id, message["result"]["content"][0]["text"].clone());
            }
        }
    }
    assert_eq!(asks, 2 * calls, "each call asked twice");
    for (id, text) in &done {
        assert_eq!(text, "ok=true with 1 roots", "call {id}");
    }
    assert!(server.finish().success());
}

#[test]
fn a_legacy_client_without_the_capability_is_not_asked() {
    let mut server = fixture();
    legacy_session(&mut server, json!({ "roots": {} }));
    let (asked, done) = {
        server.send(&call(json!(1), "confirm", json!({}), None));
        answering(&mut server, &json!(1), |request| {
            Some(json!({ "jsonrpc": "2.0", "id": request["id"], "result": { "roots": [] } }))
        })
    };
    assert!(
        asked.iter().all(|m| m["method"] == "roots/list"),
        "{asked:?}"
    );
    assert_eq!(
        done["result"]["content"][0]["text"],
        "the client did not declare the elicitation capability for this request"
    );
    assert!(server.finish().success());
}

#[test]
fn a_sampling_request_the_client_never_answers_times_out_and_one_it_answers_completes() {
    let mut server = fixture();
    legacy_session(&mut server, json!({ "sampling": {} }));
    server.send(&call(
        json!(1),
        "summarize",
        json!({ "text": "a long day" }),
        None,
    ));
    let (asked, done) = answering(&mut server, &json!(1), |_| None);
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0]["method"], "sampling/createMessage");
    assert_eq!(asked[0]["params"]["maxTokens"], 50);
    assert_eq!(done["result"]["isError"], true, "{done}");
    assert_eq!(
        done["result"]["content"][0]["text"],
        "the client did not answer within 1500 ms"
    );
    server.send(&call(
        json!(2),
        "summarize",
        json!({ "text": "a long day" }),
        None,
    ));
    let (_, done) = answering(&mut server, &json!(2), |request| {
        Some(json!({ "jsonrpc": "2.0", "id": request["id"], "result": {
            "role": "assistant", "model": "m", "content": { "type": "text", "text": "Tiring." } } }))
    });
    assert_eq!(done["result"]["content"][0]["text"], "Tiring.", "{done}");
    assert!(server.finish().success());
}
