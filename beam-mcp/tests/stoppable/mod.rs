//! An HTTP endpoint served on 127.0.0.1 by `serve_until`, stopped when the test says, and the
//! bytes of the requests the tests send it.

#![allow(dead_code, reason = "each test file uses a part")]

use std::net::SocketAddr;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use beam_mcp::transport::http::{Http, serve_until};
use beam_mcp_tests::http_client::{Connection, request};
use beam_mcp_tests::modern_meta;
use serde_json::{Value, json};

/// A served endpoint.
pub(crate) struct Running {
    pub(crate) addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    ended: mpsc::Receiver<Instant>,
}

impl Running {
    /// Asks the endpoint to stop; when it was asked.
    pub(crate) fn stop(&mut self) -> Instant {
        let at = Instant::now();
        let _ = self.stop.take().expect("stopped once").send(());
        at
    }

    /// When `serve_until` returned, if it did within `wait`.
    pub(crate) fn ended_within(&self, wait: Duration) -> Option<Instant> {
        self.ended.recv_timeout(wait).ok()
    }
}

/// Serves `http` on a free loopback port, on a runtime of its own, until [`Running::stop`].
pub(crate) fn start(http: Http) -> Running {
    let (addr_tx, addr_rx) = mpsc::channel();
    let (ended_tx, ended) = mpsc::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            addr_tx.send(listener.local_addr().unwrap()).unwrap();
            let stop = async {
                let _ = stopped.await;
            };
            // Spawned, as `serve!` runs it (see docs/architecture.md).
            tokio::spawn(serve_until(listener, http, stop))
                .await
                .unwrap()
                .unwrap();
            let _ = ended_tx.send(Instant::now());
        });
        // A tool cancelled past the grace may still hold a blocking thread: do not wait.
        runtime.shutdown_background();
    });
    Running {
        addr: addr_rx.recv().unwrap(),
        stop: Some(stop),
        ended,
    }
}

/// The headers of a 2026-07-28 POST of `method` (naming `name`, for a call).
pub(crate) fn headers(addr: SocketAddr, method: &str, name: Option<&str>) -> Vec<(String, String)> {
    let mut h = vec![
        ("host".to_owned(), format!("127.0.0.1:{}", addr.port())),
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

/// The headers and body of a 2026-07-28 request `method` with `params` (its `_meta` added).
pub(crate) fn modern(
    addr: SocketAddr,
    id: i64,
    method: &str,
    mut params: Value,
) -> (Vec<(String, String)>, String) {
    params["_meta"] = modern_meta();
    let name = params["name"].as_str().map(str::to_owned);
    let body = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
    (headers(addr, method, name.as_deref()), body.to_string())
}

/// The headers as the client takes them.
pub(crate) fn borrowed(h: &[(String, String)]) -> Vec<(&str, &str)> {
    h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect()
}

/// The bytes of a 2026-07-28 request `method` with `params`.
pub(crate) fn post(addr: SocketAddr, id: i64, method: &str, params: Value) -> Vec<u8> {
    let (h, body) = modern(addr, id, method, params);
    request("POST", &borrowed(&h), body.as_bytes())
}

/// The bytes of a `tools/call` of `tool`.
pub(crate) fn call(addr: SocketAddr, id: i64, tool: &str, arguments: Value) -> Vec<u8> {
    post(
        addr,
        id,
        "tools/call",
        json!({ "name": tool, "arguments": arguments }),
    )
}

/// A `subscriptions/listen` for tool list changes, opened on `c`: the head's status.
pub(crate) fn listen(c: &mut Connection, addr: SocketAddr, id: i64) -> u16 {
    let notifications = json!({ "notifications": { "toolsListChanged": true } });
    let (h, body) = modern(addr, id, "subscriptions/listen", notifications);
    c.post_head(&borrowed(&h), body.as_bytes()).status
}

/// The bytes of `GET path` from `host`, with no other header.
pub(crate) fn get(path: &str, host: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nhost: {host}\r\n\r\n").into_bytes()
}
