//! An HTTP endpoint served on 127.0.0.1 in the background, for the tests over real sockets.

use std::net::SocketAddr;
use std::thread;

use beam_mcp::transport::http::Http;

/// Serves `http` on a free loopback port, on a runtime of its own; returns the address.
pub(crate) fn start(http: Http) -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            beam_mcp::transport::http::serve(listener, http)
                .await
                .unwrap();
        });
    });
    rx.recv().unwrap()
}
