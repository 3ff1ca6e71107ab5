//! Fairness over real sockets on 127.0.0.1: one principal saturates every bound it can reach
//! (tasks, listen and GET streams, 2025-11-25 sessions, in-flight places), and a second
//! principal is still served in full at both revisions: at 2025-11-25 it opens a session and
//! lists, calls and reads; at 2026-07-28 it calls, creates a task and opens a listen stream.

mod loopback;

use std::net::SocketAddr;
use std::sync::Mutex;
use std::thread;

use beam_mcp::transport::http::{Http, Origins, Refusal};
use beam_mcp::{Context, Server};
use beam_mcp_tests::http_client::{Connection, HttpResponse};
use beam_mcp_tests::wait_until;
use serde_json::{Value, json};

/// The `held` calls that started, by tag.
static STARTED: Mutex<Vec<u64>> = Mutex::new(Vec::new());

/// Permits for `held` calls and `chore` tasks to finish: the test, not a clock, ends them.
static RELEASE: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(0);

/// Runs until the test releases it, recording under `tag` that it started.
#[beam_mcp::tool]
async fn held(tag: u64) -> String {
    STARTED.lock().unwrap().push(tag);
    RELEASE.acquire().await.expect("never closed").forget();
    "released".into()
}

/// Becomes a task at once, then runs until the test releases it.
#[beam_mcp::tool(task = "optional")]
async fn chore(ctx: Context) -> String {
    ctx.detach().await;
    RELEASE.acquire().await.expect("never closed").forget();
    "done".into()
}

/// Echoes the text.
#[beam_mcp::tool]
fn echo(text: String) -> String {
    text
}

/// A note to read.
#[beam_mcp::resource("notes://today")]
fn today() -> String {
    "all quiet".into()
}

/// Small bounds, each with a share of 2 a principal; principals are bearer tokens.
fn endpoint() -> SocketAddr {
    // Live: the catalog can change, so listen streams are served.
    let (builder, _catalog) = Server::builder()
        .name("fairness")
        .version("1")
        .crate_items(module_path!())
        .max_running_tasks(8)
        .max_running_tasks_per_principal(2)
        .live();
    let server = builder.build().unwrap();
    let http = Http::builder(server)
        .authorize(|parts| match parts.headers.get("authorization") {
            Some(v) => Ok(v.to_str().unwrap_or_default().to_owned()),
            None => Err(Refusal::new("no token")),
        })
        .allowed_origins(Origins::Loopback)
        .max_in_flight_requests(8)
        .max_in_flight_per_principal(2)
        .max_sessions(8)
        .max_sessions_per_principal(2)
        .max_connections(64)
        .max_streams_per_principal(2)
        .build()
        .unwrap();
    loopback::start(http)
}

/// The headers of a 2026-07-28 POST of `method` by `user`.
fn modern_headers(addr: SocketAddr, user: &str, method: &str, name: Option<&str>) -> Vec<String> {
    let mut h = vec![
        format!("host: 127.0.0.1:{}", addr.port()),
        format!("authorization: Bearer {user}"),
        "content-type: application/json".to_owned(),
        "accept: application/json, text/event-stream".to_owned(),
        "mcp-protocol-version: 2026-07-28".to_owned(),
        format!("mcp-method: {method}"),
    ];
    if let Some(name) = name {
        h.push(format!("mcp-name: {name}"));
    }
    h
}

/// A 2026-07-28 request's body, declaring the tasks extension.
fn modern_body(method: &str, mut params: Value) -> String {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {
            "extensions": { "io.modelcontextprotocol/tasks": {} }
        },
    });
    json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params }).to_string()
}

fn split(h: &[String]) -> Vec<(&str, &str)> {
    h.iter()
        .map(|l| l.split_once(": ").expect("a header line"))
        .collect()
}

/// A 2026-07-28 `tools/call` by `user`, answered in full on a connection of its own.
fn call(addr: SocketAddr, user: &str, tool: &str, arguments: Value) -> HttpResponse {
    let h = modern_headers(addr, user, "tools/call", Some(tool));
    let body = modern_body(
        "tools/call",
        json!({ "name": tool, "arguments": arguments }),
    );
    Connection::open(addr).post(&split(&h), body.as_bytes())
}

/// A 2026-07-28 `subscriptions/listen` by `user`: the open connection and the head.
fn listen(addr: SocketAddr, user: &str) -> (Connection, HttpResponse) {
    let h = modern_headers(addr, user, "subscriptions/listen", None);
    let body = modern_body(
        "subscriptions/listen",
        json!({ "notifications": { "toolsListChanged": true } }),
    );
    let mut c = Connection::open(addr);
    let head = c.post_head(&split(&h), body.as_bytes());
    (c, head)
}

/// A 2025-11-25 POST by `user` on `session` (none: `initialize`).
fn legacy(addr: SocketAddr, user: &str, session: Option<&str>, message: &Value) -> HttpResponse {
    let mut h = vec![
        format!("host: 127.0.0.1:{}", addr.port()),
        format!("authorization: Bearer {user}"),
        "content-type: application/json".to_owned(),
        "accept: application/json, text/event-stream".to_owned(),
    ];
    if let Some(session) = session {
        h.push(format!("mcp-session-id: {session}"));
        h.push("mcp-protocol-version: 2025-11-25".to_owned());
    }
    Connection::open(addr).post(&split(&h), message.to_string().as_bytes())
}

/// Opens a 2025-11-25 session for `user`: the response, and the session id if one was given.
fn initialize(addr: SocketAddr, user: &str) -> (HttpResponse, Option<String>) {
    let r = legacy(
        addr,
        user,
        None,
        &json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": { "name": "t", "version": "1" } } }),
    );
    let id = r.header("mcp-session-id").map(str::to_owned);
    if let Some(id) = &id {
        let note = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
        assert_eq!(legacy(addr, user, Some(id), &note).status, 202);
    }
    (r, id)
}

fn body(r: &HttpResponse) -> String {
    String::from_utf8_lossy(&r.body).into_owned()
}

#[test]
fn one_principal_saturating_every_bound_leaves_another_served_at_both_revisions() {
    let addr = endpoint();
    // Mallory takes its share of running tasks, and is refused a third.
    for _ in 0..2 {
        let task = call(addr, "mallory", "chore", json!({}));
        assert_eq!(
            task.json()["result"]["resultType"],
            "task",
            "{}",
            body(&task)
        );
    }
    let refused = call(addr, "mallory", "chore", json!({}));
    assert_eq!(
        refused.json()["error"]["message"],
        "Too many tasks: try again later",
        "{}",
        body(&refused)
    );
    // Its share of listen streams, held open; a third is refused.
    let mut mallory_streams = Vec::new();
    for _ in 0..2 {
        let (c, head) = listen(addr, "mallory");
        assert_eq!(head.status, 200);
        mallory_streams.push(c);
    }
    let h = modern_headers(addr, "mallory", "subscriptions/listen", None);
    let third = modern_body(
        "subscriptions/listen",
        json!({ "notifications": { "toolsListChanged": true } }),
    );
    let refused = Connection::open(addr).post(&split(&h), third.as_bytes());
    assert_eq!(refused.status, 503);
    assert_eq!(refused.header("retry-after"), Some("1"));
    assert_eq!(
        refused.json()["error"]["message"],
        "Too many streams open: try again later"
    );
    // Its share of sessions; a third is refused, and so is a GET stream on one of them (its
    // stream share is taken).
    let mut mallory_sessions = Vec::new();
    for _ in 0..2 {
        let (r, id) = initialize(addr, "mallory");
        assert_eq!(r.status, 200, "{}", body(&r));
        mallory_sessions.push(id.expect("a session id"));
    }
    assert_eq!(initialize(addr, "mallory").0.status, 503);
    let get = [
        format!("host: 127.0.0.1:{}", addr.port()),
        "authorization: Bearer mallory".to_owned(),
        "accept: text/event-stream".to_owned(),
        format!("mcp-session-id: {}", mallory_sessions[0]),
        "mcp-protocol-version: 2025-11-25".to_owned(),
    ];
    let refused = Connection::open(addr).head("GET", &split(&get), b"");
    assert_eq!(refused.status, 503);
    // Its share of in-flight places, held by calls that run; a third call is refused.
    let held: Vec<_> = [1, 2]
        .into_iter()
        .map(|tag| thread::spawn(move || call(addr, "mallory", "held", json!({ "tag": tag }))))
        .collect();
    wait_until("mallory's two calls run", || {
        STARTED.lock().unwrap().len() == 2
    });
    let refused = call(addr, "mallory", "echo", json!({ "text": "more" }));
    assert_eq!(refused.status, 503, "{}", body(&refused));

    // Alice, at 2025-11-25: opens a session, lists, calls and reads.
    let (opened, session) = initialize(addr, "alice");
    assert_eq!(opened.status, 200, "{}", body(&opened));
    let session = session.expect("a session id");
    let ask = |method: &str, params: Value| {
        let r = legacy(
            addr,
            "alice",
            Some(&session),
            &json!({ "jsonrpc": "2.0", "id": 7, "method": method, "params": params }),
        );
        assert_eq!(r.status, 200, "{method}: {}", body(&r));
        r.json()
    };
    assert!(ask("tools/list", json!({}))["result"]["tools"].is_array());
    let echoed = ask(
        "tools/call",
        json!({ "name": "echo", "arguments": { "text": "hi" } }),
    );
    assert_eq!(echoed["result"]["content"][0]["text"], "hi", "{echoed}");
    let read = ask("resources/read", json!({ "uri": "notes://today" }));
    assert_eq!(read["result"]["contents"][0]["text"], "all quiet", "{read}");
    // Alice, at 2026-07-28: calls, creates a task, and opens a listen stream.
    let echoed = call(addr, "alice", "echo", json!({ "text": "hello" }));
    assert_eq!(echoed.status, 200, "{}", body(&echoed));
    assert_eq!(echoed.json()["result"]["content"][0]["text"], "hello");
    let task = call(addr, "alice", "chore", json!({}));
    assert_eq!(
        task.json()["result"]["resultType"],
        "task",
        "{}",
        body(&task)
    );
    let (mut stream, head) = listen(addr, "alice");
    assert_eq!(head.status, 200);
    assert!(
        stream.next_event().is_some(),
        "the listen stream is acknowledged"
    );

    // Everything held ends; mallory's calls were answered.
    RELEASE.add_permits(64);
    for call in held {
        assert_eq!(call.join().unwrap().status, 200);
    }
}
