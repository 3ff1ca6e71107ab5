//! The default caps of `serve` over real sockets on 127.0.0.1, with small bounds: concurrent
//! connections (closed at once past `max_connections`), requests being processed (503 with
//! `Retry-After` past `max_in_flight_requests`; listen streams and the health route take no
//! place), the health route (off by default; on, it bypasses the endpoint's checks for exactly
//! its path and method), and zero refused at build.

mod loopback;
mod stoppable;

use std::net::SocketAddr;
use std::sync::Mutex;
use std::thread;
use std::time::Duration;

use beam_mcp::Server;
use beam_mcp::transport::http::{Hosts, Http, HttpBuilder, HttpError, Origins, Refusal};
use beam_mcp_tests::http_client::{Connection, HttpResponse};
use beam_mcp_tests::wait_until;
use serde_json::json;

/// The `held` calls that started, by tag.
static STARTED: Mutex<Vec<u64>> = Mutex::new(Vec::new());

fn wait_started(tag: u64) {
    wait_until(&format!("held {tag} started"), || {
        STARTED.lock().unwrap().contains(&tag)
    });
}

/// Permits for `held` calls to finish, one each: the test, not a clock, ends them.
static RELEASE: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(0);

/// Runs until the test releases it, recording under `tag` that it started.
#[beam_mcp::tool]
async fn held(tag: u64) -> String {
    STARTED.lock().unwrap().push(tag);
    RELEASE.acquire().await.expect("never closed").forget();
    "released".into()
}

/// Echoes the text.
#[beam_mcp::tool]
fn echo(text: String) -> String {
    text
}

/// The `held_fair` calls that started, by tag, and the permits that end them: apart from
/// `held`'s, so that tests running side by side do not release each other's calls.
static STARTED_FAIR: Mutex<Vec<u64>> = Mutex::new(Vec::new());
static RELEASE_FAIR: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(0);

/// Runs until the test releases it, recording under `tag` that it started.
#[beam_mcp::tool]
async fn held_fair(tag: u64) -> String {
    STARTED_FAIR.lock().unwrap().push(tag);
    RELEASE_FAIR.acquire().await.expect("never closed").forget();
    "released".into()
}

/// One call of `tool` as `user` (a bearer token naming the principal), on a connection of its
/// own.
fn call_as(addr: SocketAddr, user: &str, tool: &str, arguments: serde_json::Value) -> HttpResponse {
    let params = json!({ "name": tool, "arguments": arguments });
    let (mut h, body) = stoppable::modern(addr, 1, "tools/call", params);
    h.push(("authorization".to_owned(), format!("Bearer {user}")));
    Connection::open(addr).post(&stoppable::borrowed(&h), body.as_bytes())
}

fn builder() -> HttpBuilder {
    let (builder, _catalog) = Server::builder()
        .name("http-limits")
        .version("1")
        .crate_items(module_path!())
        .live();
    Http::builder(builder.build().unwrap())
        .authorize(|_| Ok(()))
        .allowed_origins(Origins::Loopback)
}

fn echo_on(c: &mut Connection, addr: SocketAddr) -> Option<HttpResponse> {
    c.write(&stoppable::call(addr, 1, "echo", json!({ "text": "hi" })))
        .ok()?;
    c.read_response()
}

#[test]
fn past_max_connections_a_new_connection_is_closed_at_once_and_the_open_ones_served() {
    let addr = loopback::start(builder().max_connections(2).build().unwrap());
    let mut first = Connection::open(addr);
    let mut second = Connection::open(addr);
    assert_eq!(echo_on(&mut first, addr).unwrap().status, 200);
    assert_eq!(echo_on(&mut second, addr).unwrap().status, 200);
    // The third is accepted and closed before anything is read or written.
    let mut third = Connection::open(addr);
    assert!(third.is_closed_by_server(Duration::from_secs(5)));
    // The two open ones are untouched.
    assert_eq!(echo_on(&mut first, addr).unwrap().status, 200);
    assert_eq!(echo_on(&mut second, addr).unwrap().status, 200);
    // One closes: its place is taken again (once the server has seen it go).
    drop(first);
    wait_until("the freed place is given", || {
        let mut next = Connection::open(addr);
        echo_on(&mut next, addr).is_some_and(|r| r.status == 200)
    });
}

#[test]
fn past_max_in_flight_requests_a_request_is_503_with_retry_after_and_listen_streams_take_no_place()
{
    let http = builder()
        .max_in_flight_requests(2)
        .health_route("/healthz")
        .build()
        .unwrap();
    let addr = loopback::start(http);
    // Two listen streams, open for the whole test: they hold no place.
    let mut listens = Vec::new();
    for id in [1, 2] {
        let mut c = Connection::open(addr);
        assert_eq!(stoppable::listen(&mut c, addr, id), 200);
        assert!(c.next_event().is_some(), "acknowledged");
        listens.push(c);
    }
    // Two calls take both places, until released below.
    let calls: Vec<_> = [10, 11]
        .into_iter()
        .map(|tag| {
            let bytes = stoppable::call(addr, 1, "held", json!({ "tag": tag }));
            thread::spawn(move || {
                let mut c = Connection::open(addr);
                c.write(&bytes).unwrap();
                c.read_response().unwrap()
            })
        })
        .collect();
    wait_started(10);
    wait_started(11);
    // The third call is refused with its id; its body was read, so the connection is kept.
    let mut third = Connection::open(addr);
    let refused = echo_on(&mut third, addr).unwrap();
    assert_eq!(refused.status, 503);
    assert_eq!(refused.header("retry-after"), Some("1"));
    assert_eq!(refused.header("connection"), None);
    let error = refused.json();
    assert_eq!(error["id"], 1);
    assert_eq!(error["error"]["code"], -32600);
    assert_eq!(
        error["error"]["message"],
        "Too many requests in flight: try again later"
    );
    // What runs no host code takes no place: a list on the same connection is answered.
    third
        .write(&stoppable::post(addr, 2, "tools/list", json!({})))
        .unwrap();
    let listed = third.read_response().unwrap();
    assert_eq!(
        listed.status,
        200,
        "{}",
        String::from_utf8_lossy(&listed.body)
    );
    assert_eq!(listed.json()["id"], 2);
    assert!(listed.json()["result"]["tools"].is_array());
    // The health route is no request of the endpoint: it is answered.
    let mut probe = Connection::open(addr);
    probe
        .write(&stoppable::get(
            "/healthz",
            &format!("127.0.0.1:{}", addr.port()),
        ))
        .unwrap();
    assert_eq!(probe.read_response().unwrap().status, 200);
    RELEASE.add_permits(2);
    for call in calls {
        assert_eq!(call.join().unwrap().status, 200);
    }
    // The places come back once the answers are written (a client may read the last byte
    // just before the server lets its place go: 503 meanwhile).
    for _ in 0..2 {
        wait_until("a place is free", || {
            let mut c = Connection::open(addr);
            let status = echo_on(&mut c, addr).unwrap().status;
            assert!(status == 200 || status == 503, "{status}");
            status == 200
        });
    }
}

/// One principal holds its share of the in-flight places (2 of 4) and is refused a third,
/// while another principal is served; once every place is taken, a third principal meets the
/// bound. (Before, one principal could take every place.)
#[test]
fn one_principal_holds_at_most_its_share_of_the_places_while_another_is_served() {
    let (builder, _catalog) = Server::builder()
        .name("http-limits")
        .version("1")
        .crate_items(module_path!())
        .live();
    let http = Http::builder(builder.build().unwrap())
        .authorize(|parts| match parts.headers.get("authorization") {
            Some(v) => Ok(v.to_str().unwrap_or_default().to_owned()),
            None => Err(Refusal::new("no token")),
        })
        .allowed_origins(Origins::Loopback)
        .max_in_flight_requests(4)
        .max_in_flight_per_principal(2)
        .build()
        .unwrap();
    let addr = loopback::start(http);
    let hold = |user: &'static str, tag: u64| {
        thread::spawn(move || call_as(addr, user, "held_fair", json!({ "tag": tag })))
    };
    let started = |tag: u64| {
        wait_until(&format!("held_fair {tag} started"), || {
            STARTED_FAIR.lock().unwrap().contains(&tag)
        });
    };
    let alice = [hold("alice", 1), hold("alice", 2)];
    started(1);
    started(2);
    let refused = call_as(addr, "alice", "echo", json!({ "text": "a third" }));
    assert_eq!(
        refused.status,
        503,
        "{}",
        String::from_utf8_lossy(&refused.body)
    );
    assert_eq!(refused.header("retry-after"), Some("1"));
    let served = call_as(addr, "bob", "echo", json!({ "text": "hi" }));
    assert_eq!(
        served.status,
        200,
        "{}",
        String::from_utf8_lossy(&served.body)
    );
    assert_eq!(served.json()["result"]["content"][0]["text"], "hi");
    let bob = [hold("bob", 3), hold("bob", 4)];
    started(3);
    started(4);
    let carol = call_as(addr, "carol", "echo", json!({ "text": "hi" }));
    assert_eq!(carol.status, 503, "every place is taken");
    RELEASE_FAIR.add_permits(4);
    for call in alice.into_iter().chain(bob) {
        assert_eq!(call.join().unwrap().status, 200);
    }
    // The places come back once the answers are written.
    wait_until("alice is served again", || {
        let r = call_as(addr, "alice", "echo", json!({ "text": "again" }));
        assert!(r.status == 200 || r.status == 503, "{}", r.status);
        r.status == 200
    });
}

/// Sends raw request bytes on a connection of their own; the answer.
fn raw(addr: SocketAddr, bytes: &[u8]) -> HttpResponse {
    let mut c = Connection::open(addr);
    c.write(bytes).unwrap();
    c.read_response().expect("an answer")
}

#[test]
fn the_health_route_is_off_by_default() {
    let addr = loopback::start(builder().build().unwrap());
    let host = format!("127.0.0.1:{}", addr.port());
    assert_eq!(raw(addr, &stoppable::get("/healthz", &host)).status, 404);
}

#[test]
fn the_health_route_bypasses_the_endpoints_checks_for_exactly_its_path_and_method() {
    let server = Server::builder()
        .crate_items(module_path!())
        .build()
        .unwrap();
    let http = Http::builder(server)
        .authorize(|_| -> Result<(), Refusal> { Err(Refusal::new("nobody")) })
        .allowed_origins(Origins::list(["https://app.example"]))
        .allowed_hosts(Hosts::list(["mcp.example"]))
        .health_route("/healthz")
        .build()
        .unwrap();
    let addr = loopback::start(http);
    // A balancer probing by address, from nowhere the endpoint serves, with no credentials.
    let probe =
        b"GET /healthz HTTP/1.1\r\nhost: 10.0.0.7:8080\r\norigin: https://evil.example\r\n\r\n";
    let ok = raw(addr, probe);
    assert_eq!((ok.status, ok.body.as_slice()), (200, &b"ok"[..]));
    assert_eq!(ok.header("cache-control"), Some("no-store"));
    let with_query = raw(addr, &stoppable::get("/healthz?full=1", "10.0.0.7"));
    assert_eq!(with_query.status, 200);
    // Only that method and that path.
    let post = raw(
        addr,
        b"POST /healthz HTTP/1.1\r\nhost: 10.0.0.7\r\ncontent-length: 0\r\n\r\n",
    );
    assert_eq!(post.status, 405);
    for other in ["/healthz/", "/healthz/x", "/Healthz", "/mcp/healthz"] {
        let r = raw(addr, &stoppable::get(other, "10.0.0.7"));
        assert_eq!(r.status, 404, "{other}");
    }
    // The endpoint keeps every check.
    assert_eq!(raw(addr, &stoppable::get("/mcp", "10.0.0.7")).status, 403);
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" }).to_string();
    let refused = Connection::open(addr).post(
        &[
            ("host", "mcp.example"),
            ("content-type", "application/json"),
        ],
        body.as_bytes(),
    );
    assert_eq!(refused.status, 403, "authorize still runs");
}

#[test]
fn zero_caps_and_a_health_route_that_cannot_be_served_are_refused_at_build() {
    let refused = |b: HttpBuilder| b.build().unwrap_err();
    assert_eq!(
        refused(builder().max_connections(0)),
        HttpError::ZeroMaxConnections
    );
    assert_eq!(
        refused(builder().max_in_flight_requests(0)),
        HttpError::ZeroMaxInFlightRequests
    );
    assert_eq!(
        refused(builder().shutdown_grace(Duration::ZERO)),
        HttpError::ZeroShutdownGrace
    );
    for path in ["healthz", "/mcp", "/mcp/health", "/{id}", "/a b"] {
        assert!(
            matches!(refused(builder().health_route(path)), HttpError::HealthRoute(p, _) if p == path),
            "{path}"
        );
    }
    let message = refused(builder().health_route("/mcp/x")).to_string();
    assert_eq!(
        message,
        "health_route \"/mcp/x\" cannot be served: /mcp is the endpoint's"
    );
}
