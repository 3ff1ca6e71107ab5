//! Live catalogs over real pipes and sockets: every open listener hears a change exactly once,
//! with its own subscription id, filtered as it asked; a closed listener leaves no entry.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use beam_mcp_tests::http_client::Connection;
use beam_mcp_tests::{HttpServerProcess, ServerProcess, modern_meta, spec, wait_until};
use serde_json::{Value, json};

fn fixture_path() -> &'static PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| beam_mcp_tests::workspace_binary("beam-mcp-fixture", "fixture"))
}

fn listen(id: Value, notifications: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
        "params": { "notifications": notifications, "_meta": modern_meta() } })
}

fn call(id: Value, tool: &str, arguments: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": { "name": tool, "arguments": arguments, "_meta": modern_meta() } })
}

fn subscription_of(message: &Value) -> &Value {
    &message["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"]
}

fn check(message: &Value, def: &str) {
    spec()
        .check("2026-07-28", def, message)
        .unwrap_or_else(|e| panic!("{e}"));
}

/// Reads lines until the answer with `id`; everything before it.
fn until(server: &mut ServerProcess, id: &Value) -> (Vec<Value>, Value) {
    let mut before = Vec::new();
    loop {
        let message = server.recv().expect("a message before EOF");
        if message.get("id") == Some(id) && message.get("method").is_none() {
            return (before, message);
        }
        before.push(message);
    }
}

fn listener_count(server: &mut ServerProcess, id: i64) -> (Vec<Value>, usize) {
    let (before, answer) = until(server, &json!(id));
    let _ = &answer;
    let count = answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    (before, count)
}

#[test]
fn stdio_listeners_hear_each_change_once_and_leave_no_entry() {
    let mut s = ServerProcess::spawn(fixture_path());
    s.send(&listen(json!(1), json!({ "toolsListChanged": true })));
    s.send(&listen(
        json!("two"),
        json!({ "toolsListChanged": true, "promptsListChanged": false }),
    ));
    s.send(&listen(json!(3), json!({ "promptsListChanged": true })));
    let mut acks = Vec::new();
    while acks.len() < 3 {
        let ack = s.recv().unwrap();
        assert_eq!(
            ack["method"], "notifications/subscriptions/acknowledged",
            "first: {ack}"
        );
        check(&ack, "SubscriptionsAcknowledgedNotification");
        acks.push(subscription_of(&ack).clone());
    }
    acks.sort_by_key(|v| v.to_string());
    assert_eq!(
        acks,
        [json!("two"), json!(1), json!(3)],
        "the id, in its JSON type"
    );
    s.send(&call(json!(10), "listeners", json!({})));
    let (_, count) = listener_count(&mut s, 10);
    assert_eq!(count, 3);

    s.send(&call(json!(11), "toggle", json!({})));
    let (mut heard, _) = until(&mut s, &json!(11));
    // Each listener hears the change on a task of its own, so on a loaded machine a notification
    // can come after a later answer: echo until both tools listeners have heard (30 s at most),
    // then once more, to give a duplicate the chance to show itself.
    let deadline = std::time::Instant::now() + beam_mcp_tests::READY_WITHIN;
    let mut id = 12;
    while heard.len() < 2 && std::time::Instant::now() < deadline {
        s.send(&call(json!(id), "echo", json!({ "text": "after" })));
        heard.extend(until(&mut s, &json!(id)).0);
        id += 1;
    }
    s.send(&call(json!(id), "echo", json!({ "text": "after" })));
    heard.extend(until(&mut s, &json!(id)).0);
    for message in &heard {
        assert_eq!(
            message["method"], "notifications/tools/list_changed",
            "{message}"
        );
        check(message, "ToolListChangedNotification");
    }
    let mut ids: Vec<String> = heard
        .iter()
        .map(|m| subscription_of(m).to_string())
        .collect();
    ids.sort();
    assert_eq!(
        ids,
        ["\"two\"", "1"],
        "each tools listener exactly once, the prompts one never"
    );

    // Cancelling a listen stream ends it without a result, and removes its entry.
    s.send(&json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": 1 } }));
    let mut id = 20;
    wait_until("the cancelled listener is let go", || {
        s.send(&call(json!(id), "listeners", json!({})));
        let (before, count) = listener_count(&mut s, id);
        assert!(
            before.is_empty(),
            "nothing is sent for a cancelled stream: {before:?}"
        );
        id += 1;
        count == 2
    });
    // At EOF the open streams end with their result, carrying their subscription id.
    drop(s.take_stdin());
    let mut results = Vec::new();
    while let Some(message) = s.recv() {
        assert!(message.get("method").is_none(), "{message}");
        spec()
            .check_response(Some("2026-07-28"), "subscriptions/listen", &message)
            .unwrap();
        assert_eq!(message["result"]["resultType"], "complete");
        assert_eq!(
            &message["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
            &message["id"]
        );
        results.push(message["id"].to_string());
    }
    results.sort();
    assert_eq!(results, ["\"two\"", "3"]);
}

#[test]
fn stdio_a_2025_session_hears_list_changes_and_its_resource_updates() {
    let mut s = ServerProcess::spawn(fixture_path());
    let legacy_call = |id: i64, tool: &str, arguments: Value| json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": tool, "arguments": arguments } });
    // Before initialize, a change is not sent.
    s.send(&legacy_call(1, "toggle", json!({})));
    let (before, _) = until(&mut s, &json!(1));
    assert!(before.is_empty(), "{before:?}");
    let init = s.request(&json!({ "jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "t", "version": "0" } } }));
    assert_eq!(init["result"]["capabilities"]["tools"]["listChanged"], true);
    assert_eq!(
        init["result"]["capabilities"]["resources"]["subscribe"],
        true
    );
    s.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    let sub = s.request(&json!({ "jsonrpc": "2.0", "id": 3, "method": "resources/subscribe", "params": { "uri": "fixture://watched" } }));
    assert_eq!(sub["result"], json!({}));
    // One at a time: calls run concurrently, so pipelined answers may come in any order.
    let calls = [
        legacy_call(4, "toggle", json!({})),
        legacy_call(5, "touch", json!({ "uri": "fixture://watched" })),
        legacy_call(6, "touch", json!({ "uri": "fixture://elsewhere" })),
        legacy_call(7, "echo", json!({ "text": "after" })),
    ];
    let mut notes = Vec::new();
    for call in &calls {
        s.send(call);
        let (before, _) = until(&mut s, &call["id"]);
        notes.extend(before);
    }
    // A session's notifications and the answers to calls travel separately (the answers from
    // the read loop, the notifications from the session's forwarder): a change may be told
    // after the answer of the call that made it, under load after later answers too. So read
    // up to the unsubscribe's answer, then on until both changes were told.
    s.send(&json!({ "jsonrpc": "2.0", "id": 8, "method": "resources/unsubscribe", "params": { "uri": "fixture://watched" } }));
    let (late, unsub) = until(&mut s, &json!(8));
    notes.extend(late);
    while notes.len() < 2 {
        notes.push(s.recv().expect("the changes are told before EOF"));
    }
    for n in &notes {
        spec()
            .check("2025-11-25", "JSONRPCNotification", n)
            .unwrap();
    }
    let methods: Vec<&str> = notes
        .iter()
        .map(|n| n["method"].as_str().unwrap())
        .collect();
    assert_eq!(
        methods,
        [
            "notifications/tools/list_changed",
            "notifications/resources/updated"
        ]
    );
    assert_eq!(notes[1]["params"], json!({ "uri": "fixture://watched" }));
    assert_eq!(unsub["result"], json!({}));
    s.send(&legacy_call(
        9,
        "touch",
        json!({ "uri": "fixture://watched" }),
    ));
    let (before, _) = until(&mut s, &json!(9));
    assert!(before.is_empty(), "unsubscribed: {before:?}");
}

fn headers(method: &str) -> Vec<(&str, &str)> {
    vec![
        ("host", "127.0.0.1"),
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", method),
    ]
}

fn http_call(addr: std::net::SocketAddr, tool: &str) -> Value {
    let body = call(json!(1), tool, json!({}));
    let mut h = headers("tools/call");
    h.push(("mcp-name", tool));
    Connection::open(addr)
        .post(&h, body.to_string().as_bytes())
        .json()
}

fn http_listeners(addr: std::net::SocketAddr) -> usize {
    http_call(addr, "listeners")["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn http_listen_streams_hear_each_change_once_and_closing_removes_them() {
    let server = HttpServerProcess::spawn(fixture_path());
    let mut streams = Vec::new();
    for id in [json!(1), json!("b")] {
        let mut conn = Connection::open(server.addr);
        let body = listen(id.clone(), json!({ "toolsListChanged": true }));
        let head = conn.post_head(
            &headers("subscriptions/listen"),
            body.to_string().as_bytes(),
        );
        assert_eq!(head.status, 200);
        assert_eq!(head.header("content-type"), Some("text/event-stream"));
        let ack: Value = serde_json::from_str(&conn.next_event().unwrap()).unwrap();
        assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
        assert_eq!(subscription_of(&ack), &id);
        streams.push((id, conn));
    }
    assert_eq!(http_listeners(server.addr), 2);
    assert_eq!(http_call(server.addr, "toggle")["result"]["isError"], false);
    for (id, conn) in &mut streams {
        let heard: Value = serde_json::from_str(&conn.next_event().unwrap()).unwrap();
        assert_eq!(heard["method"], "notifications/tools/list_changed");
        assert_eq!(subscription_of(&heard), id);
        check(&heard, "ToolListChangedNotification");
    }
    // Exactly once: the next event on each stream is the one for the second change.
    assert_eq!(http_call(server.addr, "toggle")["result"]["isError"], false);
    for (_, conn) in &mut streams {
        let heard: Value = serde_json::from_str(&conn.next_event().unwrap()).unwrap();
        assert_eq!(heard["method"], "notifications/tools/list_changed");
    }
    // Closing a stream removes its entry.
    streams.pop();
    wait_until("a closed stream is let go", || {
        http_listeners(server.addr) == 1
    });
}

#[test]
fn stdio_with_every_slot_held_a_cancel_and_the_end_of_input_are_still_read() {
    let mut s = ServerProcess::spawn(fixture_path());
    // A watchdog: a server that stopped reading would hang this test, not fail it.
    let pid = s.pid();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watched = std::sync::Arc::clone(&done);
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(60));
        if !watched.load(std::sync::atomic::Ordering::SeqCst) {
            let _ = std::process::Command::new("kill")
                .arg(pid.to_string())
                .status();
        }
    });
    // The default bound is 64 requests in flight: take every slot with a listen stream.
    for id in 0..64 {
        s.send(&listen(json!(id), json!({ "toolsListChanged": true })));
    }
    for _ in 0..64 {
        let ack = s.recv().expect("an acknowledgement");
        assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    }
    // A cancel needs no slot: it is read, and frees one for the call after it.
    s.send(&json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": 7 } }));
    s.send(&call(json!("echo"), "echo", json!({ "text": "through" })));
    let (before, answer) = until(&mut s, &json!("echo"));
    assert!(before.is_empty(), "{before:?}");
    assert_eq!(answer["result"]["content"][0]["text"], "through");
    // The end of input ends the 63 open streams with their results, and the process exits.
    drop(s.take_stdin());
    let mut ended = 0;
    while let Some(message) = s.recv() {
        assert_eq!(message["result"]["resultType"], "complete", "{message}");
        assert_ne!(message["id"], 7, "the cancelled stream is never answered");
        ended += 1;
    }
    assert_eq!(ended, 63);
    done.store(true, std::sync::atomic::Ordering::SeqCst);
}

#[test]
fn stdio_a_call_waiting_for_a_slot_can_be_cancelled_before_it_starts() {
    let mut s = ServerProcess::spawn(fixture_path());
    // Every one of the 64 slots held by a listen stream.
    for id in 0..64 {
        s.send(&listen(json!(id), json!({ "toolsListChanged": true })));
    }
    for _ in 0..64 {
        let ack = s.recv().expect("an acknowledgement");
        assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    }
    // This call finds no slot: it waits, not started, and is cancelled while it waits.
    s.send(&call(json!("waits"), "sleepy", json!({ "ms": 30_000 })));
    s.send(&json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": "waits" } }));
    // A stream cancelled frees a slot: the waiting call, next in line, takes it and ends at
    // once; the call after it is served.
    s.send(&json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": 0 } }));
    s.send(&call(json!("counts"), "counts", json!({})));
    let (before, answer) = until(&mut s, &json!("counts"));
    assert!(before.is_empty(), "{before:?}");
    let counts = &answer["result"]["structuredContent"];
    assert_eq!(
        counts["started"], 0,
        "the cancelled call never ran: {counts}"
    );
    // The end of input ends the 63 streams left; the cancelled call is never answered.
    drop(s.take_stdin());
    let mut ended = 0;
    while let Some(message) = s.recv() {
        assert_ne!(message["id"], "waits", "{message}");
        ended += 1;
    }
    assert_eq!(ended, 63);
}
