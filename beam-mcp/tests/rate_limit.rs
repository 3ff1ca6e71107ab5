//! The rate limit of `tools/call` and `completion/complete`, through the core: a burst past
//! the bucket is refused with `-31429` and `data.retryAfterMs`, the bucket refills, principals
//! have buckets of their own, invalid requests spend nothing, no limiter means no check, and a
//! verdict a shared store gives later is awaited before any host code runs.
//! With feature `http`, principals set by `authorize` from two bearer tokens, over 127.0.0.1.

mod common;
#[cfg(feature = "http")]
mod loopback;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use beam_mcp::Server;
use beam_mcp::limit::{Caller, Checked, Limited, RateLimit, Retry, TokenBucket};
use beam_mcp::protocol::Session;
use common::{call, modern, send};
use serde_json::{Value, json};

/// Answers pong.
#[beam_mcp::tool]
async fn ping() -> String {
    "pong".into()
}

/// Echoes a number.
#[beam_mcp::tool]
fn echo(n: u32) -> String {
    n.to_string()
}

fn colors(prefix: &str) -> Vec<String> {
    ["red", "green"]
        .iter()
        .filter(|c| c.starts_with(prefix))
        .map(|c| (*c).to_owned())
        .collect()
}

/// Paints.
#[beam_mcp::prompt(complete(color = colors))]
fn paint(color: String) -> String {
    color
}

/// A note.
#[beam_mcp::resource("notes://one")]
fn note() -> String {
    "one".into()
}

/// A note that takes its time.
#[beam_mcp::resource("notes://slow")]
async fn slow_note() -> String {
    tokio::time::sleep(Duration::from_secs(600)).await;
    "late".into()
}

/// The builder with every item of this file.
fn builder() -> beam_mcp::ServerBuilder {
    Server::builder().crate_items(module_path!())
}

fn server(limit: impl RateLimit) -> Server {
    builder().rate_limit(limit).build().unwrap()
}

fn ping_as(server: &Server, session: &Session) -> Value {
    send(server, session, call(1, true, "ping", json!({}))).expect("an answer")
}

fn complete_as(server: &Server, session: &Session) -> Value {
    let params = json!({
        "ref": { "type": "ref/prompt", "name": "paint" },
        "argument": { "name": "color", "value": "r" },
    });
    send(server, session, modern(2, "completion/complete", params)).expect("an answer")
}

fn passed(answer: &Value) -> bool {
    answer.get("result").is_some()
}

/// The retry hint of a refusal, after checking its shape.
fn refused(answer: &Value) -> u64 {
    let error = &answer["error"];
    assert_eq!(error["code"], -31429, "{answer}");
    assert_eq!(error["message"], "Rate limit exceeded: try again later");
    error["data"]["retryAfterMs"]
        .as_u64()
        .expect("retryAfterMs")
}

#[test]
fn a_burst_past_the_bucket_is_refused_with_a_retry_hint() {
    let server = server(TokenBucket::every(Duration::from_secs(60)).burst(3));
    let session = Session::new();
    for _ in 0..3 {
        let answer = ping_as(&server, &session);
        assert_eq!(answer["result"]["content"][0]["text"], "pong", "{answer}");
    }
    let retry = refused(&ping_as(&server, &session));
    // The interval less the time since the first call: seconds of it on a loaded machine.
    assert!((50_000..=60_000).contains(&retry), "{retry}");
    // Completions draw from the same bucket.
    refused(&complete_as(&server, &session));
}

#[test]
fn the_bucket_refills_over_time() {
    // Far longer than two calls in a row take on a loaded machine: the second is refused.
    let server = server(TokenBucket::every(Duration::from_secs(2)).burst(1));
    let session = Session::new();
    assert!(passed(&ping_as(&server, &session)));
    let retry = refused(&ping_as(&server, &session));
    assert!((1..=2000).contains(&retry), "{retry}");
    // No earlier than the hint (a pause never ends early).
    std::thread::sleep(Duration::from_millis(retry + 20));
    assert!(passed(&ping_as(&server, &session)));
    refused(&ping_as(&server, &session));
}

#[test]
fn principals_have_buckets_of_their_own() {
    let server = server(TokenBucket::every(Duration::from_secs(60)).burst(2));
    let alice = Session::new().with_principal("alice".to_owned());
    let bob = Session::new().with_principal("bob".to_owned());
    let alice_again = Session::new().with_principal("alice".to_owned());
    let anonymous = Session::new();
    assert!(passed(&ping_as(&server, &alice)));
    assert!(passed(&complete_as(&server, &alice_again)));
    // Alice's bucket is empty, in any session that carries her.
    refused(&ping_as(&server, &alice));
    refused(&complete_as(&server, &alice_again));
    // Bob and the anonymous caller are untouched.
    for session in [&bob, &anonymous] {
        assert!(passed(&ping_as(&server, session)));
        assert!(passed(&complete_as(&server, session)));
        refused(&ping_as(&server, session));
    }
}

/// Counts what it is asked, and admits everything.
#[derive(Default)]
struct Counting {
    tools: AtomicUsize,
    completions: AtomicUsize,
}

impl RateLimit for Counting {
    fn check(&self, _caller: Caller<'_>, kind: Limited<'_>) -> Checked {
        match kind {
            Limited::ToolCall { name } => {
                assert!(name == "ping" || name == "echo", "{name}");
                self.tools.fetch_add(1, Ordering::Relaxed);
            }
            Limited::Completion => {
                self.completions.fetch_add(1, Ordering::Relaxed);
            }
            Limited::ResourceRead { .. } | Limited::PromptGet { .. } => {}
            _ => unreachable!(),
        }
        Checked::ready(Ok(()))
    }
}

/// Runs of the `tally` tool: host code that ran.
static TALLIES: AtomicUsize = AtomicUsize::new(0);

/// Counts its runs.
#[beam_mcp::tool]
async fn tally() -> String {
    TALLIES.fetch_add(1, Ordering::SeqCst).to_string()
}

/// A limiter that counts in a store elsewhere: its verdict comes later (after the call's future
/// has waited once), admitting the first `admits` checks and refusing the rest.
struct Remote {
    admits: usize,
    asked: Arc<AtomicUsize>,
}

impl RateLimit for Remote {
    fn check(&self, _caller: Caller<'_>, _kind: Limited<'_>) -> Checked {
        let asked = Arc::clone(&self.asked);
        let admits = self.admits;
        Checked::later(async move {
            // The store's round trip: the call waits here at least once.
            tokio::task::yield_now().await;
            if asked.fetch_add(1, Ordering::SeqCst) < admits {
                Ok(())
            } else {
                Err(Retry::after(Duration::from_millis(1500)).into())
            }
        })
    }
}

#[test]
fn a_verdict_given_later_is_awaited_before_any_host_code_runs() {
    let asked = Arc::new(AtomicUsize::new(0));
    let remote = Remote {
        admits: 2,
        asked: Arc::clone(&asked),
    };
    let server = server(remote);
    let session = Session::new();
    let tally = |id| send(&server, &session, call(id, true, "tally", json!({}))).unwrap();
    let before = TALLIES.load(Ordering::SeqCst);
    assert!(passed(&tally(1)));
    assert!(passed(&complete_as(&server, &session)));
    // The third check is refused: answered -31429 with the store's hint, and the tool never ran.
    assert_eq!(refused(&tally(3)), 1500);
    assert_eq!(refused(&complete_as(&server, &session)), 1500);
    assert_eq!(asked.load(Ordering::SeqCst), 4, "one check a call");
    assert_eq!(
        TALLIES.load(Ordering::SeqCst) - before,
        1,
        "host code ran once"
    );
}

#[test]
fn only_requests_that_would_run_are_checked() {
    let counting = Arc::new(Counting::default());
    let server = server(Arc::clone(&counting));
    let session = Session::new();
    // Unknown tool, missing name, invalid arguments: refused before the limiter.
    let unknown = send(&server, &session, call(1, true, "nope", json!({}))).unwrap();
    assert_eq!(unknown["error"]["code"], -32602);
    let invalid = send(
        &server,
        &session,
        call(2, true, "echo", json!({ "n": "x" })),
    )
    .unwrap();
    assert_eq!(invalid["result"]["isError"], true);
    let params = json!({
        "ref": { "type": "ref/prompt", "name": "nope" },
        "argument": { "name": "color", "value": "r" },
    });
    let bad = send(&server, &session, modern(3, "completion/complete", params)).unwrap();
    assert_eq!(bad["error"]["code"], -32602);
    assert_eq!(counting.tools.load(Ordering::Relaxed), 0);
    assert_eq!(counting.completions.load(Ordering::Relaxed), 0);
    // Valid ones, at both revisions.
    assert!(passed(&ping_as(&server, &session)));
    let legacy = send(&server, &session, call(4, false, "echo", json!({ "n": 4 }))).unwrap();
    assert_eq!(legacy["result"]["content"][0]["text"], "4");
    assert!(passed(&complete_as(&server, &session)));
    assert_eq!(counting.tools.load(Ordering::Relaxed), 2);
    assert_eq!(counting.completions.load(Ordering::Relaxed), 1);
}

#[test]
fn without_a_limiter_nothing_is_refused() {
    let server = Server::builder()
        .crate_items(module_path!())
        .build()
        .unwrap();
    let session = Session::new();
    for _ in 0..200 {
        assert!(passed(&ping_as(&server, &session)));
    }
}

/// Two bearer tokens, two principals: `authorize` sets them, the limiter tells them apart.
#[cfg(feature = "http")]
mod over_http {
    use super::loopback;
    use std::time::Duration;

    use beam_mcp::limit::TokenBucket;
    use beam_mcp::transport::http::{Http, Origins, Refusal};
    use beam_mcp_tests::http_client::Connection;
    use beam_mcp_tests::modern_meta;
    use serde_json::{Value, json};

    fn ping(addr: std::net::SocketAddr, token: &str) -> (u16, Value) {
        let (status, _, answer) = ping_with_retry(addr, token);
        (status, answer)
    }

    /// The status, the `Retry-After` header and the body of one call.
    fn ping_with_retry(addr: std::net::SocketAddr, token: &str) -> (u16, Option<String>, Value) {
        let mut params = json!({ "name": "ping", "arguments": {} });
        params["_meta"] = modern_meta();
        let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params });
        let host = format!("127.0.0.1:{}", addr.port());
        let auth = format!("Bearer {token}");
        let headers = [
            ("host", host.as_str()),
            ("authorization", auth.as_str()),
            ("content-type", "application/json"),
            ("accept", "application/json, text/event-stream"),
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "ping"),
        ];
        let response = Connection::open(addr).post(&headers, body.to_string().as_bytes());
        let retry = response.header("retry-after").map(str::to_owned);
        (response.status, retry, response.json())
    }

    /// One request of `method` naming `name` (a prompt, or a URI), at 2026-07-28.
    fn request(addr: std::net::SocketAddr, method: &str, name: &str) -> (u16, Value) {
        let mut params = match method {
            "resources/read" => json!({ "uri": name }),
            _ => json!({ "name": name, "arguments": { "color": "red" } }),
        };
        params["_meta"] = modern_meta();
        let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
        let host = format!("127.0.0.1:{}", addr.port());
        let headers = [
            ("host", host.as_str()),
            ("content-type", "application/json"),
            ("accept", "application/json, text/event-stream"),
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", method),
            ("mcp-name", name),
        ];
        let response = Connection::open(addr).post(&headers, body.to_string().as_bytes());
        (response.status, response.json())
    }

    /// A reader and a prompt run host code as a tool does: the limiter is asked for them too,
    /// and the call time limit holds them. (Before, only tools and completions were limited, and
    /// only tools timed.)
    #[test]
    fn readers_and_prompts_are_rate_limited_and_timed_like_tools() {
        let server = super::builder()
            .rate_limit(TokenBucket::every(Duration::from_secs(60)).burst(2))
            .call_time_limit(Duration::from_millis(200))
            .build()
            .unwrap();
        let http = Http::builder(server)
            .authorize(|_| Ok(()))
            .allowed_origins(Origins::Loopback)
            .build()
            .unwrap();
        let addr = loopback::start(http);
        let (status, read) = request(addr, "resources/read", "notes://one");
        assert_eq!(status, 200, "{read}");
        assert_eq!(read["result"]["contents"][0]["text"], "one");
        let (status, got) = request(addr, "prompts/get", "paint");
        assert_eq!(status, 200, "{got}");
        assert!(got["result"]["messages"].is_array(), "{got}");
        // The bucket of two is spent: the next read and the next prompt are refused.
        let (status, refused) = request(addr, "resources/read", "notes://one");
        assert_eq!(status, 429, "{refused}");
        super::refused(&refused);
        let (status, refused) = request(addr, "prompts/get", "paint");
        assert_eq!(status, 429, "{refused}");
        super::refused(&refused);

        // A reader past the call time limit is ended and answered -32603.
        let server = super::builder()
            .call_time_limit(Duration::from_millis(200))
            .build()
            .unwrap();
        let http = Http::builder(server)
            .authorize(|_| Ok(()))
            .allowed_origins(Origins::Loopback)
            .build()
            .unwrap();
        let addr = loopback::start(http);
        let (status, late) = request(addr, "resources/read", "notes://slow");
        assert_eq!(
            (status, late["error"]["code"].as_i64()),
            (200, Some(-32603)),
            "{late}"
        );
    }

    /// A verdict given later is answered as a refusal given now: 429 with `Retry-After`, not
    /// a 200 event stream.
    #[test]
    fn a_refusal_given_later_is_a_429_with_retry_after() {
        let remote = super::Remote {
            admits: 1,
            asked: std::sync::Arc::default(),
        };
        let http = Http::builder(super::server(remote))
            .authorize(|_| Ok(()))
            .allowed_origins(Origins::Loopback)
            .build()
            .unwrap();
        let addr = loopback::start(http);
        let (status, _, answer) = ping_with_retry(addr, "any");
        assert_eq!(status, 200, "{answer}");
        let (status, retry, answer) = ping_with_retry(addr, "any");
        assert_eq!(status, 429, "{answer}");
        assert_eq!(super::refused(&answer), 1500);
        assert_eq!(retry.as_deref(), Some("2"), "whole seconds, rounded up");
    }

    #[test]
    fn two_bearer_tokens_have_buckets_of_their_own() {
        let server = super::server(TokenBucket::every(Duration::from_secs(60)).burst(1));
        let http = Http::builder(server)
            .authorize(|parts| match parts.headers.get("authorization") {
                Some(v) if v == "Bearer a" => Ok("alice".to_owned()),
                Some(v) if v == "Bearer b" => Ok("bob".to_owned()),
                _ => Err(Refusal::new("no or wrong token")),
            })
            .allowed_origins(Origins::Loopback)
            .build()
            .unwrap();
        let addr = loopback::start(http);
        let (status, answer) = ping(addr, "a");
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["result"]["content"][0]["text"], "pong");
        let (status, retry, answer) = ping_with_retry(addr, "a");
        let ms = super::refused(&answer);
        // Most of the 60 s interval, less what the calls took on a loaded machine.
        assert!((50_000..=60_000).contains(&ms), "{ms}");
        // HTTP's own word for it: 429, with the same wait in whole seconds, rounded up.
        let seconds = ms.div_ceil(1000).to_string();
        assert_eq!(
            (status, retry.as_deref()),
            (429, Some(seconds.as_str())),
            "{answer}"
        );
        let (status, answer) = ping(addr, "b");
        assert_eq!(status, 200, "{answer}");
        let (_, answer) = ping(addr, "b");
        super::refused(&answer);
    }
}
