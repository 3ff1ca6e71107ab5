//! The core's `tools/call` path, bytes in to bytes out, beside a bare serde_json
//! read-parse-write of the same bytes (the floor any implementation pays).
//!
//! Run: `cargo bench -p beam-mcp-bench --bench tools_call`. Report the ratio, not the time.

#![allow(missing_docs)]

use std::hint::black_box;

use beam_mcp::protocol::Session;
use criterion::{Criterion, criterion_group, criterion_main};

use beam_mcp_bench::{self as common, LEGACY, MODERN, answer};

fn bench(c: &mut Criterion) {
    let server = common::server();
    let session = Session::new();
    let (legacy, modern) = (LEGACY, MODERN);
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
    // The observed connectome's hook alone: the same call, observer off and recording.
    let observed = common::observed_server();
    let mut group = c.benchmark_group("observer");
    group.bench_function("modern_off", |b| {
        b.iter(|| {
            answer(&server, &session, black_box(modern), &mut out);
            black_box(&out);
        })
    });
    group.bench_function("modern_on", |b| {
        b.iter(|| {
            answer(&observed, &session, black_box(modern), &mut out);
            black_box(&out);
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
