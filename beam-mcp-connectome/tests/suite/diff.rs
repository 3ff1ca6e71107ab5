//! The diff: the published record vector, the class and coverage rules, refusals in order, and
//! the partition property.

use std::collections::BTreeSet;

use beam_mcp_connectome::{
    Algorithm, CanonicalError, Classes, Coverage, DiffError, Edge, EdgeKind, Graph, Identity, Node,
    Provenance, Side, Sign, diff,
};
use proptest::prelude::*;
use serde_json::{Value, json};

const VECTOR: &str = r#"{"algorithm":"sha256","classes":{"changed_sign":[{"declared_sign":"allow","from":"srv/tool/c","kind":"invoke","observed_sign":"deny","to":"srv/tool/a"}],"declared_and_observed":[{"from":"srv/tool/a","kind":"invoke","to":"srv/tool/b"},{"from":"srv/tool/b","kind":"invoke","to":"srv/tool/a"}],"declared_never_observed":[{"from":"srv/tool/a","kind":"invoke","to":"srv/tool/c"}],"observed_but_undeclared":[{"from":"srv/tool/b","kind":"invoke","to":"srv/tool/c"}]},"coverage":{"declared_and_observed":3,"declared_edges":4,"declared_endpoint_covered":4,"declared_nodes":4,"declared_sign_only":1,"nodes_in_both":4,"observed_edges":4,"observed_endpoint_declared":4,"observed_nodes":4,"observed_sign_only":0},"schema_version":3,"window":{"ended_at":"2026-09-14T01:00:00Z","started_at":"2026-09-14T00:00:00Z"}}"#;

fn window() -> Value {
    json!({"started_at": "2026-09-14T00:00:00Z", "ended_at": "2026-09-14T01:00:00Z"})
}

fn tool(name: &str) -> String {
    Identity::Tool {
        server: "srv".into(),
        name: name.into(),
    }
    .id()
}

/// The server node and a tool node per name.
fn nodes(tools: &[&str]) -> Vec<Node> {
    let server = Identity::Server {
        server: "srv".into(),
    };
    std::iter::once(server)
        .chain(tools.iter().map(|name| Identity::Tool {
            server: "srv".into(),
            name: (*name).into(),
        }))
        .map(|identity| Node::new(identity, Default::default()).expect("a valid node"))
        .collect()
}

fn edge(from: &str, to: &str, kind: EdgeKind, provenance: Provenance, sign: Sign) -> Edge {
    let mut edge = Edge::new(tool(from), tool(to), kind, provenance);
    edge.sign = sign; // a consumer's verdict, written as a consumer would
    edge
}

fn graph(tools: &[&str], edges: Vec<Edge>) -> Graph {
    Graph::new(nodes(tools), edges).expect("a valid graph")
}

/// The graphs of the published vector: server `srv` (no edges) and tools a, b, c on both sides,
/// which is why `declared_nodes`, `observed_nodes` and `nodes_in_both` are 4.
fn vector_graphs() -> (Graph, Graph) {
    use EdgeKind::Invoke;
    use Provenance::{Declared, Observed};
    let declared = graph(
        &["a", "b", "c"],
        vec![
            edge("a", "b", Invoke, Declared, Sign::Unset),
            edge("a", "c", Invoke, Declared, Sign::Unset),
            edge("c", "a", Invoke, Declared, Sign::Allow),
            edge("b", "a", Invoke, Declared, Sign::Allow),
        ],
    );
    let observed = graph(
        &["a", "b", "c"],
        vec![
            edge("a", "b", Invoke, Observed, Sign::Unset),
            edge("b", "c", Invoke, Observed, Sign::Unset),
            edge("c", "a", Invoke, Observed, Sign::Deny),
            edge("b", "a", Invoke, Observed, Sign::Unset),
        ],
    );
    (declared, observed)
}

#[test]
fn the_published_record_is_reproduced_byte_for_byte() {
    let (declared, observed) = vector_graphs();
    let diff = diff(&declared, &observed, &window()).expect("a diff");
    let bytes = diff.to_canonical_bytes(Algorithm::Sha256).expect("bytes");
    assert_eq!(String::from_utf8_lossy(&bytes), VECTOR);
    assert_eq!(bytes.len(), 800);
    let record = diff.canonical(Algorithm::Sha256).expect("bytes");
    assert_eq!(record.bytes(), VECTOR.as_bytes());
    assert_eq!(
        record.digest_hex(),
        "a8a4206fb65febc83ed099be8b7408b6938795efc8a92f7cac1f53781c4312e1"
    );
}

#[test]
fn the_record_names_the_algorithm_it_is_hashed_with() {
    let (declared, observed) = vector_graphs();
    let diff = diff(&declared, &observed, &window()).expect("a diff");
    for algorithm in Algorithm::ALL {
        let record = diff.canonical(*algorithm).expect("bytes");
        let prefix = format!(r#"{{"algorithm":"{algorithm}","classes""#);
        assert!(record.bytes().starts_with(prefix.as_bytes()));
        assert_eq!(
            record.bytes()[prefix.len()..],
            VECTOR.as_bytes()[prefix.len()..]
        );
    }
}

#[test]
fn unset_against_a_sign_is_no_change_and_counts_on_the_signed_side() {
    use Provenance::{Declared, Observed};
    let pairs = [
        (Sign::Unset, Sign::Allow),
        (Sign::Hold, Sign::Unset),
        (Sign::Deny, Sign::Deny),
        (Sign::Ungoverned, Sign::Deny),
        (Sign::Unset, Sign::Unset),
    ];
    // One label per pair: `a` or `b` to `b`, with a kind of its own.
    let side = |provenance, pick: fn(&(Sign, Sign)) -> Sign| {
        let edges = pairs
            .iter()
            .enumerate()
            .map(|(i, pair)| {
                edge(
                    ["a", "b"][i / 4],
                    "b",
                    EdgeKind::ALL[i % 4],
                    provenance,
                    pick(pair),
                )
            })
            .collect();
        graph(&["a", "b"], edges)
    };
    let declared = side(Declared, |pair| pair.0);
    let observed = side(Observed, |pair| pair.1);
    let diff = diff(&declared, &observed, &window()).expect("a diff");
    let classes = diff.classes();
    assert_eq!(classes.changed_sign.len(), 1);
    let change = &classes.changed_sign[0];
    assert_eq!(
        (change.declared_sign, change.observed_sign),
        (Sign::Ungoverned, Sign::Deny)
    );
    assert_eq!(classes.declared_and_observed.len(), 4);
    let coverage = diff.coverage();
    assert_eq!(
        (coverage.declared_sign_only, coverage.observed_sign_only),
        (1, 1)
    );
    assert_eq!(coverage.declared_and_observed, 5);
}

#[test]
fn labels_compare_after_nfc() {
    let composed = "\u{e9}";
    let decomposed = "e\u{301}";
    let declared = graph(
        &[composed, "b"],
        vec![edge(
            composed,
            "b",
            EdgeKind::Invoke,
            Provenance::Declared,
            Sign::Unset,
        )],
    );
    let observed = graph(
        &[decomposed, "b"],
        vec![edge(
            decomposed,
            "b",
            EdgeKind::Invoke,
            Provenance::Observed,
            Sign::Unset,
        )],
    );
    let diff = diff(&declared, &observed, &window()).expect("a diff");
    assert_eq!(diff.coverage().nodes_in_both, 3);
    assert_eq!(diff.coverage().declared_and_observed, 1);
    assert_eq!(diff.classes().declared_and_observed[0].from, tool(composed));
}

#[test]
fn class_arrays_sort_by_utf16_code_units_then_the_kind_word() {
    // U+1F600 is one code point above U+FF01 but its first UTF-16 unit (a surrogate) is below.
    let names = ["\u{FF01}", "\u{1F600}", "z"];
    let edges = vec![
        edge(
            "\u{FF01}",
            "z",
            EdgeKind::Invoke,
            Provenance::Declared,
            Sign::Unset,
        ),
        edge(
            "\u{1F600}",
            "z",
            EdgeKind::Supervise,
            Provenance::Declared,
            Sign::Unset,
        ),
        edge(
            "\u{1F600}",
            "z",
            EdgeKind::Read,
            Provenance::Declared,
            Sign::Unset,
        ),
        edge(
            "\u{1F600}",
            "z",
            EdgeKind::Message,
            Provenance::Declared,
            Sign::Unset,
        ),
        edge(
            "z",
            "z",
            EdgeKind::Invoke,
            Provenance::Declared,
            Sign::Unset,
        ),
    ];
    let declared = graph(&names, edges);
    let observed = graph(&names, vec![]);
    let diff = diff(&declared, &observed, &window()).expect("a diff");
    let order: Vec<(String, &str)> = diff
        .classes()
        .declared_never_observed
        .iter()
        .map(|label| (label.from.clone(), label.kind.as_str()))
        .collect();
    assert_eq!(
        order,
        [
            (tool("z"), "invoke"),
            (tool("\u{1F600}"), "message"),
            (tool("\u{1F600}"), "read"),
            (tool("\u{1F600}"), "supervise"),
            (tool("\u{FF01}"), "invoke"),
        ]
    );
}

#[test]
fn endpoint_coverage_counts_ends_among_the_other_sides_nodes() {
    use Provenance::{Declared, Observed};
    let declared = graph(
        &["a", "b", "c"],
        vec![
            edge("a", "b", EdgeKind::Invoke, Declared, Sign::Unset),
            edge("a", "c", EdgeKind::Invoke, Declared, Sign::Unset),
        ],
    );
    let observed = graph(
        &["a", "b", "d"],
        vec![
            edge("a", "d", EdgeKind::Invoke, Observed, Sign::Unset),
            edge("b", "a", EdgeKind::Invoke, Observed, Sign::Unset),
        ],
    );
    let diff = diff(&declared, &observed, &window()).expect("a diff");
    let mut expected = Coverage::default();
    expected.declared_edges = 2;
    expected.observed_edges = 2;
    expected.declared_endpoint_covered = 1;
    expected.observed_endpoint_declared = 1;
    expected.declared_nodes = 4;
    expected.observed_nodes = 4;
    expected.nodes_in_both = 3;
    assert_eq!(*diff.coverage(), expected);
}

#[test]
fn refusals_come_in_order_and_name_the_side() {
    use Provenance::{Declared, Observed};
    let good_declared = graph(
        &["a"],
        vec![edge("a", "a", EdgeKind::Invoke, Declared, Sign::Unset)],
    );
    let good_observed = graph(
        &["a"],
        vec![edge("a", "a", EdgeKind::Invoke, Observed, Sign::Unset)],
    );
    let colliding = |provenance| {
        graph(
            &["\u{e9}", "e\u{301}"],
            vec![edge(
                "\u{e9}",
                "e\u{301}",
                EdgeKind::Invoke,
                provenance,
                Sign::Unset,
            )],
        )
    };

    // The declared graph is checked first, whatever else is wrong.
    let refused = diff(&good_observed, &good_declared, &Value::Null);
    assert_eq!(
        refused,
        Err(DiffError::WrongProvenance {
            side: Side::Declared,
            from: tool("a"),
            to: tool("a"),
            kind: EdgeKind::Invoke,
            found: Observed,
        })
    );
    let refused = diff(&good_declared, &good_declared, &Value::Null);
    assert!(matches!(
        refused,
        Err(DiffError::WrongProvenance {
            side: Side::Observed,
            found: Declared,
            ..
        })
    ));
    let refused = diff(&colliding(Declared), &colliding(Declared), &Value::Null);
    assert!(matches!(
        refused,
        Err(DiffError::Uncanonical {
            side: Side::Declared,
            source: CanonicalError::NodeIdCollision { .. }
        })
    ));
    let refused = diff(&good_declared, &colliding(Observed), &Value::Null);
    assert!(matches!(
        refused,
        Err(DiffError::Uncanonical {
            side: Side::Observed,
            ..
        })
    ));
    // Within one side, colliding ids come before a wrong provenance...
    let refused = diff(&colliding(Observed), &good_observed, &Value::Null);
    assert!(
        matches!(
            refused,
            Err(DiffError::Uncanonical {
                side: Side::Declared,
                ..
            })
        ),
        "{refused:?}"
    );
    // ...and the declared side is checked completely before the observed one: its wrong
    // provenance comes before the observed side's colliding ids.
    let refused = diff(&good_observed, &colliding(Observed), &Value::Null);
    assert!(
        matches!(
            refused,
            Err(DiffError::WrongProvenance {
                side: Side::Declared,
                ..
            })
        ),
        "{refused:?}"
    );

    assert_eq!(
        diff(&good_declared, &good_observed, &Value::Null),
        Err(DiffError::MissingWindow)
    );
    assert_eq!(
        diff(&good_declared, &good_observed, &json!(["2026"])),
        Err(DiffError::WindowNotObject { found: "an array" })
    );
    let refused = diff(&good_declared, &good_observed, &json!({"seconds": 0.5}));
    assert!(matches!(
        refused,
        Err(DiffError::Window {
            source: CanonicalError::Float { .. }
        })
    ));
    let refused = diff(
        &good_declared,
        &good_observed,
        &json!({"\u{e9}": 1, "e\u{301}": 2}),
    );
    assert!(matches!(
        refused,
        Err(DiffError::Window {
            source: CanonicalError::KeyCollision { .. }
        })
    ));
}

#[test]
fn refusals_name_the_culprit_in_their_message() {
    let observed_edge = graph(
        &["a"],
        vec![edge(
            "a",
            "a",
            EdgeKind::Read,
            Provenance::Observed,
            Sign::Unset,
        )],
    );
    let message = diff(&observed_edge, &observed_edge, &window())
        .unwrap_err()
        .to_string();
    assert!(
        message.starts_with("declared graph: edge \"srv/tool/a\" -> \"srv/tool/a\" (read)"),
        "{message}"
    );
}

#[test]
fn the_window_is_carried_verbatim() {
    let (declared, observed) = vector_graphs();
    let window = json!({"host": {"zone": "eu", "n": [1, 2]}, "started_at": "x"});
    let diff = diff(&declared, &observed, &window).expect("a diff");
    assert_eq!(diff.window(), &window);
    let bytes = diff.to_canonical_bytes(Algorithm::Sha256).expect("bytes");
    assert!(bytes.ends_with(br#""window":{"host":{"n":[1,2],"zone":"eu"},"started_at":"x"}}"#));
}

// ---- the partition property ----

/// Node names, some pairs equal after NFC (so the sides spell them differently).
const SPELLINGS: [(&str, &str); 6] = [
    ("a", "a"),
    ("b", "b"),
    ("\u{e9}", "e\u{301}"),
    ("\u{1F600}", "\u{1F600}"),
    ("\u{FF01}", "\u{FF01}"),
    ("\u{212B}", "\u{C5}"), // Angstrom sign and A-ring: one after NFC
];
const SIGNS: [Sign; 5] = [
    Sign::Allow,
    Sign::Deny,
    Sign::Hold,
    Sign::Ungoverned,
    Sign::Unset,
];

type RawEdges = Vec<(usize, usize, usize, usize)>;

fn side_graph(spelling: usize, present: &[bool], raw: &RawEdges, provenance: Provenance) -> Graph {
    let name = |i: usize| {
        let pair = SPELLINGS[i];
        if spelling == 0 { pair.0 } else { pair.1 }
    };
    let names: Vec<&str> = (0..SPELLINGS.len())
        .filter(|&i| present[i])
        .map(name)
        .collect();
    let mut seen = BTreeSet::new();
    let edges = raw
        .iter()
        .filter(|(from, to, _, _)| present[*from] && present[*to])
        .filter(|(from, to, kind, _)| seen.insert((*from, *to, *kind)))
        .map(|&(from, to, kind, sign)| {
            edge(
                name(from),
                name(to),
                EdgeKind::ALL[kind],
                provenance,
                SIGNS[sign],
            )
        })
        .collect();
    graph(&names, edges)
}

fn raw_edges() -> impl Strategy<Value = RawEdges> {
    prop::collection::vec(
        (
            0..SPELLINGS.len(),
            0..SPELLINGS.len(),
            0..4usize,
            0..SIGNS.len(),
        ),
        0..24,
    )
}

fn labels_of(graph: &Graph) -> BTreeSet<(String, String, EdgeKind)> {
    use unicode_normalization::UnicodeNormalization;
    graph
        .edges()
        .iter()
        .map(|e| (e.from.nfc().collect(), e.to.nfc().collect(), e.kind))
        .collect()
}

fn class_labels(classes: &Classes) -> [Vec<(String, String, EdgeKind)>; 4] {
    let plain = |list: &Vec<beam_mcp_connectome::EdgeLabel>| {
        list.iter()
            .map(|l| (l.from.clone(), l.to.clone(), l.kind))
            .collect::<Vec<_>>()
    };
    [
        plain(&classes.declared_and_observed),
        plain(&classes.declared_never_observed),
        plain(&classes.observed_but_undeclared),
        classes
            .changed_sign
            .iter()
            .map(|c| (c.from.clone(), c.to.clone(), c.kind))
            .collect(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn the_four_classes_partition_the_union_of_labels(
        declared_present in prop::collection::vec(any::<bool>(), SPELLINGS.len()),
        observed_present in prop::collection::vec(any::<bool>(), SPELLINGS.len()),
        declared_raw in raw_edges(),
        observed_raw in raw_edges(),
        spellings in (0..2usize, 0..2usize),
    ) {
        let declared = side_graph(spellings.0, &declared_present, &declared_raw, Provenance::Declared);
        let observed = side_graph(spellings.1, &observed_present, &observed_raw, Provenance::Observed);
        let diff = diff(&declared, &observed, &window()).expect("a diff");
        let (declared_labels, observed_labels) = (labels_of(&declared), labels_of(&observed));

        let classes = class_labels(diff.classes());
        let mut all = BTreeSet::new();
        for class in &classes {
            for label in class {
                prop_assert!(all.insert(label.clone()), "{label:?} is in two classes");
            }
        }
        let union: BTreeSet<_> = declared_labels.union(&observed_labels).cloned().collect();
        prop_assert_eq!(&all, &union);

        let [both, never, undeclared, changed] = &classes;
        for label in both.iter().chain(changed) {
            prop_assert!(declared_labels.contains(label) && observed_labels.contains(label));
        }
        for label in never {
            prop_assert!(declared_labels.contains(label) && !observed_labels.contains(label));
        }
        for label in undeclared {
            prop_assert!(!declared_labels.contains(label) && observed_labels.contains(label));
        }
        for change in &diff.classes().changed_sign {
            prop_assert!(change.declared_sign != Sign::Unset && change.observed_sign != Sign::Unset);
            prop_assert_ne!(change.declared_sign, change.observed_sign);
        }

        let coverage = diff.coverage();
        prop_assert_eq!(coverage.declared_edges as usize, declared_labels.len());
        prop_assert_eq!(coverage.observed_edges as usize, observed_labels.len());
        prop_assert_eq!(coverage.declared_and_observed as usize, both.len() + changed.len());
        prop_assert_eq!(coverage.declared_nodes as usize, declared.nodes().len());
        prop_assert_eq!(coverage.observed_nodes as usize, observed.nodes().len());
        let in_both = (0..SPELLINGS.len()).filter(|&i| declared_present[i] && observed_present[i]).count();
        prop_assert_eq!(coverage.nodes_in_both as usize, in_both + 1);

        // Every class list is in record order, and the bytes always exist.
        for class in &classes {
            let keys: Vec<_> = class
                .iter()
                .map(|(f, t, k)| (f.encode_utf16().collect::<Vec<_>>(), t.encode_utf16().collect::<Vec<_>>(), k.as_str()))
                .collect();
            prop_assert!(keys.windows(2).all(|w| w[0] < w[1]));
        }
        prop_assert!(diff.to_canonical_bytes(Algorithm::Sha256).is_ok());
    }
}

#[test]
fn a_window_the_record_could_not_read_back_is_refused() {
    use beam_mcp_connectome::{Algorithm, DiffError, canonical};
    let server = Identity::Server {
        server: "srv".into(),
    };
    let node = Node::new(server, Default::default()).unwrap();
    let declared = Graph::new(vec![node], vec![]).unwrap();
    let observed = declared.clone();
    let nest = |levels: usize| {
        let mut value = serde_json::json!({});
        for _ in 1..levels {
            value = serde_json::json!({ "w": value });
        }
        value
    };
    // The deepest window allowed: the record reads back and verifies as a value.
    let record = diff(&declared, &observed, &nest(126)).unwrap();
    let bytes = record.to_canonical_bytes(Algorithm::Sha256).unwrap();
    let read: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(canonical::encode_value(&read).unwrap(), bytes);
    assert!(matches!(
        diff(&declared, &observed, &nest(127)),
        Err(DiffError::WindowTooDeep {
            depth: 127,
            max: 126
        })
    ));
}
