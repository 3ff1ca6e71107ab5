//! `diff` and its record on two generated 10,000-edge graphs (the seed's gate: diff ≤ 245 ms,
//! encode ≤ 260 ms; measured about 120 ms for the diff).
//!
//! Run: `cargo bench -p beam-mcp-connectome --bench diff -- --warm-up-time 1 --measurement-time 3`.

#![allow(missing_docs)]

mod common;

use std::hint::black_box;

use beam_mcp_connectome::{Algorithm, diff};
use criterion::{Criterion, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let (declared, observed) = (common::declared(), common::observed());
    assert_eq!(
        (declared.edges().len(), observed.edges().len()),
        (common::EDGES, common::EDGES)
    );
    let window = serde_json::json!({"started_at": "2026-09-14T00:00:00Z", "ended_at": "2026-09-14T01:00:00Z"});
    let made = diff(&declared, &observed, &window).expect("a diff");

    let mut group = c.benchmark_group("diff_10k");
    group.bench_function("diff", |b| {
        b.iter(|| {
            diff(
                black_box(&declared),
                black_box(&observed),
                black_box(&window),
            )
        })
    });
    group.bench_function("record_bytes", |b| {
        b.iter(|| black_box(&made).to_canonical_bytes(Algorithm::Sha256))
    });
    group.bench_function("record_value", |b| {
        b.iter(|| black_box(&made).to_value(Algorithm::Sha256))
    });
    group.bench_function("diff_and_record_sha256", |b| {
        b.iter(|| {
            diff(
                black_box(&declared),
                black_box(&observed),
                black_box(&window),
            )
            .map(|diff| diff.canonical(Algorithm::Sha256))
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
