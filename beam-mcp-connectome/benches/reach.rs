//! Each reach query on a generated 10,000-edge graph (the seed measured 11–30 ms per query).
//!
//! Run: `cargo bench -p beam-mcp-connectome --bench reach -- --warm-up-time 1 --measurement-time 3`.

#![allow(missing_docs)]

mod common;

use std::hint::black_box;

use beam_mcp_connectome::{
    DominatorOptions, PathOptions, dominates, mandatory_pass, reachable, reachable_without,
};
use criterion::{Criterion, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let graph = common::declared();
    assert_eq!(graph.edges().len(), common::EDGES);
    let ids = common::ids();
    let (server, target) = (ids[0].as_str(), ids[ids.len() - 1].as_str());
    // Gates: the first functions, which the tools call into, and so block part of the way.
    let gates: Vec<&str> = ids[51..61].iter().map(String::as_str).collect();
    let (paths, dominance) = (PathOptions::new(), DominatorOptions::new());

    let witness = reachable_without(&graph, server, target, &gates, &paths).expect("a query");
    let pass = mandatory_pass(&graph, target, &dominance).expect("a reachable target");
    // Not a dominator: the search without it has to go all the way round.
    let gate = ids[51].as_str();
    assert!(!pass.contains(gate));
    eprintln!(
        "fixture: {} nodes, {} edges; witness {:?} hops; {} mandatory nodes",
        graph.nodes().len(),
        graph.edges().len(),
        witness.map(|path| path.edges.len()),
        pass.len()
    );

    let mut group = c.benchmark_group("reach_10k");
    group.bench_function("reachable", |b| {
        b.iter(|| reachable(black_box(&graph), server, target, &paths))
    });
    // Nothing reaches the server: the search visits everything `gate` reaches, then says no.
    group.bench_function("reachable_exhaustive", |b| {
        b.iter(|| reachable(black_box(&graph), gate, server, &paths))
    });
    group.bench_function("reachable_without", |b| {
        b.iter(|| {
            reachable_without(black_box(&graph), server, target, &gates, &paths)
                .map(|p| p.is_some())
        })
    });
    group.bench_function("dominates", |b| {
        b.iter(|| dominates(black_box(&graph), gate, target, &dominance))
    });
    group.bench_function("mandatory_pass", |b| {
        b.iter(|| mandatory_pass(black_box(&graph), target, &dominance))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
