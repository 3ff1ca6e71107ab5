//! The write deadline over a real socket on 127.0.0.1: a client that sends requests and never
//! reads its answers is cut about `write_timeout` after the server's writes stop moving, while
//! a slow reader of a heavy event stream and a quiet listen stream are kept.

mod loopback;
mod stoppable;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

use beam_mcp::transport::http::{Http, Origins};
use beam_mcp::{Context, Server};
use beam_mcp_tests::http_client::{Connection, request};
use beam_mcp_tests::modern_meta;
use serde_json::{Value, json};

/// The deadline these servers run with: short, so the tests are quick.
const LIMIT: Duration = Duration::from_secs(1);

/// The deadline of the slow reader's server: its stalls (about 200 ms each, unloaded) keep a
/// wide margin under it on a loaded machine, and its stream still lasts twice as long.
const SLOW_READER_LIMIT: Duration = Duration::from_secs(2);

/// Echoes the text.
#[beam_mcp::tool]
fn echo(text: String) -> String {
    text
}

/// Sends a 32 KiB progress message every millisecond for `millis`, then answers.
#[beam_mcp::tool]
async fn flood(ctx: Context, millis: u64) -> String {
    let payload = "x".repeat(32 * 1024);
    let started = Instant::now();
    let mut sent = 0.0;
    while started.elapsed() < Duration::from_millis(millis) {
        sent += 1.0;
        let _ = ctx.progress(sent, None, Some(&payload));
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    format!("done after {sent} updates")
}

fn endpoint(server: Server) -> SocketAddr {
    endpoint_cutting_at(server, LIMIT)
}

fn endpoint_cutting_at(server: Server, limit: Duration) -> SocketAddr {
    loopback::start(
        Http::builder(server)
            .authorize(|_| Ok(()))
            .allowed_origins(Origins::Loopback)
            // Only the write deadline can cut a connection within these tests.
            .read_timeout(Duration::from_secs(60))
            .write_timeout(limit)
            .build()
            .unwrap(),
    )
}

fn catalog() -> beam_mcp::ServerBuilder {
    Server::builder()
        .name("http-stalls")
        .version("1")
        .crate_items(module_path!())
}

/// The bytes of a 2026-07-28 POST of `method` with `params`.
fn post_bytes(
    addr: SocketAddr,
    id: i64,
    method: &str,
    name: Option<&str>,
    params: Value,
) -> Vec<u8> {
    let mut params = params;
    let mut meta = modern_meta();
    if let Some(token) = params.get("progressToken").cloned() {
        meta["progressToken"] = token;
        params.as_object_mut().unwrap().remove("progressToken");
    }
    params["_meta"] = meta;
    let body = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
    let h = stoppable::headers(addr, method, name);
    request(
        "POST",
        &stoppable::borrowed(&h),
        body.to_string().as_bytes(),
    )
}

#[test]
fn a_client_that_sends_pipelined_requests_and_never_reads_is_cut_at_the_write_deadline() {
    let addr = endpoint(catalog().build().unwrap());
    let one = post_bytes(addr, 1, "tools/list", None, json!({}));
    let stream = TcpStream::connect(addr).unwrap();
    // A guard for a server that never cuts: the writes then stall for good.
    stream
        .set_write_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut writer = stream.try_clone().unwrap();
    let started = Instant::now();
    // Requests pipelined until the server stops taking them; nothing is ever read.
    let sent = thread::spawn(move || {
        let mut sent = 0usize;
        loop {
            if let Err(error) = writer.write_all(&one) {
                return (sent, error.kind(), started.elapsed());
            }
            sent += 1;
        }
    });
    let (sent, ended, after) = sent.join().unwrap();
    use std::io::ErrorKind::{TimedOut, WouldBlock};
    assert!(
        !matches!(ended, WouldBlock | TimedOut),
        "the connection was still open after {after:?} ({sent} requests sent)"
    );
    assert!(sent >= 100, "{sent} requests sent before the cut");
    // The limit is 1 s after the first write the client stopped taking; 15 s leaves room for
    // a loaded machine and still fails a server that waits for the client's 30 s.
    assert!(after < Duration::from_secs(15), "cut after {after:?}");
    drop(stream);
    // The server serves on.
    let mut c = Connection::open(addr);
    let h = stoppable::headers(addr, "tools/list", None);
    let borrowed = stoppable::borrowed(&h);
    let body = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list",
        "params": { "_meta": modern_meta() } });
    assert_eq!(c.post(&borrowed, body.to_string().as_bytes()).status, 200);
}

#[test]
fn a_slow_reader_of_a_heavy_event_stream_is_never_cut() {
    let addr = endpoint_cutting_at(catalog().build().unwrap(), SLOW_READER_LIMIT);
    // Flooding for twice the limit: a deadline that did not restart with each byte taken
    // would cut this stream.
    let millis = 2 * SLOW_READER_LIMIT.as_secs() * 1000;
    let call = post_bytes(
        addr,
        7,
        "tools/call",
        Some("flood"),
        json!({ "name": "flood", "arguments": { "millis": millis }, "progressToken": "p" }),
    );
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    stream.write_all(&call).unwrap();
    // The tool offers far more than this reader takes (64 KiB every 10 ms), so the server's
    // writes wait on it most of the time. A socket is writable again only once about a third
    // of its send buffer (up to 4 MiB) has drained, so each wait is about 1.3 MiB at this
    // rate: well under the limit, even at a fraction of it.
    let mut got = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    let mut full_reads = 0;
    let started = Instant::now();
    let cut = loop {
        match stream.read(&mut chunk) {
            Ok(0) => break Some("EOF".to_owned()),
            Ok(n) => {
                full_reads += usize::from(n == chunk.len());
                got.extend_from_slice(&chunk[..n]);
            }
            Err(error) => break Some(error.to_string()),
        }
        if got.ends_with(b"\r\n0\r\n\r\n") {
            break None;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "too slow");
        thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(
        cut,
        None,
        "the stream ended early after {} bytes: …{}",
        got.len(),
        String::from_utf8_lossy(&got[got.len().saturating_sub(300)..])
    );
    // The reader, not the server, set the pace: most reads found a full chunk waiting.
    assert!(
        got.len() > 4 * 1024 * 1024 && full_reads > 40,
        "a heavy stream: {} bytes, {full_reads} full reads",
        got.len()
    );
    let text = String::from_utf8_lossy(&got);
    assert!(text.contains("text/event-stream"), "an event stream");
    assert!(text.contains("done after"), "the response came last");
}

#[test]
fn a_quiet_listen_stream_outlives_the_write_deadline() {
    let (builder, live) = catalog().live();
    let addr = endpoint(builder.build().unwrap());
    let mut conn = Connection::open(addr);
    let h = stoppable::headers(addr, "subscriptions/listen", None);
    let borrowed = stoppable::borrowed(&h);
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen",
        "params": { "notifications": { "toolsListChanged": true }, "_meta": modern_meta() } });
    let head = conn.post_head(&borrowed, body.to_string().as_bytes());
    assert_eq!(head.status, 200);
    let ack: Value = serde_json::from_str(&conn.next_event().unwrap()).unwrap();
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    // Nothing to send for three times the limit: quiet is not stalled.
    thread::sleep(3 * LIMIT);
    live.add_tool(echo::DEF.with_name("echo_again")).unwrap();
    let heard: Value = serde_json::from_str(&conn.next_event().expect("still open")).unwrap();
    assert_eq!(heard["method"], "notifications/tools/list_changed");
}
