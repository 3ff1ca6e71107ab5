//! 2025-11-25 over Streamable HTTP, on real sockets: `initialize` opens a session, requests
//! name it, DELETE ends it; sessions are bound to their principal, bounded in number and in idle
//! time; asks are requests on the POST's stream; streams resume with `Last-Event-ID`.

mod loopback;

use std::net::SocketAddr;
use std::thread;
use std::time::Duration;

use beam_mcp::transport::http::{Http, HttpBuilder, MemoryEventStore, Origins, Refusal};
use beam_mcp::{Context, Elicited, Server};
use beam_mcp_tests::http_client::{Connection, HttpResponse, socket_open_here};
use beam_mcp_tests::{spec, wait_until};
use loopback::start;
use serde_json::{Value, json};

#[derive(serde::Deserialize, schemars::JsonSchema, beam_mcp::Elicit)]
struct Name {
    name: String,
}

/// Echoes its text.
#[beam_mcp::tool]
fn echo(text: String) -> String {
    text
}

/// Asks the user's name, then greets them.
#[beam_mcp::tool]
async fn greet(ctx: Context) -> String {
    match ctx.elicit::<Name>("Name?").await {
        Ok(Elicited::Accepted(n)) => format!("hello {}", n.name),
        Ok(_) => "no name".into(),
        Err(e) => e.to_string(),
    }
}

/// Asks the client's model for a word.
#[beam_mcp::tool]
async fn one_word(ctx: Context) -> String {
    match ctx
        .sample(beam_mcp::SamplingRequest::new(5).user("One word?"))
        .await
    {
        Ok(sampled) => sampled.text().unwrap_or("-").to_owned(),
        Err(e) => e.to_string(),
    }
}

/// Reports `steps` steps of progress, `delay_ms` apart.
#[beam_mcp::tool]
async fn steps(steps: u32, delay_ms: u64, ctx: Context) -> String {
    for i in 1..=steps {
        tokio::time::sleep(Duration::from_millis(delay_ms)).await;
        let _ = ctx.progress(f64::from(i), Some(f64::from(steps)), None);
    }
    format!("{steps} steps")
}

/// Reports one step of progress, then answers `mebibytes` MiB of text.
#[beam_mcp::tool]
async fn heavy(mebibytes: usize, ctx: Context) -> String {
    let _ = ctx.progress(1.0, None, None);
    "x".repeat(mebibytes << 20)
}

fn builder() -> HttpBuilder {
    let server = Server::builder()
        .crate_items(module_path!())
        .ask_time_limit(Duration::from_secs(10))
        .build()
        .unwrap();
    Http::builder(server)
        .authorize(|parts| match parts.headers.get("authorization") {
            Some(v) if v == "Bearer alice" => Ok("alice".to_owned()),
            Some(v) if v == "Bearer bob" => Ok("bob".to_owned()),
            _ => Err(Refusal::new("no token")),
        })
        .allowed_origins(Origins::Loopback)
}

/// A 2025-11-25 client: the user's token, and the session once initialized.
struct Client {
    addr: SocketAddr,
    token: &'static str,
    session: Option<String>,
}

impl Client {
    fn new(addr: SocketAddr, token: &'static str) -> Self {
        Client {
            addr,
            token,
            session: None,
        }
    }

    fn headers(&self) -> Vec<(String, String)> {
        let mut h = vec![
            ("host".to_owned(), format!("127.0.0.1:{}", self.addr.port())),
            ("authorization".to_owned(), format!("Bearer {}", self.token)),
            ("content-type".to_owned(), "application/json".to_owned()),
            (
                "accept".to_owned(),
                "application/json, text/event-stream".to_owned(),
            ),
        ];
        if let Some(session) = &self.session {
            h.push(("mcp-session-id".to_owned(), session.clone()));
            h.push(("mcp-protocol-version".to_owned(), "2025-11-25".to_owned()));
        }
        h
    }

    fn post(&self, message: &Value) -> HttpResponse {
        let h = self.headers();
        let borrowed: Vec<(&str, &str)> = h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        Connection::open(self.addr).post(&borrowed, message.to_string().as_bytes())
    }

    /// A request's JSON answer, checked against the 2025-11-25 schema.
    fn request(&self, id: i64, method: &str, params: Value) -> Value {
        let r =
            self.post(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let value = r.json();
        spec()
            .check_response(None, method, &value)
            .unwrap_or_else(|e| panic!("{e}"));
        value
    }

    fn initialize(&mut self, capabilities: Value) -> HttpResponse {
        let r = self.post(
            &json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": capabilities,
            "clientInfo": { "name": "t", "version": "1" } } }),
        );
        if r.status == 200 {
            self.session = r.header("mcp-session-id").map(str::to_owned);
            let initialized =
                self.post(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
            assert_eq!(initialized.status, 202);
        }
        r
    }

    /// Opens a request whose answer is a stream, on a connection of its own.
    fn open(
        &self,
        method: &str,
        message: Option<&Value>,
        extra: &[(&str, &str)],
    ) -> (Connection, HttpResponse) {
        let mut h = self.headers();
        for (n, v) in extra {
            h.push(((*n).to_owned(), (*v).to_owned()));
        }
        let borrowed: Vec<(&str, &str)> = h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        let mut c = Connection::open(self.addr);
        let body = message.map(|m| m.to_string()).unwrap_or_default();
        let head = c.head(method, &borrowed, body.as_bytes());
        (c, head)
    }

    fn delete(&self) -> u16 {
        let (_, head) = self.open("DELETE", None, &[]);
        head.status
    }
}

fn call(id: i64, tool: &str, arguments: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": tool, "arguments": arguments } })
}

#[test]
fn initialize_opens_a_session_that_requests_name_and_delete_ends() {
    let addr = start(builder().build().unwrap());
    let mut alice = Client::new(addr, "alice");
    let init = alice.initialize(json!({}));
    assert_eq!(init.status, 200);
    let id = alice.session.clone().expect("an Mcp-Session-Id");
    assert_eq!(id.len(), 64);
    assert!(id.bytes().all(|b| (0x21..=0x7e).contains(&b)));
    let result = &init.json()["result"];
    assert_eq!(result["protocolVersion"], "2025-11-25");
    assert!(result.get("resultType").is_none(), "{result}");
    let echoed = alice.request(
        1,
        "tools/call",
        json!({ "name": "echo", "arguments": { "text": "hi" } }),
    );
    assert_eq!(echoed["result"]["content"][0]["text"], "hi");
    // Without the session id: 400; with another caller's token: 404, as for an unknown id.
    let bare = Client::new(addr, "alice");
    let r = bare.post(&call(2, "echo", json!({ "text": "x" })));
    assert_eq!(
        (r.status, r.json()["error"]["code"].clone()),
        (400, json!(-32600))
    );
    assert_eq!(r.json()["id"], 2);
    let mut bob = Client::new(addr, "bob");
    bob.session = alice.session.clone();
    let r = bob.post(&call(3, "echo", json!({ "text": "x" })));
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["error"]["message"], "Session not found");
    assert_eq!(bob.delete(), 404, "bob cannot end alice's session");
    // Alice ends it; the id is then unknown.
    assert_eq!(alice.delete(), 200);
    let r = alice.post(&call(4, "echo", json!({ "text": "x" })));
    assert_eq!(r.status, 404);
    assert_eq!(alice.delete(), 404);
    // An unsupported version header after initialize: 400.
    let mut carol = Client::new(addr, "alice");
    carol.initialize(json!({}));
    let mut h = carol.headers();
    h.retain(|(n, _)| n != "mcp-protocol-version");
    h.push(("mcp-protocol-version".into(), "2024-01-01".into()));
    let borrowed: Vec<(&str, &str)> = h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let r = Connection::open(addr).post(
        &borrowed,
        call(5, "echo", json!({ "text": "x" }))
            .to_string()
            .as_bytes(),
    );
    assert_eq!(r.status, 400);
}

#[test]
fn idle_sessions_expire_and_the_bound_refuses_initialize_with_503_leaving_others_untouched() {
    // Long enough that the requests before the pause below never leave a session idle that
    // long, on a loaded machine.
    let idle = Duration::from_secs(3);
    let addr = start(
        builder()
            .max_sessions(2)
            .session_idle_timeout(idle)
            .build()
            .unwrap(),
    );
    let mut a = Client::new(addr, "alice");
    let mut b = Client::new(addr, "bob");
    assert_eq!(a.initialize(json!({})).status, 200);
    assert_eq!(b.initialize(json!({})).status, 200);
    let mut c = Client::new(addr, "alice");
    let refused = c.initialize(json!({}));
    assert_eq!(refused.status, 503);
    assert_eq!(refused.header("retry-after"), Some("30"));
    assert_eq!(
        refused.json()["error"]["message"],
        "Too many sessions: try again later"
    );
    // Both sessions still serve.
    assert_eq!(a.request(1, "ping", json!({}))["result"], json!({}));
    assert_eq!(b.request(1, "ping", json!({}))["result"], json!({}));
    // Idle past the limit (a pause is no earlier than asked): gone, and the bound has room
    // again.
    thread::sleep(idle + Duration::from_millis(200));
    assert_eq!(a.post(&call(2, "echo", json!({ "text": "x" }))).status, 404);
    assert_eq!(c.initialize(json!({})).status, 200);
}

#[test]
fn an_ask_is_a_request_on_the_posts_stream_answered_by_a_post() {
    let addr = start(builder().build().unwrap());
    let mut alice = Client::new(addr, "alice");
    alice.initialize(json!({ "elicitation": {} }));
    let (mut stream, head) = alice.open("POST", Some(&call(1, "greet", json!({}))), &[]);
    assert_eq!(head.status, 200);
    assert_eq!(head.header("content-type"), Some("text/event-stream"));
    let (priming, data) = stream.next_event_with_id().expect("a priming event");
    assert_eq!(data, "");
    let stream_no = priming
        .expect("an id")
        .split('-')
        .next()
        .unwrap()
        .to_owned();
    let (id, ask) = stream.next_event_with_id().expect("the ask");
    assert_eq!(id, Some(format!("{stream_no}-1")));
    let ask: Value = serde_json::from_str(&ask).unwrap();
    // Answered before anything slow (the schema is compiled on first use): the ask's time
    // limit runs meanwhile.
    let answered = alice.post(&json!({ "jsonrpc": "2.0", "id": ask["id"],
        "result": { "action": "accept", "content": { "name": "Ada" } } }));
    assert_eq!(answered.status, 202);
    spec()
        .check("2025-11-25", "ElicitRequest", &ask)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ask["params"]["message"], "Name?");
    let (_, done) = stream.next_event_with_id().expect("the response");
    let done: Value = serde_json::from_str(&done).unwrap();
    assert_eq!(done["result"]["content"][0]["text"], "hello Ada", "{done}");
    assert_eq!(
        stream.next_event_with_id(),
        None,
        "the stream ends after the response"
    );
}

#[test]
fn a_stream_resumes_with_exactly_the_missed_events_and_a_too_old_id_is_refused() {
    let addr = start(builder().build().unwrap());
    let mut alice = Client::new(addr, "alice");
    alice.initialize(json!({}));
    let message = json!({ "jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": "steps", "arguments": { "steps": 4, "delay_ms": 150 }, "_meta": { "progressToken": "p" } } });
    let (mut first, head) = alice.open("POST", Some(&message), &[]);
    assert_eq!(head.status, 200);
    let (priming, _) = first.next_event_with_id().unwrap();
    let stream_no: u64 = priming.unwrap().split('-').next().unwrap().parse().unwrap();
    let (id, one) = first.next_event_with_id().unwrap();
    assert_eq!(id, Some(format!("{stream_no}-1")));
    assert_eq!(
        serde_json::from_str::<Value>(&one).unwrap()["params"]["progress"],
        1.0
    );
    drop(first); // the connection is lost; the call goes on (2025-11-25: not a cancel)
    thread::sleep(Duration::from_millis(200));
    let last = format!("{stream_no}-1");
    let (mut resumed, head) = alice.open("GET", None, &[("last-event-id", &last)]);
    assert_eq!(head.status, 200);
    let mut ids = Vec::new();
    let mut messages = Vec::new();
    while let Some((id, data)) = resumed.next_event_with_id() {
        ids.push(id.unwrap());
        messages.push(serde_json::from_str::<Value>(&data).unwrap());
    }
    let expected: Vec<String> = (2..=5).map(|seq| format!("{stream_no}-{seq}")).collect();
    assert_eq!(ids, expected, "exactly the missed events, in order");
    let progress: Vec<f64> = messages[..3]
        .iter()
        .map(|m| m["params"]["progress"].as_f64().unwrap())
        .collect();
    assert_eq!(progress, [2.0, 3.0, 4.0]);
    assert_eq!(messages[3]["id"], 7);
    assert_eq!(messages[3]["result"]["content"][0]["text"], "4 steps");
    // A store that holds two events: resuming from before them is refused, not partial.
    let addr = start(
        builder()
            .event_store(MemoryEventStore::new(2))
            .build()
            .unwrap(),
    );
    let mut bob = Client::new(addr, "bob");
    bob.initialize(json!({}));
    let quick = json!({ "jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {
        "name": "steps", "arguments": { "steps": 3, "delay_ms": 1 }, "_meta": { "progressToken": 1 } } });
    let (mut s, _) = bob.open("POST", Some(&quick), &[]);
    let (priming, _) = s.next_event_with_id().unwrap();
    let stream_no = priming.unwrap().split('-').next().unwrap().to_owned();
    while s.next_event_with_id().is_some() {}
    let too_old = format!("{stream_no}-0");
    let (mut refused, head) = bob.open("GET", None, &[("last-event-id", &too_old)]);
    assert_eq!(head.status, 400);
    let _ = &mut refused;
    let (_, head) = bob.open("GET", None, &[("last-event-id", "99-0")]);
    assert_eq!(head.status, 400, "no such stream");
    let (_, head) = bob.open("GET", None, &[("last-event-id", "not-an-id")]);
    assert_eq!(head.status, 400);
}

#[test]
fn a_new_get_stream_takes_over_from_the_old_one() {
    let addr = start(builder().build().unwrap());
    let mut alice = Client::new(addr, "alice");
    alice.initialize(json!({}));
    let (mut first, head) = alice.open("GET", None, &[]);
    assert_eq!(head.status, 200);
    assert_eq!(head.header("content-type"), Some("text/event-stream"));
    let (priming, data) = first.next_event_with_id().unwrap();
    assert_eq!((priming.as_deref(), data.as_str()), (Some("0-0"), ""));
    // A client whose connection died without a word reconnects: never refused (no 409).
    let (mut second, head) = alice.open("GET", None, &[]);
    assert_eq!(head.status, 200);
    assert_eq!(
        second.next_event_with_id().unwrap().0.as_deref(),
        Some("0-0")
    );
    // DELETE ends the session, and with it every stream.
    assert_eq!(alice.delete(), 200);
    assert_eq!(second.next_event_with_id(), None);
    assert_eq!(first.next_event_with_id(), None);
}

#[test]
fn the_stateless_legacy_mode_issues_no_session_and_refuses_what_needs_one() {
    let addr = start(builder().stateless_legacy().build().unwrap());
    let mut alice = Client::new(addr, "alice");
    let init = alice.initialize(json!({ "elicitation": {} }));
    assert_eq!(init.status, 200);
    assert_eq!(alice.session, None, "no Mcp-Session-Id");
    let r = alice.post(&call(1, "echo", json!({ "text": "alone" })));
    assert_eq!(r.json()["result"]["content"][0]["text"], "alone");
    let r = alice.post(&json!({ "jsonrpc": "2.0", "id": 2, "method": "logging/setLevel", "params": { "level": "info" } }));
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["error"]["message"],
        "Invalid Request: logging/setLevel needs a session, and this endpoint keeps none (stateless legacy mode)"
    );
    // Asking the client is unavailable: nothing to ask on. (The answer is a stream: the
    // item may log, and a 2025-11-25 request receives logs unless it set a level.)
    let (mut s, head) = alice.open("POST", Some(&call(3, "greet", json!({}))), &[]);
    assert_eq!(head.status, 200);
    let mut last = Value::Null;
    while let Some(event) = s.next_event() {
        last = serde_json::from_str(&event).unwrap();
    }
    assert_eq!(
        last["result"]["content"][0]["text"],
        "the client did not declare the elicitation capability for this request"
    );
    // GET and DELETE have no session to name.
    let (_, head) = alice.open("GET", None, &[("mcp-session-id", "x")]);
    assert_eq!(head.status, 405);
}

#[test]
fn a_sampling_request_the_client_never_answers_times_out_on_the_session() {
    let server = Server::builder()
        .crate_items(module_path!())
        .ask_time_limit(Duration::from_millis(300))
        .build()
        .unwrap();
    let http = Http::builder(server)
        .authorize(|_| Ok("alice".to_owned()))
        .allowed_origins(Origins::Loopback)
        .build()
        .unwrap();
    let addr = start(http);
    let mut alice = Client::new(addr, "alice");
    alice.initialize(json!({ "sampling": {} }));
    let (mut stream, head) = alice.open("POST", Some(&call(1, "one_word", json!({}))), &[]);
    assert_eq!(head.status, 200);
    let mut messages = Vec::new();
    while let Some((_, data)) = stream.next_event_with_id() {
        if !data.is_empty() {
            messages.push(serde_json::from_str::<Value>(&data).unwrap());
        }
    }
    assert_eq!(messages[0]["method"], "sampling/createMessage");
    let last = messages.last().unwrap();
    assert_eq!(last["id"], 1);
    assert_eq!(
        last["result"]["content"][0]["text"],
        "the client did not answer within 300 ms"
    );
    // The session goes on: a late answer is dropped (202), and a ping is answered.
    let late = alice.post(
        &json!({ "jsonrpc": "2.0", "id": messages[0]["id"], "result": {
        "role": "assistant", "model": "m", "content": { "type": "text", "text": "late" } } }),
    );
    assert_eq!(late.status, 202);
    assert_eq!(alice.request(2, "ping", json!({}))["result"], json!({}));
}

#[test]
fn a_stream_resumed_before_its_first_event_still_gets_every_event() {
    let addr = start(builder().build().unwrap());
    let mut alice = Client::new(addr, "alice");
    alice.initialize(json!({}));
    let message = json!({ "jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {
        "name": "steps", "arguments": { "steps": 2, "delay_ms": 300 }, "_meta": { "progressToken": "p" } } });
    let (mut first, _) = alice.open("POST", Some(&message), &[]);
    let (priming, _) = first.next_event_with_id().unwrap();
    let priming = priming.unwrap();
    assert!(priming.ends_with("-0"), "{priming}");
    drop(first); // gone before the call said anything
    let (mut resumed, head) = alice.open("GET", None, &[("last-event-id", &priming)]);
    assert_eq!(head.status, 200);
    let mut messages = Vec::new();
    while let Some((_, data)) = resumed.next_event_with_id() {
        messages.push(serde_json::from_str::<Value>(&data).unwrap());
    }
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert_eq!(messages[2]["result"]["content"][0]["text"], "2 steps");
}

#[test]
fn a_streamed_call_keeps_its_in_flight_place_after_its_client_leaves_until_its_work_ends() {
    let addr = start(builder().max_in_flight_requests(1).build().unwrap());
    let mut alice = Client::new(addr, "alice");
    alice.initialize(json!({}));
    // 3 s of work: the server notices the client left at its next write or two, long before.
    let slow = json!({ "jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {
        "name": "steps", "arguments": { "steps": 12, "delay_ms": 250 }, "_meta": { "progressToken": "p" } } });
    let (mut first, head) = alice.open("POST", Some(&slow), &[]);
    assert_eq!(head.status, 200);
    let (priming, _) = first.next_event_with_id().unwrap();
    assert!(priming.is_some(), "a priming event");
    let server_end = first.server_socket();
    drop(first); // the client leaves; at 2025-11-25 the call goes on
    // The server has closed its end of the stream (the server runs in this process).
    wait_until("the server lets the stream go", || {
        !socket_open_here(server_end)
    });
    // The one place is still the running call's: the next request is refused, not run beside it.
    let busy = alice.post(&call(10, "echo", json!({ "text": "hi" })));
    assert_eq!(busy.status, 503, "{}", String::from_utf8_lossy(&busy.body));
    assert_eq!(busy.header("retry-after"), Some("1"));
    // Once the call has ended, the place is free again.
    wait_until("the place comes back", || {
        let r = alice.post(&call(11, "echo", json!({ "text": "hi" })));
        if r.status == 200 {
            assert_eq!(r.json()["result"]["content"][0]["text"], "hi");
            return true;
        }
        assert_eq!(r.status, 503);
        false
    });
}

/// Every in-flight place (256, the default) held by calls whose clients left while the calls
/// wait on an ask (4 sessions × 64, the per-session bound): a client's answer to its ask still
/// gets through and completes its call, and another caller is served. (Before, each waiting call
/// kept its place, and the answer, a POST, needed one: every request got 503 for the whole ask
/// time limit.)
#[test]
fn answers_and_other_callers_get_through_while_every_place_is_held_by_calls_that_wait() {
    let server = Server::builder()
        .crate_items(module_path!())
        // Longer than the test: no ask times out and frees its call by itself.
        .ask_time_limit(Duration::from_secs(600))
        .build()
        .unwrap();
    let addr = start(
        Http::builder(server)
            .authorize(|parts| match parts.headers.get("authorization") {
                Some(v) if v == "Bearer alice" => Ok("alice".to_owned()),
                Some(v) if v == "Bearer bob" => Ok("bob".to_owned()),
                _ => Err(Refusal::new("no token")),
            })
            .allowed_origins(Origins::Loopback)
            .build()
            .unwrap(),
    );
    let mut sessions = Vec::new();
    for _ in 0..4 {
        let mut alice = Client::new(addr, "alice");
        alice.initialize(json!({ "elicitation": {} }));
        let mut asks = Vec::new();
        for id in 0..64 {
            let (mut stream, head) = alice.open("POST", Some(&call(id, "greet", json!({}))), &[]);
            assert_eq!(head.status, 200, "call {id}");
            let (priming, _) = stream.next_event_with_id().expect("a priming event");
            let stream_no = priming.unwrap().split('-').next().unwrap().to_owned();
            let (_, ask) = stream.next_event_with_id().expect("the ask");
            let ask: Value = serde_json::from_str(&ask).unwrap();
            assert_eq!(ask["method"], "elicitation/create");
            asks.push((stream_no, ask["id"].clone()));
            drop(stream); // the client leaves; at 2025-11-25 the call waits on
        }
        sessions.push((alice, asks));
    }
    // The session's bound holds: a 65th call on a session is refused, not run.
    let (alice, asks) = &sessions[0];
    let refused = alice.post(&call(64, "echo", json!({ "text": "hi" })));
    assert_eq!(
        refused.status,
        503,
        "{}",
        String::from_utf8_lossy(&refused.body)
    );
    // A client answers its ask: the answer is taken, and the call completes with it.
    let (stream_no, ask_id) = &asks[10];
    let answered = alice.post(&json!({ "jsonrpc": "2.0", "id": ask_id,
        "result": { "action": "accept", "content": { "name": "Ada" } } }));
    assert_eq!(
        answered.status,
        202,
        "{}",
        String::from_utf8_lossy(&answered.body)
    );
    let after_ask = format!("{stream_no}-1");
    let (mut resumed, head) = alice.open("GET", None, &[("last-event-id", &after_ask)]);
    assert_eq!(head.status, 200);
    let (_, done) = resumed.next_event_with_id().expect("the call's response");
    let done: Value = serde_json::from_str(&done).unwrap();
    assert_eq!(done["id"], 10);
    assert_eq!(done["result"]["content"][0]["text"], "hello Ada", "{done}");
    // Another caller opens a session, lists and calls.
    let mut bob = Client::new(addr, "bob");
    let init = bob.initialize(json!({}));
    assert_eq!(init.status, 200, "{}", String::from_utf8_lossy(&init.body));
    let listed = bob.request(1, "tools/list", json!({}));
    assert!(listed["result"]["tools"].as_array().unwrap().len() >= 3);
    let echoed = bob.request(
        2,
        "tools/call",
        json!({ "name": "echo", "arguments": { "text": "hi" } }),
    );
    assert_eq!(echoed["result"]["content"][0]["text"], "hi", "{echoed}");
    // And so does alice on a session of her own.
    let mut again = Client::new(addr, "alice");
    assert_eq!(again.initialize(json!({})).status, 200);
    let echoed = again.request(
        1,
        "tools/call",
        json!({ "name": "echo", "arguments": { "text": "yo" } }),
    );
    assert_eq!(echoed["result"]["content"][0]["text"], "yo", "{echoed}");
}

/// The event store is bounded in bytes, not only in events: three streamed answers of 6 MiB
/// pass a session's default 16 MiB, so the first one's events go and resuming it is refused
/// (400), while the newest is replayed whole. (Before, a session kept 1000 events of any size:
/// every byte of all three.)
#[test]
fn the_event_store_is_bounded_in_bytes_and_a_resumption_past_it_is_refused() {
    let addr = start(builder().build().unwrap());
    let mut alice = Client::new(addr, "alice");
    alice.initialize(json!({}));
    let mut primings = Vec::new();
    for id in 1..=3 {
        let message = json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "heavy", "arguments": { "mebibytes": 6 }, "_meta": { "progressToken": id } } });
        let (mut s, head) = alice.open("POST", Some(&message), &[]);
        assert_eq!(head.status, 200);
        let (priming, _) = s.next_event_with_id().unwrap();
        primings.push(priming.unwrap());
        let mut events = 0;
        while s.next_event_with_id().is_some() {
            events += 1;
        }
        assert_eq!(events, 2, "the progress and the result");
    }
    let (mut refused, head) = alice.open("GET", None, &[("last-event-id", &primings[0])]);
    assert_eq!(head.status, 400, "the first answer's events are gone");
    let _ = &mut refused;
    let (mut newest, head) = alice.open("GET", None, &[("last-event-id", &primings[2])]);
    assert_eq!(head.status, 200);
    let mut replayed = Vec::new();
    while let Some((_, data)) = newest.next_event_with_id() {
        replayed.push(serde_json::from_str::<Value>(&data).unwrap());
    }
    assert_eq!(replayed.len(), 2);
    let text = replayed[1]["result"]["content"][0]["text"]
        .as_str()
        .unwrap();
    assert_eq!(text.len(), 6 << 20);
}

/// A stream resumed again while it is quiet ends the reader it replaces at once: one reader
/// per stream however often a client resumes. (Before, the replaced reader waited for the
/// stream's next event, so readers piled up on a quiet stream.)
#[test]
fn resuming_a_quiet_stream_again_ends_the_reader_it_replaces() {
    let addr = start(builder().build().unwrap());
    let mut alice = Client::new(addr, "alice");
    alice.initialize(json!({}));
    // A call that stays quiet for ten minutes.
    let message = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "steps", "arguments": { "steps": 1, "delay_ms": 600_000 }, "_meta": { "progressToken": 1 } } });
    let (mut first, _) = alice.open("POST", Some(&message), &[]);
    let (priming, _) = first.next_event_with_id().unwrap();
    let priming = priming.unwrap();
    drop(first);
    let mut readers = Vec::new();
    for _ in 0..3 {
        let (reader, head) = alice.open("GET", None, &[("last-event-id", &priming)]);
        assert_eq!(head.status, 200);
        readers.push(reader);
    }
    let newest = readers.pop().unwrap();
    for mut replaced in readers {
        // The stream's end comes at once; a reader left waiting would be cut by the client's
        // 20 s read timeout instead.
        let started = std::time::Instant::now();
        assert_eq!(replaced.next_event_with_id(), None);
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the replaced reader was left open"
        );
    }
    drop(newest);
}

/// The session's bound of running requests is checked and the request started in one step: a
/// burst of concurrent calls on a session four short of its bound starts exactly four.
#[test]
fn a_burst_at_the_session_bound_starts_exactly_what_the_bound_leaves() {
    let server = Server::builder()
        .crate_items(module_path!())
        // Longer than the test: every call started stays running, waiting on its ask.
        .ask_time_limit(Duration::from_secs(600))
        .build()
        .unwrap();
    let addr = start(
        Http::builder(server)
            .authorize(|_| Ok("alice".to_owned()))
            .allowed_origins(Origins::Loopback)
            .build()
            .unwrap(),
    );
    let mut alice = Client::new(addr, "alice");
    alice.initialize(json!({ "elicitation": {} }));
    // 60 calls waiting on their asks (their places given back while they wait).
    for id in 0..60 {
        let (mut stream, head) = alice.open("POST", Some(&call(id, "greet", json!({}))), &[]);
        assert_eq!(head.status, 200, "call {id}");
        stream.next_event_with_id().expect("a priming event");
        stream.next_event_with_id().expect("the ask");
    }
    let burst = 40;
    let gate = std::sync::Arc::new(std::sync::Barrier::new(burst));
    let statuses: Vec<u16> = (0..burst)
        .map(|i| {
            let gate = std::sync::Arc::clone(&gate);
            let session = alice.session.clone();
            thread::spawn(move || {
                let client = Client {
                    addr,
                    token: "alice",
                    session,
                };
                let id = 100 + i64::try_from(i).unwrap();
                gate.wait();
                let (mut stream, head) =
                    client.open("POST", Some(&call(id, "greet", json!({}))), &[]);
                if head.status == 200 {
                    // Started: it waits on its ask, as the 60 do.
                    stream.next_event_with_id().expect("a priming event");
                    stream.next_event_with_id().expect("the ask");
                }
                head.status
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| t.join().unwrap())
        .collect();
    let started = statuses.iter().filter(|&&s| s == 200).count();
    let busy = statuses.iter().filter(|&&s| s == 503).count();
    assert_eq!((started, busy), (4, burst - 4), "{statuses:?}");
    // At the bound, a request is refused and an answer still gets through.
    let refused = alice.post(&call(999, "echo", json!({ "text": "hi" })));
    assert_eq!(refused.status, 503);
    let answer = alice.post(&json!({ "jsonrpc": "2.0", "id": 1,
        "result": { "action": "accept", "content": { "name": "Ada" } } }));
    assert_eq!(answer.status, 202);
}

/// One principal's sessions share its part of the event store: alice's second session's heavy
/// answer pushes her first one's events out, and bob's, kept alongside, stay resumable.
#[test]
fn a_principals_sessions_share_its_part_of_the_event_store() {
    let store = MemoryEventStore::new(1000).max_principal_bytes(10 << 20);
    let addr = start(builder().event_store(store).build().unwrap());
    // One heavy answer on a session of its own: the priming id its stream resumes from.
    let heavy = |user: &'static str| {
        let mut client = Client::new(addr, user);
        client.initialize(json!({}));
        let message = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "heavy", "arguments": { "mebibytes": 6 }, "_meta": { "progressToken": 1 } } });
        let (mut s, head) = client.open("POST", Some(&message), &[]);
        assert_eq!(head.status, 200);
        let (priming, _) = s.next_event_with_id().unwrap();
        while s.next_event_with_id().is_some() {}
        (client, priming.unwrap())
    };
    let (bob, bob_priming) = heavy("bob");
    let (alice_1, first) = heavy("alice");
    let (alice_2, second) = heavy("alice");
    // 12 MiB past alice's 10: her first session gave way; her second and bob's are whole.
    let (_, head) = alice_1.open("GET", None, &[("last-event-id", &first)]);
    assert_eq!(head.status, 400, "alice's first answer's events are gone");
    for (client, priming) in [(&alice_2, &second), (&bob, &bob_priming)] {
        let (mut stream, head) = client.open("GET", None, &[("last-event-id", priming)]);
        assert_eq!(head.status, 200);
        let mut replayed = 0;
        while stream.next_event_with_id().is_some() {
            replayed += 1;
        }
        assert_eq!(replayed, 2, "the progress and the result");
    }
}
