//! A fixed number of `tools/call` requests through the core, for instruction counts:
//! `valgrind --tool=callgrind` on N and on 2N calls; the difference over N is the cost of one
//! call, with start-up subtracted. Run by `bench/callcount.sh`.
//!
//! `CALLS` (default 1000) sets N; `KIND` is `modern` (structured, async tool, 2026-07-28) or
//! `legacy` (text, sync tool, no `_meta`).

#![allow(missing_docs)]

use std::future::Future;
use std::hint::black_box;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use beam_mcp::Server;
use beam_mcp::protocol::{Reply, Session};

/// Echoes the text.
#[beam_mcp::tool(read_only)]
fn echo(text: String) -> String {
    text
}

/// Adds two integers, as structured output.
#[beam_mcp::tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn answer(server: &Server, session: &Session, input: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let response = match server.handle(session, input) {
        Reply::Silent => return,
        Reply::Ready(response) => response,
        Reply::Pending(mut exchange) => {
            let mut next = pin!(exchange.next());
            match next.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
                Poll::Ready(Some(message)) => return message.write_to(out),
                Poll::Ready(None) => unreachable!("the benchmark requests are never cancelled"),
                Poll::Pending => unreachable!("the benchmark tools never wait"),
            }
        }
    };
    response.write_to(out);
}

fn main() {
    let calls: usize = std::env::var("CALLS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1000);
    let kind = std::env::var("KIND").unwrap_or_else(|_| "modern".into());
    let server = Server::builder()
        .crate_items(module_path!())
        .build()
        .expect("valid catalog");
    let session = Session::new();
    let legacy: &[u8] = br#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello world"}}}"#;
    let modern: &[u8] = br#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"add","arguments":{"a":40,"b":2},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let input = if kind == "legacy" { legacy } else { modern };
    let mut out = Vec::with_capacity(1024);
    for _ in 0..calls {
        answer(&server, &session, black_box(input), &mut out);
        black_box(&out);
    }
    assert!(
        out.windows(8).any(|w| w == b"\"result\""),
        "{}",
        String::from_utf8_lossy(&out)
    );
}
