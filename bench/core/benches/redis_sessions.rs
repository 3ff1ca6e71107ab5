//! What sharing 2025-11-25 sessions in Redis costs one call over HTTP, beside sessions kept in
//! memory: a `tools/call` on a session, over one keep-alive connection on 127.0.0.1, answered
//! by an endpoint with memory sessions and by one whose sessions are shared in a `redis-server`
//! this bench starts (Debian's package). Beside them, a 2026-07-28 `tools/call` on the shared
//! endpoint, and the number of commands Redis ran for it (none: it needs no shared state).
//!
//! Run: `cargo bench -p beam-mcp-bench --features redis --bench redis_sessions`.

#![allow(missing_docs)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

use beam_mcp::Server;
use beam_mcp::transport::http::{Http, Origins};
use criterion::{Criterion, criterion_group, criterion_main};

use beam_mcp_bench::MODERN;

/// Serves `http` on a free loopback port, on a runtime of its own (two workers, as a replica
/// on this machine would run).
fn serve(http: Http) -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
            .block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                beam_mcp::transport::http::serve(listener, http).await
            })
    });
    addr
}

/// One keep-alive HTTP/1.1 connection that answers with `content-length` bodies.
struct Client {
    stream: TcpStream,
    buffer: Vec<u8>,
    head: String,
}

impl Client {
    fn open(addr: SocketAddr) -> Client {
        let stream = TcpStream::connect(addr).unwrap();
        stream.set_nodelay(true).unwrap();
        Client {
            stream,
            buffer: Vec::with_capacity(4096),
            head: format!(
                "host: 127.0.0.1:{}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\n",
                addr.port()
            ),
        }
    }

    /// POSTs `body` with `headers` (each line ending in CRLF); the status, the session id if
    /// any, and the body.
    fn post(&mut self, headers: &str, body: &[u8]) -> (u16, Option<String>, Vec<u8>) {
        let request = format!(
            "POST /mcp HTTP/1.1\r\n{}{headers}content-length: {}\r\n\r\n",
            self.head,
            body.len()
        );
        self.stream.write_all(request.as_bytes()).unwrap();
        self.stream.write_all(body).unwrap();
        let end = loop {
            if let Some(i) = self.buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                break i;
            }
            self.fill();
        };
        let head = String::from_utf8_lossy(&self.buffer[..end]).to_ascii_lowercase();
        let status = head[9..12].parse().unwrap();
        let field = |name: &str| {
            head.lines()
                .find_map(|l| l.strip_prefix(name).map(|v| v.trim().to_owned()))
        };
        let length: usize = field("content-length:").map_or(0, |v| v.parse().unwrap());
        let session = field("mcp-session-id:");
        while self.buffer.len() < end + 4 + length {
            self.fill();
        }
        let body = self.buffer[end + 4..end + 4 + length].to_vec();
        self.buffer.drain(..end + 4 + length);
        (status, session, body)
    }

    fn fill(&mut self) {
        let mut chunk = [0u8; 4096];
        let n = self.stream.read(&mut chunk).unwrap();
        assert!(n > 0, "the server closed the connection");
        self.buffer.extend_from_slice(&chunk[..n]);
    }
}

const INITIALIZE: &[u8] = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#;
const LEGACY_CALL: &[u8] =
    br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":40,"b":2}}}"#;
const MODERN_HEADERS: &str =
    "mcp-protocol-version: 2026-07-28\r\nmcp-method: tools/call\r\nmcp-name: add\r\n";

/// A session opened on `client`: the headers every call on it carries.
fn session(client: &mut Client) -> String {
    let (status, id, _) = client.post("", INITIALIZE);
    assert_eq!(status, 200);
    format!(
        "mcp-session-id: {}\r\nmcp-protocol-version: 2025-11-25\r\n",
        id.expect("a session id")
    )
}

fn answered(status: u16, body: &[u8]) {
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(body));
    assert!(
        body.windows(9).any(|w| w == b"\"result\":"),
        "{}",
        String::from_utf8_lossy(body)
    );
}

/// The commands Redis has run since it started (`INFO stats`' `total_commands_processed`).
fn commands(port: u16) -> u64 {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .write_all(b"*2\r\n$4\r\nINFO\r\n$5\r\nstats\r\n")
        .unwrap();
    let mut text = String::new();
    let mut chunk = [0u8; 8192];
    while !text.contains("total_commands_processed:") || !text.ends_with("\r\n") {
        let n = stream.read(&mut chunk).unwrap();
        text.push_str(&String::from_utf8_lossy(&chunk[..n]));
    }
    text.lines()
        .find_map(|l| l.strip_prefix("total_commands_processed:"))
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

fn bench(c: &mut Criterion) {
    let redis = beam_mcp_bench::RedisServer::start();
    let port = redis.port;
    let store = redis.connect();
    let server = || {
        Server::builder()
            .crate_items("beam_mcp_bench")
            .build()
            .unwrap()
    };
    let endpoint = |shared: bool| {
        let builder = Http::builder(server())
            .authorize(|_| Ok(()))
            .allowed_origins(Origins::Loopback);
        if shared {
            builder
                .session_share(store.sessions())
                .event_store(store.event_store())
        } else {
            builder
        }
        .build()
        .unwrap()
    };
    let memory = serve(endpoint(false));
    let shared = serve(endpoint(true));

    let mut group = c.benchmark_group("http_call");
    for (name, addr) in [("memory_session", memory), ("redis_session", shared)] {
        let mut client = Client::open(addr);
        let headers = session(&mut client);
        let (status, _, body) = client.post(&headers, LEGACY_CALL);
        answered(status, &body);
        group.bench_function(name, |b| {
            b.iter(|| {
                let (status, _, body) = client.post(&headers, LEGACY_CALL);
                debug_assert_eq!(status, 200);
                body
            })
        });
    }
    for (name, addr) in [("modern_memory", memory), ("modern_redis_endpoint", shared)] {
        let mut client = Client::open(addr);
        let (status, _, body) = client.post(MODERN_HEADERS, MODERN);
        answered(status, &body);
        group.bench_function(name, |b| b.iter(|| client.post(MODERN_HEADERS, MODERN).2));
    }
    group.finish();

    // What each kind of call asks of Redis, counted by Redis itself (the count includes the
    // INFO command that reads it).
    let mut client = Client::open(shared);
    let headers = session(&mut client);
    let before = commands(port);
    for _ in 0..1000 {
        let (status, _, body) = client.post(MODERN_HEADERS, MODERN);
        answered(status, &body);
    }
    let modern = commands(port) - before - 1;
    let before = commands(port);
    for _ in 0..1000 {
        let (status, _, body) = client.post(&headers, LEGACY_CALL);
        answered(status, &body);
    }
    let legacy = commands(port) - before - 1;
    println!(
        "redis commands per 1000 calls: 2026-07-28 tools/call {modern}, 2025-11-25 session call {legacy}"
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
