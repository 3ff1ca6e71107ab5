//! Reach: the worked example, the witness rules, option and node refusals, and properties
//! against brute force (witnesses are real, gate-free and shortest; dominance agrees with
//! removal).

use std::collections::{BTreeSet, VecDeque};

use beam_mcp_connectome::{
    DEFAULT_MAX_EDGES, DominatorOptions, Edge, EdgeKind, Graph, Identity, Node, PathOptions,
    Provenance, ReachError, Sign, dominates, mandatory_pass, reachable, reachable_without,
};
use proptest::prelude::*;

const NONE: [&str; 0] = [];

fn id(name: &str) -> String {
    match name.strip_prefix('@') {
        Some(server) => Identity::Server {
            server: server.into(),
        }
        .id(),
        None => Identity::Tool {
            server: "srv".into(),
            name: name.into(),
        }
        .id(),
    }
}

/// Names starting with `@` are servers (`@srv` is `srv/server`), the rest tools of `srv`.
fn graph(names: &[&str], edges: &[(&str, &str, EdgeKind)]) -> Graph {
    let nodes = names
        .iter()
        .map(|name| {
            let identity = match name.strip_prefix('@') {
                Some(server) => Identity::Server {
                    server: server.into(),
                },
                None => Identity::Tool {
                    server: "srv".into(),
                    name: (*name).into(),
                },
            };
            Node::new(identity, Default::default()).expect("a valid node")
        })
        .collect();
    let edges = edges
        .iter()
        .map(|(from, to, kind)| Edge::new(id(from), id(to), *kind, Provenance::Declared))
        .collect();
    Graph::new(nodes, edges).expect("a valid graph")
}

fn worked_example(with_shortcut: bool) -> Graph {
    use EdgeKind::Invoke;
    let mut edges = vec![
        ("@srv", "a", Invoke),
        ("@srv", "b", Invoke),
        ("a", "g", Invoke),
        ("b", "g", Invoke),
        ("g", "x", Invoke),
    ];
    if with_shortcut {
        edges.push(("a", "x", Invoke));
    }
    graph(&["@srv", "a", "b", "g", "x"], &edges)
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|name| id(name)).collect()
}

#[test]
fn the_worked_example() {
    let options = DominatorOptions::new();
    let before = worked_example(false);
    assert_eq!(dominates(&before, &id("g"), &id("x"), &options), Ok(true));
    assert_eq!(
        mandatory_pass(&before, &id("x"), &options),
        Ok(set(&["@srv", "g"]))
    );
    assert_eq!(
        reachable_without(
            &before,
            &id("@srv"),
            &id("x"),
            [id("g")],
            &PathOptions::new()
        ),
        Ok(None)
    );

    let after = worked_example(true);
    let witness = reachable_without(
        &after,
        &id("@srv"),
        &id("x"),
        [id("g")],
        &PathOptions::new(),
    )
    .expect("a query")
    .expect("a witness");
    assert_eq!(witness.nodes, [id("@srv"), id("a"), id("x")]);
    assert_eq!(witness.edges, [&after.edges()[0], &after.edges()[5]]);
    assert_eq!(dominates(&after, &id("g"), &id("x"), &options), Ok(false));
    assert_eq!(
        mandatory_pass(&after, &id("x"), &options),
        Ok(set(&["@srv"]))
    );
}

#[test]
fn a_node_reaches_itself_in_zero_hops() {
    let graph = worked_example(false);
    let none = PathOptions::new().max_hops(0);
    assert_eq!(reachable(&graph, &id("x"), &id("x"), &none), Ok(true));
    assert_eq!(reachable(&graph, &id("g"), &id("x"), &none), Ok(false));
    let path = reachable_without(&graph, &id("x"), &id("x"), NONE, &none)
        .expect("a query")
        .expect("itself");
    assert_eq!((path.nodes, path.edges.len()), (vec![id("x").as_str()], 0));
}

#[test]
fn max_hops_bounds_both_path_queries() {
    let graph = worked_example(false);
    for (hops, reaches) in [(2, false), (3, true)] {
        let options = PathOptions::new().max_hops(hops);
        assert_eq!(
            reachable(&graph, &id("@srv"), &id("x"), &options),
            Ok(reaches)
        );
        let witness =
            reachable_without(&graph, &id("@srv"), &id("x"), NONE, &options).expect("a query");
        assert_eq!(witness.map(|path| path.edges.len()), reaches.then_some(3));
    }
}

#[test]
fn kinds_narrow_every_query() {
    use EdgeKind::{Invoke, Message, Read};
    let graph = graph(
        &["@srv", "a", "b"],
        &[
            ("@srv", "a", Invoke),
            ("a", "b", Message),
            ("@srv", "b", Read),
        ],
    );
    let invoke_message = PathOptions::new().kinds([Invoke, Message]);
    assert_eq!(
        reachable(
            &graph,
            &id("@srv"),
            &id("b"),
            &PathOptions::new().kinds([Invoke])
        ),
        Ok(false)
    );
    let witness = reachable_without(&graph, &id("@srv"), &id("b"), NONE, &invoke_message)
        .expect("a query")
        .expect("a witness");
    assert_eq!(witness.nodes.len(), 3);
    let dominance = DominatorOptions::new().kinds([Invoke, Message]);
    assert_eq!(
        mandatory_pass(&graph, &id("b"), &dominance),
        Ok(set(&["@srv", "a"]))
    );
    assert_eq!(
        mandatory_pass(&graph, &id("b"), &DominatorOptions::new()),
        Ok(set(&["@srv"]))
    );
}

#[test]
fn the_witness_takes_the_first_admitted_edge_in_graph_order() {
    use EdgeKind::{Invoke, Message, Read, Supervise};
    let graph = graph(
        &["a", "b"],
        &[
            ("a", "b", Read),
            ("a", "b", Supervise),
            ("a", "b", Invoke),
            ("a", "b", Message),
        ],
    );
    let first = |options: &PathOptions| {
        let path = reachable_without(&graph, &id("a"), &id("b"), NONE, options)
            .expect("a query")
            .expect("a path");
        path.edges[0].kind
    };
    assert_eq!(first(&PathOptions::new()), Read);
    assert_eq!(first(&PathOptions::new().kinds([Message, Invoke])), Invoke);
}

#[test]
fn the_witness_is_the_first_shortest_path_a_breadth_first_search_meets() {
    use EdgeKind::Invoke;
    // Two shortest paths a→c→d and a→b→d; a's edge to c comes first in graph order.
    let graph = graph(
        &["a", "b", "c", "d"],
        &[
            ("a", "c", Invoke),
            ("a", "b", Invoke),
            ("b", "d", Invoke),
            ("c", "d", Invoke),
        ],
    );
    let path = reachable_without(&graph, &id("a"), &id("d"), NONE, &PathOptions::new())
        .expect("a query")
        .expect("a path");
    assert_eq!(path.nodes, [id("a"), id("c"), id("d")]);
}

#[test]
fn a_gate_at_either_end_leaves_no_witness() {
    let graph = worked_example(false);
    let options = PathOptions::new();
    assert_eq!(
        reachable_without(&graph, &id("@srv"), &id("x"), [id("x")], &options),
        Ok(None)
    );
    assert_eq!(
        reachable_without(&graph, &id("@srv"), &id("x"), [id("@srv")], &options),
        Ok(None)
    );
    assert_eq!(
        reachable_without(&graph, &id("x"), &id("x"), [id("x")], &options),
        Ok(None)
    );
}

#[test]
fn unknown_nodes_are_named_with_their_role() {
    let graph = worked_example(false);
    let unknown = |role, id: &str| {
        Some(ReachError::UnknownNode {
            role,
            id: id.into(),
        })
    };
    assert_eq!(
        reachable(&graph, "nope", &id("x"), &PathOptions::new()).err(),
        unknown("from", "nope")
    );
    assert_eq!(
        reachable(&graph, &id("x"), "nope", &PathOptions::new()).err(),
        unknown("to", "nope")
    );
    assert_eq!(
        reachable_without(&graph, &id("a"), &id("x"), ["nope"], &PathOptions::new()).err(),
        unknown("gate", "nope")
    );
    assert_eq!(
        dominates(&graph, "nope", &id("x"), &DominatorOptions::new()).err(),
        unknown("gate", "nope")
    );
    assert_eq!(
        dominates(&graph, &id("g"), "nope", &DominatorOptions::new()).err(),
        unknown("target", "nope")
    );
    assert_eq!(
        mandatory_pass(&graph, "nope", &DominatorOptions::new()).err(),
        unknown("target", "nope")
    );
    let entries = DominatorOptions::new().entries([id("a"), "nope".into()]);
    assert_eq!(
        mandatory_pass(&graph, &id("x"), &entries).err(),
        unknown("entry", "nope")
    );
    let message = reachable(&graph, "nope", &id("x"), &PathOptions::new())
        .unwrap_err()
        .to_string();
    assert_eq!(message, "from \"nope\" is not a node of the graph");
}

#[test]
fn empty_list_options_are_refused_by_name() {
    let graph = worked_example(false);
    let empty = |option| Some(ReachError::EmptyOption { option });
    let no_kinds = PathOptions::new().kinds([]);
    assert_eq!(
        reachable(&graph, &id("a"), &id("x"), &no_kinds).err(),
        empty("kinds")
    );
    assert_eq!(
        reachable_without(&graph, &id("a"), &id("x"), NONE, &no_kinds).err(),
        empty("kinds")
    );
    let no_entries = DominatorOptions::new().entries(Vec::<String>::new());
    assert_eq!(
        mandatory_pass(&graph, &id("x"), &no_entries).err(),
        empty("entries")
    );
    assert_eq!(
        dominates(&graph, &id("g"), &id("x"), &no_entries).err(),
        empty("entries")
    );
    let no_kinds = DominatorOptions::new().kinds([]);
    assert_eq!(
        dominates(&graph, &id("g"), &id("x"), &no_kinds).err(),
        empty("kinds")
    );
}

#[test]
fn a_graph_over_max_edges_is_refused() {
    let graph = worked_example(false);
    assert_eq!(PathOptions::new().edge_cap(), 1_000_000);
    assert_eq!(DominatorOptions::new().edge_cap(), DEFAULT_MAX_EDGES);
    assert_eq!(
        reachable(&graph, &id("a"), &id("x"), &PathOptions::new().max_edges(5)),
        Ok(true)
    );
    let over = Err(ReachError::TooManyEdges {
        edges: 5,
        max_edges: 4,
    });
    assert_eq!(
        reachable(&graph, &id("a"), &id("x"), &PathOptions::new().max_edges(4)),
        over.clone()
    );
    assert_eq!(
        reachable_without(
            &graph,
            &id("a"),
            &id("x"),
            NONE,
            &PathOptions::new().max_edges(4)
        ),
        over.clone().map(|_| None)
    );
    let capped = DominatorOptions::new().max_edges(4);
    assert_eq!(dominates(&graph, &id("g"), &id("x"), &capped), over.clone());
    assert_eq!(
        mandatory_pass(&graph, &id("x"), &capped),
        over.map(|_| BTreeSet::new())
    );
}

#[test]
fn dominance_needs_entries_and_a_reachable_target() {
    use EdgeKind::Invoke;
    let serverless = graph(&["a", "b"], &[("a", "b", Invoke)]);
    assert_eq!(
        mandatory_pass(&serverless, &id("b"), &DominatorOptions::new()),
        Err(ReachError::NoEntries)
    );
    let from_a = DominatorOptions::new().entries([id("a")]);
    assert_eq!(
        mandatory_pass(&serverless, &id("b"), &from_a),
        Ok(set(&["a"]))
    );
    assert_eq!(
        mandatory_pass(&serverless, &id("a"), &from_a),
        Ok(BTreeSet::new())
    );
    let from_b = DominatorOptions::new().entries([id("b")]);
    assert_eq!(
        mandatory_pass(&serverless, &id("a"), &from_b),
        Err(ReachError::Unreachable { id: id("a") })
    );
    assert_eq!(
        dominates(&serverless, &id("b"), &id("a"), &from_b),
        Ok(false)
    );
    assert_eq!(
        dominates(&serverless, &id("b"), &id("b"), &from_b),
        Ok(true)
    );
}

#[test]
fn several_servers_are_joined_under_one_root_no_answer_names() {
    use EdgeKind::Invoke;
    let graph = graph(
        &["@one", "@two", "a", "b"],
        &[
            ("@one", "a", Invoke),
            ("@two", "a", Invoke),
            ("a", "b", Invoke),
        ],
    );
    assert_eq!(
        mandatory_pass(&graph, &id("b"), &DominatorOptions::new()),
        Ok(set(&["a"]))
    );
    assert_eq!(
        dominates(&graph, &id("@one"), &id("b"), &DominatorOptions::new()),
        Ok(false)
    );
}

#[test]
fn signs_are_never_read() {
    let plain = worked_example(true);
    let (nodes, mut edges) = plain.clone().into_parts();
    for (edge, sign) in edges.iter_mut().zip(
        [Sign::Deny, Sign::Hold, Sign::Ungoverned, Sign::Allow]
            .iter()
            .cycle(),
    ) {
        edge.sign = *sign;
    }
    let signed = Graph::new(nodes, edges).expect("a valid graph");
    for graph in [&plain, &signed] {
        let witness =
            reachable_without(graph, &id("@srv"), &id("x"), [id("g")], &PathOptions::new())
                .expect("a query")
                .map(|path| {
                    path.nodes
                        .into_iter()
                        .map(str::to_owned)
                        .collect::<Vec<_>>()
                });
        assert_eq!(witness, Some(vec![id("@srv"), id("a"), id("x")]));
        assert_eq!(
            mandatory_pass(graph, &id("x"), &DominatorOptions::new()),
            Ok(set(&["@srv"]))
        );
    }
}

// ---- properties against brute force ----

/// A small random graph: node 0 (and 1, when `servers` is 2) are servers, the rest tools;
/// edges are `(from, to, kind)` indices, repeats dropped.
#[derive(Debug, Clone)]
struct Small {
    graph: Graph,
    ids: Vec<String>,
}

fn small() -> impl Strategy<Value = Small> {
    (2..9usize, 1..3usize)
        .prop_flat_map(|(n, servers)| {
            let edge = (0..n, 0..n, 0..EdgeKind::ALL.len());
            (
                Just(n),
                Just(servers),
                prop::collection::vec(edge, 0..3 * n),
            )
        })
        .prop_map(|(n, servers, raw)| {
            let ids: Vec<String> = (0..n)
                .map(|i| {
                    if i < servers {
                        id(&format!("@s{i}"))
                    } else {
                        id(&format!("t{i}"))
                    }
                })
                .collect();
            let names: Vec<String> = (0..n)
                .map(|i| {
                    if i < servers {
                        format!("@s{i}")
                    } else {
                        format!("t{i}")
                    }
                })
                .collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let mut seen = BTreeSet::new();
            let edges: Vec<(&str, &str, EdgeKind)> = raw
                .into_iter()
                .filter(|key| seen.insert(*key))
                .map(|(from, to, kind)| (names[from], names[to], EdgeKind::ALL[kind]))
                .collect();
            Small {
                graph: graph(&names, &edges),
                ids,
            }
        })
}

fn kinds() -> impl Strategy<Value = Option<Vec<EdgeKind>>> {
    prop::option::of(prop::collection::btree_set(
        0..EdgeKind::ALL.len(),
        1..=EdgeKind::ALL.len(),
    ))
    .prop_map(|set| set.map(|set| set.into_iter().map(|i| EdgeKind::ALL[i]).collect()))
}

fn admits(kinds: &Option<Vec<EdgeKind>>, kind: EdgeKind) -> bool {
    kinds.as_ref().is_none_or(|kinds| kinds.contains(&kind))
}

/// Hop distances from `starts`, never entering `blocked`, by the plainest BFS there is.
fn distances(
    graph: &Graph,
    starts: &[&str],
    blocked: &[&str],
    kinds: &Option<Vec<EdgeKind>>,
) -> Vec<(String, usize)> {
    let mut found: Vec<(String, usize)> = Vec::new();
    let mut queue: VecDeque<(String, usize)> = VecDeque::new();
    for start in starts {
        if !blocked.contains(start) && !found.iter().any(|(id, _)| id == start) {
            found.push(((*start).to_owned(), 0));
            queue.push_back(((*start).to_owned(), 0));
        }
    }
    while let Some((at, hops)) = queue.pop_front() {
        for edge in graph.edges() {
            if edge.from == at
                && admits(kinds, edge.kind)
                && !blocked.contains(&edge.to.as_str())
                && !found.iter().any(|(id, _)| *id == edge.to)
            {
                found.push((edge.to.clone(), hops + 1));
                queue.push_back((edge.to.clone(), hops + 1));
            }
        }
    }
    found
}

fn distance(
    graph: &Graph,
    from: &str,
    to: &str,
    blocked: &[&str],
    kinds: &Option<Vec<EdgeKind>>,
) -> Option<usize> {
    distances(graph, &[from], blocked, kinds)
        .into_iter()
        .find(|(id, _)| id == to)
        .map(|(_, hops)| hops)
}

fn path_options(kinds: &Option<Vec<EdgeKind>>, max_hops: Option<usize>) -> PathOptions {
    let mut options = PathOptions::new();
    if let Some(kinds) = kinds {
        options = options.kinds(kinds.iter().copied());
    }
    if let Some(hops) = max_hops {
        options = options.max_hops(hops);
    }
    options
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_witness_is_a_real_gate_free_shortest_path(
        small in small(),
        picks in (0..9usize, 0..9usize, prop::collection::vec(0..9usize, 0..3)),
        kinds in kinds(),
        max_hops in prop::option::of(0..6usize),
    ) {
        let Small { graph, ids } = small;
        let pick = |i: usize| ids[i % ids.len()].as_str();
        let (from, to) = (pick(picks.0), pick(picks.1));
        let gates: Vec<&str> = picks.2.iter().map(|&i| pick(i)).collect();
        let options = path_options(&kinds, max_hops);

        let expected = if gates.contains(&from) || gates.contains(&to) {
            None
        } else {
            distance(&graph, from, to, &gates, &kinds).filter(|&hops| max_hops.is_none_or(|max| hops <= max))
        };
        let witness = reachable_without(&graph, from, to, &gates, &options).expect("a query");
        prop_assert_eq!(witness.as_ref().map(|path| path.edges.len()), expected);
        prop_assert_eq!(
            reachable(&graph, from, to, &options).expect("a query"),
            distance(&graph, from, to, &[], &kinds).is_some_and(|hops| max_hops.is_none_or(|max| hops <= max))
        );

        if let Some(path) = witness {
            prop_assert_eq!(path.nodes.len(), path.edges.len() + 1);
            prop_assert_eq!((path.nodes[0], *path.nodes.last().expect("a node")), (from, to));
            for (step, edge) in path.edges.iter().enumerate() {
                prop_assert_eq!((edge.from.as_str(), edge.to.as_str()), (path.nodes[step], path.nodes[step + 1]));
                // The graph's own edge, and the first admitted one between those nodes.
                let first = graph
                    .edges()
                    .iter()
                    .find(|e| e.from == edge.from && e.to == edge.to && admits(&kinds, e.kind));
                prop_assert!(first.is_some_and(|first| std::ptr::eq(first, *edge)));
            }
            for node in &path.nodes {
                prop_assert!(!gates.contains(node));
            }
        }
    }

    #[test]
    fn mandatory_pass_agrees_with_removal(
        small in small(),
        target in 0..9usize,
        entries in prop::option::of(prop::collection::vec(0..9usize, 1..3)),
        kinds in kinds(),
    ) {
        let Small { graph, ids } = small;
        let target = ids[target % ids.len()].as_str();
        let entries: Option<Vec<&str>> = entries.map(|picks| picks.iter().map(|&i| ids[i % ids.len()].as_str()).collect());
        let starts: Vec<&str> = match &entries {
            Some(entries) => entries.clone(),
            None => graph.nodes().iter().filter(|n| n.id().ends_with("/server")).map(|n| n.id()).collect(),
        };
        let mut options = DominatorOptions::new();
        if let Some(entries) = &entries {
            options = options.entries(entries.iter().copied());
        }
        if let Some(kinds) = &kinds {
            options = options.kinds(kinds.iter().copied());
        }
        let reaches = |blocked: &[&str]| distances(&graph, &starts, blocked, &kinds).iter().any(|(id, _)| id == target);

        let answer = mandatory_pass(&graph, target, &options);
        if !reaches(&[]) {
            prop_assert_eq!(answer, Err(ReachError::Unreachable { id: target.to_owned() }));
            for gate in &ids {
                prop_assert_eq!(dominates(&graph, gate, target, &options), Ok(false));
            }
            return Ok(());
        }
        let brute: BTreeSet<String> = ids
            .iter()
            .filter(|gate| gate.as_str() != target && !reaches(&[gate.as_str()]))
            .cloned()
            .collect();
        prop_assert_eq!(answer, Ok(brute.clone()));
        for gate in &ids {
            let expected = gate == target || brute.contains(gate);
            prop_assert_eq!(dominates(&graph, gate, target, &options), Ok(expected));
        }
    }
}
