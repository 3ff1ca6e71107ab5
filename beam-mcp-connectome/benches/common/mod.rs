//! The benchmarks' fixture: a deterministic 10,000-edge connectome (no randomness from the
//! machine, so every run measures the same graph).

// Each benchmark uses part of this module.
#![allow(dead_code)]

use std::collections::HashSet;

use beam_mcp_connectome::{Edge, EdgeKind, Graph, Identity, Node, Provenance, Sign};

/// Edges per benchmark graph.
pub(crate) const EDGES: usize = 10_000;
/// Tools under the server.
const TOOLS: usize = 50;
/// Functions the tools call into.
const FUNCTIONS: usize = 2_000;

/// xorshift64*: small, fast and the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Node ids: the server, then the tools, then the functions.
pub(crate) fn ids() -> Vec<String> {
    identities().iter().map(Identity::id).collect()
}

fn identities() -> Vec<Identity> {
    let server = "bench".to_owned();
    let mut identities = vec![Identity::Server {
        server: server.clone(),
    }];
    identities.extend((0..TOOLS).map(|i| Identity::Tool {
        server: server.clone(),
        name: format!("tool_{i}"),
    }));
    identities.extend((0..FUNCTIONS).map(|i| Identity::Function {
        server: server.clone(),
        module: format!("bench::m{}", i / 20),
        name: format!("f{i}"),
        arity: (i % 4) as u32,
    }));
    identities
}

/// `count` distinct edge labels `(from, to, kind)` as node positions: server → every tool,
/// each tool → a few functions, then function calls mostly forward (so paths run deep) with
/// some back edges and some non-`invoke` kinds.
fn labels(count: usize) -> Vec<(usize, usize, EdgeKind)> {
    let mut rng = Rng(0x5eed_c0ff_ee15_600d);
    let mut seen = HashSet::new();
    let mut labels = Vec::with_capacity(count);
    let first_function = 1 + TOOLS;
    let mut push = |label: (usize, usize, EdgeKind), labels: &mut Vec<_>| {
        if labels.len() < count && seen.insert(label) {
            labels.push(label);
        }
    };
    for tool in 1..=TOOLS {
        push((0, tool, EdgeKind::Invoke), &mut labels);
        for _ in 0..3 {
            let callee = first_function + rng.below(FUNCTIONS / 4);
            push((tool, callee, EdgeKind::Invoke), &mut labels);
        }
    }
    while labels.len() < count {
        let from = first_function + rng.below(FUNCTIONS);
        let to = if rng.below(10) == 0 {
            first_function + rng.below(FUNCTIONS)
        } else {
            (from + 1 + rng.below(40)).min(first_function + FUNCTIONS - 1)
        };
        let kind = match rng.below(20) {
            0 => EdgeKind::Message,
            1 => EdgeKind::Read,
            2 => EdgeKind::Supervise,
            _ => EdgeKind::Invoke,
        };
        push((from, to, kind), &mut labels);
    }
    labels
}

/// A graph of the given labels, every `sign_every`-th signed `sign`.
fn graph(
    labels: &[(usize, usize, EdgeKind)],
    provenance: Provenance,
    sign_every: usize,
    sign: Sign,
) -> Graph {
    let ids = ids();
    let nodes = identities()
        .into_iter()
        .map(|identity| Node::new(identity, Default::default()).expect("a valid node"))
        .collect();
    let edges = labels
        .iter()
        .enumerate()
        .map(|(i, &(from, to, kind))| {
            let mut edge = Edge::new(ids[from].clone(), ids[to].clone(), kind, provenance);
            if i % sign_every == 0 {
                edge.sign = sign;
            }
            edge
        })
        .collect();
    Graph::new(nodes, edges).expect("a valid graph")
}

/// The declared graph: the first 10,000 labels.
pub(crate) fn declared() -> Graph {
    let labels = labels(EDGES + EDGES / 10);
    graph(&labels[..EDGES], Provenance::Declared, 7, Sign::Allow)
}

/// The observed graph: 10,000 labels, nine tenths of them declared, a tenth new.
pub(crate) fn observed() -> Graph {
    let labels = labels(EDGES + EDGES / 10);
    graph(&labels[EDGES / 10..], Provenance::Observed, 11, Sign::Deny)
}
