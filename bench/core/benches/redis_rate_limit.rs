//! What a rate limit kept in Redis costs one 2026-07-28 `tools/call` through the core, beside
//! no limit and the in-memory `TokenBucket`: the Redis one is a script run, one round trip to a
//! `redis-server` on 127.0.0.1 that this bench starts (Debian's package).
//!
//! Run: `cargo bench -p beam-mcp-bench --features redis --bench redis_rate_limit`.

#![allow(missing_docs)]

use std::hint::black_box;

use beam_mcp::Server;
use beam_mcp::limit::TokenBucket;
use beam_mcp::protocol::{Reply, Session};
use criterion::{Criterion, criterion_group, criterion_main};

use beam_mcp_bench::MODERN;

/// One call, bytes in to bytes out, awaiting the verdict a store gives later.
async fn answer(server: &Server, session: &Session, input: &[u8], out: &mut Vec<u8>) {
    out.clear();
    match server.handle(session, input) {
        Reply::Silent => {}
        Reply::Ready(response) => response.write_to(out),
        Reply::Pending(mut exchange) => {
            if let Some(message) = exchange.next().await {
                message.write_to(out);
            }
        }
    }
}

fn bench(c: &mut Criterion) {
    let redis = beam_mcp_bench::RedisServer::start();
    let store = redis.connect();
    let build = |limit: Option<Box<dyn beam_mcp::limit::RateLimit>>| {
        let builder = Server::builder().crate_items("beam_mcp_bench");
        match limit {
            Some(limit) => builder.rate_limit(limit),
            None => builder,
        }
        .build()
        .unwrap()
    };
    let servers = [
        ("no_limit", build(None)),
        (
            "memory_bucket",
            build(Some(Box::new(TokenBucket::per_second(1_000_000_000)))),
        ),
        (
            "redis_bucket",
            build(Some(Box::new(store.rate_limit_per_second(1_000_000)))),
        ),
    ];
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let session = Session::new();
    let mut out = Vec::with_capacity(1024);
    let mut group = c.benchmark_group("rate_limited_tools_call");
    for (name, server) in &servers {
        runtime.block_on(answer(server, &session, MODERN, &mut out));
        assert!(
            out.windows(9).any(|w| w == b"\"result\":"),
            "{name}: {}",
            String::from_utf8_lossy(&out)
        );
        group.bench_function(*name, |b| {
            b.iter(|| {
                runtime.block_on(answer(server, &session, black_box(MODERN), &mut out));
                black_box(&out);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
