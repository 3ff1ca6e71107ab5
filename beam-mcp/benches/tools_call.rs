//! The core's `tools/call` path, bytes in to bytes out, beside a bare serde_json
//! read-parse-write of the same bytes (the floor any implementation pays).
//!
//! Run: `cargo bench -p beam-mcp --bench tools_call`. Report the ratio, not the time.

#![allow(missing_docs)]

use std::future::Future;
use std::hint::black_box;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use beam_mcp::Server;
use beam_mcp::protocol::{Reply, Session};
use criterion::{Criterion, criterion_group, criterion_main};

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

/// Drives a reply to its bytes; the tools here finish on their first poll.
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

fn bench(c: &mut Criterion) {
    let server = Server::builder()
        .crate_items(module_path!())
        .build()
        .expect("valid catalog");
    let session = Session::new();
    let legacy = br#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello world"}}}"#;
    let modern = br#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"add","arguments":{"a":40,"b":2},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let mut out = Vec::with_capacity(1024);
    let mut group = c.benchmark_group("tools_call");
    group.bench_function("serde_json_floor", |b| {
        b.iter(|| {
            out.clear();
            let value: serde_json::Value = serde_json::from_slice(black_box(modern)).unwrap();
            serde_json::to_writer(&mut out, &value).unwrap();
            black_box(&out);
        })
    });
    group.bench_function("legacy_text", |b| {
        b.iter(|| {
            answer(&server, &session, black_box(legacy), &mut out);
            black_box(&out);
        })
    });
    group.bench_function("modern_structured", |b| {
        b.iter(|| {
            answer(&server, &session, black_box(modern), &mut out);
            black_box(&out);
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
