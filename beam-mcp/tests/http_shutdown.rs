//! The graceful shutdown of `serve_until` (what `serve` does at SIGTERM or ctrl-c), over real
//! sockets on 127.0.0.1: the call in flight is answered, new connections are refused, idle
//! ones closed, listen streams end with their result, the health route turns 503, and past
//! the grace what is still open is dropped and cancelled.

mod stoppable;

use std::net::{SocketAddr, TcpStream};
use std::sync::Mutex;
use std::thread;
use std::time::Duration;

use beam_mcp::Server;
use beam_mcp::transport::http::{Http, Origins};
use beam_mcp_tests::http_client::{Connection, HttpResponse};
use beam_mcp_tests::wait_until;
use serde_json::{Value, json};

/// What each `sleepy` call did, by tag: `started`, then `finished` or `dropped`.
static SEEN: Mutex<Vec<(u64, &str)>> = Mutex::new(Vec::new());

fn record(tag: u64, what: &'static str) {
    SEEN.lock().unwrap().push((tag, what));
}

fn seen(tag: u64, what: &str) -> bool {
    SEEN.lock().unwrap().contains(&(tag, what))
}

fn wait_for(tag: u64, what: &str) {
    wait_until(&format!("call {tag} {what}"), || seen(tag, what));
}

/// Records a call dropped before it finished.
struct Dropped {
    tag: u64,
    finished: bool,
}

impl Drop for Dropped {
    fn drop(&mut self) {
        if !self.finished {
            record(self.tag, "dropped");
        }
    }
}

/// Sleeps `ms` milliseconds, recording under `tag` that it started, finished or was dropped.
#[beam_mcp::tool]
async fn sleepy(tag: u64, ms: u64) -> String {
    record(tag, "started");
    let mut dropped = Dropped {
        tag,
        finished: false,
    };
    tokio::time::sleep(Duration::from_millis(ms)).await;
    dropped.finished = true;
    record(tag, "finished");
    "slept".into()
}

/// Permits for `held` calls to finish, one each: the test, not a clock, says when.
static RELEASE: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(0);

/// Runs until the test releases it, recording under `tag` like `sleepy`.
#[beam_mcp::tool]
async fn held(tag: u64) -> String {
    record(tag, "started");
    let mut dropped = Dropped {
        tag,
        finished: false,
    };
    RELEASE.acquire().await.expect("never closed").forget();
    dropped.finished = true;
    record(tag, "finished");
    "released".into()
}

/// Echoes the text.
#[beam_mcp::tool]
fn echo(text: String) -> String {
    text
}

fn endpoint(grace: Duration) -> beam_mcp::transport::http::HttpBuilder {
    let (builder, _catalog) = Server::builder()
        .name("http-shutdown")
        .version("1")
        .crate_items(module_path!())
        .live();
    Http::builder(builder.build().unwrap())
        .authorize(|_| Ok(()))
        .allowed_origins(Origins::Loopback)
        .shutdown_grace(grace)
}

/// Sends `bytes` on a connection of its own, from another thread: the answer, if one came.
fn in_flight(addr: SocketAddr, bytes: Vec<u8>) -> thread::JoinHandle<Option<HttpResponse>> {
    thread::spawn(move || {
        let mut c = Connection::open(addr);
        c.write(&bytes).unwrap();
        c.read_response()
    })
}

fn text_of(answer: &HttpResponse) -> Value {
    answer.json()["result"]["content"][0]["text"].clone()
}

#[test]
fn a_shutdown_answers_the_call_in_flight_refuses_new_connections_and_closes_idle_ones() {
    // A grace no loaded machine reaches: the server may end only because the call ended; and
    // a header deadline as long, so only the shutdown closes the idle connection below.
    let grace = Duration::from_secs(120);
    let http = endpoint(grace).read_timeout(grace).build().unwrap();
    let mut running = stoppable::start(http);
    let addr = running.addr;
    let mut idle = Connection::open(addr);
    let echo = stoppable::call(addr, 1, "echo", json!({ "text": "hi" }));
    idle.write(&echo).unwrap();
    assert_eq!(idle.read_response().unwrap().status, 200);
    // Held until released below, so all that follows happens while it runs, however slowly.
    let call = in_flight(addr, stoppable::call(addr, 2, "held", json!({ "tag": 1 })));
    wait_for(1, "started");
    let stopped = running.stop();
    // The listener is closed: a new connection is refused by the operating system (or reset,
    // when its handshake met the listener as it closed).
    wait_until("a new connection is refused", || {
        match TcpStream::connect(addr) {
            Err(error) => {
                assert!(
                    matches!(
                        error.kind(),
                        std::io::ErrorKind::ConnectionRefused | std::io::ErrorKind::ConnectionReset
                    ),
                    "{error}"
                );
                true
            }
            Ok(_) => false,
        }
    });
    // An idle keep-alive connection is closed rather than waited for (the server cannot end
    // and close it that way before the call is released).
    assert!(idle.is_closed_by_server(Duration::from_secs(30)));
    RELEASE.add_permits(1);
    let answer = call
        .join()
        .unwrap()
        .expect("the call in flight is answered");
    assert_eq!(answer.status, 200);
    assert_eq!(text_of(&answer), "released");
    let ended = running
        .ended_within(Duration::from_secs(60))
        .expect("serve_until returns once the call is answered");
    assert!(ended - stopped < grace);
    assert!(!seen(1, "dropped"));
}

#[test]
fn past_the_grace_open_connections_are_dropped_and_their_calls_cancelled() {
    let grace = Duration::from_millis(300);
    let mut running = stoppable::start(endpoint(grace).build().unwrap());
    let addr = running.addr;
    let call = in_flight(
        addr,
        stoppable::call(addr, 1, "sleepy", json!({ "tag": 2, "ms": 60_000 })),
    );
    wait_for(2, "started");
    let stopped = running.stop();
    let ended = running
        .ended_within(Duration::from_secs(30))
        .expect("serve_until returns at the end of the grace");
    assert!(
        ended - stopped >= grace,
        "returned after {:?}",
        ended - stopped
    );
    assert!(call.join().unwrap().is_none(), "dropped without an answer");
    wait_for(2, "dropped");
    assert!(!seen(2, "finished"));
}

#[test]
fn listen_streams_and_session_streams_end_with_their_result_at_shutdown() {
    let mut running = stoppable::start(endpoint(Duration::from_secs(30)).build().unwrap());
    let addr = running.addr;
    let host = format!("127.0.0.1:{}", addr.port());
    // A 2026-07-28 listen stream, acknowledged.
    let mut listen = Connection::open(addr);
    assert_eq!(stoppable::listen(&mut listen, addr, 7), 200);
    let ack: Value = serde_json::from_str(&listen.next_event().unwrap()).unwrap();
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    // A 2025-11-25 session and its GET stream, primed.
    let base = [
        ("host", host.as_str()),
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
    ];
    let init = json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": { "name": "t", "version": "1" } } });
    let opened = Connection::open(addr).post(&base, init.to_string().as_bytes());
    assert_eq!(opened.status, 200);
    let session = opened.header("mcp-session-id").unwrap().to_owned();
    let mut with_session = base.to_vec();
    with_session.push(("mcp-session-id", &session));
    with_session.push(("mcp-protocol-version", "2025-11-25"));
    let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    let r = Connection::open(addr).post(&with_session, initialized.to_string().as_bytes());
    assert_eq!(r.status, 202);
    let mut stream = Connection::open(addr);
    assert_eq!(stream.head("GET", &with_session, b"").status, 200);
    let (primed, _) = stream.next_event_with_id().unwrap();
    assert_eq!(primed.as_deref(), Some("0-0"));

    let stopped = running.stop();
    let result: Value = serde_json::from_str(&listen.next_event().unwrap()).unwrap();
    assert_eq!(result["id"], 7);
    assert_eq!(result["result"]["resultType"], "complete", "{result}");
    assert_eq!(
        listen.next_event(),
        None,
        "the stream ends after its result"
    );
    assert_eq!(stream.next_event_with_id(), None, "the GET stream ends");
    // Neither held the shutdown up: it ended long before the 30 s grace.
    let ended = running
        .ended_within(Duration::from_secs(10))
        .expect("serve_until returns");
    assert!(ended - stopped < Duration::from_secs(10));
}

#[test]
fn the_health_route_answers_503_once_shutting_down() {
    let http = endpoint(Duration::from_secs(30))
        .health_route("/healthz")
        .build()
        .unwrap();
    let mut running = stoppable::start(http);
    let addr = running.addr;
    let host = format!("127.0.0.1:{}", addr.port());
    let mut probe = Connection::open(addr);
    probe.write(&stoppable::get("/healthz", &host)).unwrap();
    let ok = probe.read_response().unwrap();
    assert_eq!((ok.status, ok.body.as_slice()), (200, &b"ok"[..]));
    // A probe whose request has begun when the shutdown starts is still answered (a
    // connection with nothing read yet is closed like an idle one): begun once the server has
    // read its first line.
    let mut late = Connection::open(addr);
    late.write(b"GET /healthz HTTP/1.1\r\n").unwrap();
    wait_until("the server reads the request line", || {
        late.all_read_by_server()
    });
    running.stop();
    // The first probe's idle connection is closed; the late one is answered 503, then closed
    // (both well before the 15 s header deadline and the 30 s grace would close them anyway).
    assert!(probe.is_closed_by_server(Duration::from_secs(10)));
    late.write(format!("host: {host}\r\n\r\n").as_bytes())
        .unwrap();
    let stopping = late.read_response().expect("an answer");
    assert_eq!(stopping.status, 503);
    assert_eq!(stopping.body, b"shutting down");
    assert!(late.is_closed_by_server(Duration::from_secs(10)));
    assert!(running.ended_within(Duration::from_secs(10)).is_some());
}
