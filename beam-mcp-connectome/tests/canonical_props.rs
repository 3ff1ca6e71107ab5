//! Properties of canonical bytes over generated graphs and values.

use beam_mcp_connectome::canonical::{encode, parse, verify};
use beam_mcp_connectome::{
    Algorithm, Edge, EdgeKind, Graph, Identity, Labels, Node, Provenance, encode_value,
};
use proptest::prelude::*;
use serde_json::Value;

/// Strings drawn from a small alphabet rich in troublemakers: controls, quotes, combining
/// marks, precomposed letters, astral and fullwidth characters, `/` and `%`.
fn text() -> impl Strategy<Value = String> {
    let alphabet = prop::sample::select(vec![
        'a',
        'e',
        'A',
        '\u{301}',
        '\u{30a}',
        '\u{e9}',
        '\u{c5}',
        '"',
        '\\',
        '/',
        '%',
        '\u{0}',
        '\u{1f}',
        '\n',
        '\u{7f}',
        '\u{2028}',
        '\u{ff01}',
        '\u{1f600}',
        '\u{fb01}',
    ]);
    prop::collection::vec(alphabet, 0..6).prop_map(|chars| chars.into_iter().collect())
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(text(), inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn encoded_values_are_fixed_points(value in value()) {
        // Colliding keys are refused; anything written reads back to the same bytes.
        if let Ok(bytes) = encode_value(&value) {
            let read: Value = serde_json::from_slice(&bytes).unwrap();
            prop_assert_eq!(encode_value(&read).unwrap(), bytes);
        }
    }

    #[test]
    fn encoded_graphs_verify_and_parse_back(
        names in prop::collection::btree_set(text(), 0..5),
        labels in prop::collection::btree_map(text(), value(), 0..3),
        algorithm in prop::sample::select(Algorithm::ALL.to_vec()),
        observed in any::<bool>(),
    ) {
        let server = Node::new(Identity::Server { server: "s".into() }, Labels::new()).unwrap();
        let mut nodes = vec![server];
        let mut edges = Vec::new();
        for name in &names {
            let tool = Node::new(
                Identity::Tool { server: "s".into(), name: name.clone() },
                labels.clone(),
            ).unwrap();
            let provenance = if observed { Provenance::Observed } else { Provenance::Declared };
            edges.push(Edge::new("s/server", tool.id(), EdgeKind::Invoke, provenance));
            nodes.push(tool);
        }
        let graph = Graph::new(nodes, edges).unwrap();
        // Ids or label keys may collide after NFC; then nothing is written.
        if let Ok(bytes) = encode(&graph, algorithm) {
            let verified = verify(&bytes).unwrap();
            prop_assert_eq!(verified.algorithm, algorithm);
            let (read, named) = parse(&bytes).unwrap();
            prop_assert_eq!(named, algorithm);
            prop_assert_eq!(encode(&read, algorithm).unwrap(), bytes);
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let _ = verify(&bytes);
        let _ = parse(&bytes);
    }
}
