//! Canonical bytes: the published vectors byte for byte, and rules 1–9 of the canonical page.

use beam_mcp_connectome::canonical::{
    MAX_DEPTH, MAX_LABEL_DEPTH, encode, hash, hash_hex, parse, sidecar, verify, verify_digest,
};
use beam_mcp_connectome::{
    Algorithm, Canonical, CanonicalError, Edge, EdgeKind, Graph, GraphError, Identity, Labels,
    Level, Node, NodeKind, Provenance, Sign, encode_value, encode_value_with_floats,
};
use serde_json::{Value, json};

const V3_SHA256: &str = r#"{"schema_version":3,"algorithm":"sha256","nodes":[{"id":"s/server","kind":"server","labels":{},"level":"server"},{"id":"s/tool/t","kind":"tool","labels":{"mode":"read_only"},"level":"server"}],"edges":[{"from":"s/server","kind":"invoke","provenance":"declared","sign":"unset","to":"s/tool/t"}]}"#;
const V2: &str = r#"{"schema_version":2,"nodes":[{"id":"s/server","kind":"server","labels":{},"level":"server"},{"id":"s/tool/t","kind":"tool","labels":{"mode":"read_only"},"level":"server"}],"edges":[{"from":"s/server","kind":"invoke","provenance":"declared","sign":"unset","to":"s/tool/t"}]}"#;
const DIFF_RECORD: &str = r#"{"algorithm":"sha256","classes":{"changed_sign":[{"declared_sign":"allow","from":"srv/tool/c","kind":"invoke","observed_sign":"deny","to":"srv/tool/a"}],"declared_and_observed":[{"from":"srv/tool/a","kind":"invoke","to":"srv/tool/b"},{"from":"srv/tool/b","kind":"invoke","to":"srv/tool/a"}],"declared_never_observed":[{"from":"srv/tool/a","kind":"invoke","to":"srv/tool/c"}],"observed_but_undeclared":[{"from":"srv/tool/b","kind":"invoke","to":"srv/tool/c"}]},"coverage":{"declared_and_observed":3,"declared_edges":4,"declared_endpoint_covered":4,"declared_nodes":4,"declared_sign_only":1,"nodes_in_both":4,"observed_edges":4,"observed_endpoint_declared":4,"observed_nodes":4,"observed_sign_only":0},"schema_version":3,"window":{"ended_at":"2026-09-14T01:00:00Z","started_at":"2026-09-14T00:00:00Z"}}"#;

const SHA256_HEX: &str = "a401cd47f0f0410d17248538eb8a3ef00018f6a31bf6fb6a7b9b0ba3377f570e";
const SHA384_HEX: &str = "f5b9b2f4fe21a4bfe88721d804f4f82d167f73f7dd59b1a64ae0196f4cf78f05a6b9a3efa6d02e7362469796dbba53dd";
const SHA512_HEX: &str = "26cacb025eeaeabb0c441a293882ab81ec2436b80559618fd700dc494f9a5d2e2c6d46cee69a68cbdc84746aa9d64a4a11da027df7b0bc733ba1091031ee2e78";
const V2_HEX: &str = "de6db70dc7316885176c4a7493ee07c46e33ec3bb90951dc54908a74e81dc90d";
const DIFF_HEX: &str = "a8a4206fb65febc83ed099be8b7408b6938795efc8a92f7cac1f53781c4312e1";

fn labels(pairs: &[(&str, Value)]) -> Labels {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

fn server(name: &str) -> Node {
    Node::new(
        Identity::Server {
            server: name.into(),
        },
        Labels::new(),
    )
    .unwrap()
}

fn tool(name: &str, labels: Labels) -> Node {
    Node::new(
        Identity::Tool {
            server: "s".into(),
            name: name.into(),
        },
        labels,
    )
    .unwrap()
}

/// The worked example, its nodes given in reverse order so the sort is exercised.
fn worked_example() -> Graph {
    Graph::new(
        vec![
            tool("t", labels(&[("mode", json!("read_only"))])),
            server("s"),
        ],
        vec![Edge::new(
            "s/server",
            "s/tool/t",
            EdgeKind::Invoke,
            Provenance::Declared,
        )],
    )
    .unwrap()
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap()
}

#[test]
fn worked_example_reproduces_all_three_v3_digests() {
    let graph = worked_example();
    for (algorithm, digest) in [
        (Algorithm::Sha256, SHA256_HEX),
        (Algorithm::Sha384, SHA384_HEX),
        (Algorithm::Sha512, SHA512_HEX),
    ] {
        let bytes = encode(&graph, algorithm).unwrap();
        let expected = V3_SHA256.replace("sha256", algorithm.as_str());
        assert_eq!(text(&bytes), expected);
        assert_eq!(bytes.len(), 294);
        assert_eq!(hash_hex(&bytes, algorithm), digest);
        assert_eq!(hash(&bytes, algorithm).len(), digest.len() / 2);

        let canonical = Canonical::of(&graph, algorithm).unwrap();
        assert_eq!(canonical.bytes(), bytes.as_slice());
        assert_eq!(canonical.digest_hex(), digest);
        assert_eq!(canonical.algorithm(), algorithm);

        let verified = verify_digest(&bytes, digest).unwrap();
        assert_eq!(verified.schema_version, 3);
        assert_eq!(verified.algorithm, algorithm);
    }
}

#[test]
fn default_algorithm_is_sha256() {
    assert_eq!(Algorithm::default(), Algorithm::Sha256);
    let canonical = Canonical::of(&worked_example(), Algorithm::default()).unwrap();
    assert_eq!(canonical.digest_hex(), SHA256_HEX);
}

#[test]
fn v2_vector_verifies_under_sha256() {
    assert_eq!(V2.len(), 273);
    let verified = verify(V2.as_bytes()).unwrap();
    assert_eq!(verified.schema_version, 2);
    assert_eq!(verified.algorithm, Algorithm::Sha256);
    assert_eq!(verified.digest_hex, V2_HEX);
}

#[test]
fn diff_record_reproduces_its_digest_through_encode_value() {
    // Members deliberately out of order: the rules sort them.
    let record = json!({
        "window": {"started_at": "2026-09-14T00:00:00Z", "ended_at": "2026-09-14T01:00:00Z"},
        "schema_version": 3,
        "coverage": {
            "observed_sign_only": 0, "observed_nodes": 4, "observed_endpoint_declared": 4,
            "observed_edges": 4, "nodes_in_both": 4, "declared_sign_only": 1,
            "declared_nodes": 4, "declared_endpoint_covered": 4, "declared_edges": 4,
            "declared_and_observed": 3
        },
        "classes": {
            "observed_but_undeclared": [{"to": "srv/tool/c", "kind": "invoke", "from": "srv/tool/b"}],
            "declared_never_observed": [{"to": "srv/tool/c", "kind": "invoke", "from": "srv/tool/a"}],
            "declared_and_observed": [
                {"to": "srv/tool/b", "kind": "invoke", "from": "srv/tool/a"},
                {"to": "srv/tool/a", "kind": "invoke", "from": "srv/tool/b"}
            ],
            "changed_sign": [{
                "to": "srv/tool/a", "observed_sign": "deny", "kind": "invoke",
                "from": "srv/tool/c", "declared_sign": "allow"
            }]
        },
        "algorithm": "sha256"
    });
    let bytes = encode_value(&record).unwrap();
    assert_eq!(text(&bytes), DIFF_RECORD);
    assert_eq!(bytes.len(), 800);
    assert_eq!(hash_hex(&bytes, Algorithm::Sha256), DIFF_HEX);
    let canonical = Canonical::of_value(&record, Algorithm::Sha256).unwrap();
    assert_eq!(canonical.digest_hex(), DIFF_HEX);
    // Parsing the published bytes and writing them again gives them back.
    let parsed: Value = serde_json::from_str(DIFF_RECORD).unwrap();
    assert_eq!(encode_value(&parsed).unwrap(), DIFF_RECORD.as_bytes());
}

#[test]
fn ids_colliding_after_nfc_are_refused_never_merged() {
    let graph = Graph::new(
        vec![
            tool("e\u{301}", Labels::new()),
            tool("\u{e9}", Labels::new()),
        ],
        vec![],
    )
    .unwrap();
    let refused = encode(&graph, Algorithm::Sha256).unwrap_err();
    assert_eq!(
        refused,
        CanonicalError::NodeIdCollision {
            first: "s/tool/e\u{301}".into(),
            second: "s/tool/\u{e9}".into(),
            normalised: "s/tool/\u{e9}".into(),
        }
    );
    assert!(refused.to_string().contains("never merged"));
    assert!(matches!(
        sidecar(&graph),
        Err(CanonicalError::NodeIdCollision { .. })
    ));
}

#[test]
fn every_string_is_nfc_not_nfkc() {
    let decomposed = tool(
        "e\u{301}",
        labels(&[("cafe\u{301}", json!(["\u{fb01}", "A\u{30a}"]))]),
    );
    let graph = Graph::new(
        vec![server("s"), decomposed],
        vec![Edge::new(
            "s/server",
            "s/tool/e\u{301}",
            EdgeKind::Invoke,
            Provenance::Declared,
        )],
    )
    .unwrap();
    let bytes = encode(&graph, Algorithm::Sha256).unwrap();
    assert_eq!(
        text(&bytes),
        "{\"schema_version\":3,\"algorithm\":\"sha256\",\"nodes\":[\
         {\"id\":\"s/server\",\"kind\":\"server\",\"labels\":{},\"level\":\"server\"},\
         {\"id\":\"s/tool/\u{e9}\",\"kind\":\"tool\",\"labels\":{\"caf\u{e9}\":[\"\u{fb01}\",\"\u{c5}\"]},\"level\":\"server\"}],\
         \"edges\":[{\"from\":\"s/server\",\"kind\":\"invoke\",\"provenance\":\"declared\",\"sign\":\"unset\",\"to\":\"s/tool/\u{e9}\"}]}"
    );
    // What was written verifies, and reads back NFC.
    verify(&bytes).unwrap();
    let read = Graph::from_canonical_json(&bytes).unwrap();
    assert_eq!(read.nodes()[1].id(), "s/tool/\u{e9}");
}

#[test]
fn label_keys_colliding_after_nfc_are_refused_with_their_path() {
    let top = tool("t", labels(&[("e\u{301}", json!(1)), ("\u{e9}", json!(2))]));
    let graph = Graph::new(vec![top], vec![]).unwrap();
    assert_eq!(
        encode(&graph, Algorithm::Sha256),
        Err(CanonicalError::LabelKeyCollision {
            node: "s/tool/t".into(),
            path: String::new(),
            first: "e\u{301}".into(),
            second: "\u{e9}".into(),
        })
    );
    let nested = tool(
        "t",
        labels(&[("x/y", json!([{"\u{c5}": 1, "A\u{30a}": 2}]))]),
    );
    let graph = Graph::new(vec![nested], vec![]).unwrap();
    match encode(&graph, Algorithm::Sha256) {
        Err(CanonicalError::LabelKeyCollision { node, path, .. }) => {
            assert_eq!((node.as_str(), path.as_str()), ("s/tool/t", "/x~1y/0"));
        }
        other => panic!("expected a label key collision, got {other:?}"),
    }
    assert_eq!(
        encode_value(&json!({"a": {"e\u{301}": 1, "\u{e9}": 2}})),
        Err(CanonicalError::KeyCollision {
            path: "/a".into(),
            first: "e\u{301}".into(),
            second: "\u{e9}".into(),
            normalised: "\u{e9}".into(),
        })
    );
}

#[test]
fn object_keys_sort_by_utf16_code_units() {
    let value = json!({"\u{ff01}": 1, "\u{1f600}": 2, "\u{e9}": 3, "z": 4, "": 5});
    assert_eq!(
        text(&encode_value(&value).unwrap()),
        "{\"\":5,\"z\":4,\"\u{e9}\":3,\"\u{1f600}\":2,\"\u{ff01}\":1}"
    );
    // Labels follow the same rule...
    let node = tool(
        "t",
        labels(&[("\u{ff01}", json!(1)), ("\u{1f600}", json!(2))]),
    );
    let bytes = encode(&Graph::new(vec![node], vec![]).unwrap(), Algorithm::Sha256).unwrap();
    assert!(text(&bytes).contains("\"labels\":{\"\u{1f600}\":2,\"\u{ff01}\":1}"));
}

#[test]
fn nodes_sort_by_id_bytes_not_utf16() {
    // ...but node ids sort by bytes (code points): U+FF01 before U+1F600.
    let graph = Graph::new(
        vec![
            tool("\u{1f600}", Labels::new()),
            tool("\u{ff01}", Labels::new()),
        ],
        vec![],
    )
    .unwrap();
    let bytes = encode(&graph, Algorithm::Sha256).unwrap();
    let text = text(&bytes);
    assert!(text.find("\u{ff01}").unwrap() < text.find("\u{1f600}").unwrap());
}

#[test]
fn edges_sort_by_from_to_kind_provenance_as_bytes() {
    let nodes = vec![
        server("s"),
        tool("a", Labels::new()),
        tool("b", Labels::new()),
    ];
    let edge = |to: &str, kind, provenance| Edge::new("s/server", to, kind, provenance);
    let edges = vec![
        edge("s/tool/b", EdgeKind::Invoke, Provenance::Declared),
        edge("s/tool/a", EdgeKind::Supervise, Provenance::Declared),
        edge("s/tool/a", EdgeKind::Read, Provenance::Declared),
        edge("s/tool/a", EdgeKind::Message, Provenance::Observed),
        edge("s/tool/a", EdgeKind::Message, Provenance::Declared),
        edge("s/tool/a", EdgeKind::Invoke, Provenance::Observed),
    ];
    let graph = Graph::new(nodes, edges).unwrap();
    let bytes = encode(&graph, Algorithm::Sha256).unwrap();
    let parsed: Value = serde_json::from_slice(&bytes).unwrap();
    let order: Vec<String> = parsed["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            format!(
                "{} {} {}",
                e["to"].as_str().unwrap(),
                e["kind"].as_str().unwrap(),
                e["provenance"].as_str().unwrap()
            )
        })
        .collect();
    // "message" < "read" as bytes, though Read is declared before Message.
    assert_eq!(
        order,
        [
            "s/tool/a invoke observed",
            "s/tool/a message declared",
            "s/tool/a message observed",
            "s/tool/a read declared",
            "s/tool/a supervise declared",
            "s/tool/b invoke declared",
        ]
    );
}

#[test]
fn edges_carry_no_weight_and_the_sign_as_given() {
    let mut allowed = Edge::new(
        "s/server",
        "s/tool/t",
        EdgeKind::Invoke,
        Provenance::Observed,
    )
    .with_weight(41);
    allowed.sign = Sign::Ungoverned;
    let graph = Graph::new(vec![server("s"), tool("t", Labels::new())], vec![allowed]).unwrap();
    let bytes = encode(&graph, Algorithm::Sha256).unwrap();
    assert!(text(&bytes).ends_with(
        r#""edges":[{"from":"s/server","kind":"invoke","provenance":"observed","sign":"ungoverned","to":"s/tool/t"}]}"#
    ));
    assert!(!text(&bytes).contains("41"));
}

#[test]
fn every_c0_control_is_escaped_lowercase() {
    let named = [
        (0x08, "\\b"),
        (0x09, "\\t"),
        (0x0a, "\\n"),
        (0x0c, "\\f"),
        (0x0d, "\\r"),
    ];
    for code in 0u32..0x20 {
        let c = char::from_u32(code).unwrap();
        let expected = match named.iter().find(|(n, _)| *n == code) {
            Some((_, escape)) => format!("\"{escape}\""),
            None => format!("\"\\u{code:04x}\""),
        };
        assert_eq!(
            text(&encode_value(&Value::String(c.to_string())).unwrap()),
            expected,
            "U+{code:04X}"
        );
    }
    assert_eq!(
        text(&encode_value(&json!("\u{1b}")).unwrap()),
        "\"\\u001b\""
    );
}

#[test]
fn everything_else_is_literal_utf8() {
    let value = json!("\"\\/\u{7f}\u{80}\u{2028}\u{2029}\u{fffe}\u{feff}\u{1f600}");
    assert_eq!(
        encode_value(&value).unwrap(),
        "\"\\\"\\\\/\u{7f}\u{80}\u{2028}\u{2029}\u{fffe}\u{feff}\u{1f600}\"".as_bytes()
    );
    // Keys are escaped the same way.
    assert_eq!(
        encode_value(&json!({"a\nb/": null})).unwrap(),
        b"{\"a\\nb/\":null}"
    );
}

#[test]
fn integers_are_plain_decimal_and_literals_are_literals() {
    let value = json!([u64::MAX, i64::MIN, 0, -1, true, false, null, [], {}]);
    assert_eq!(
        encode_value(&value).unwrap(),
        b"[18446744073709551615,-9223372036854775808,0,-1,true,false,null,[],{}]"
    );
}

#[test]
fn floats_are_refused_naming_where_they_are() {
    assert_eq!(
        encode_value(&json!(1.0)),
        Err(CanonicalError::Float {
            path: String::new(),
            value: "1.0".into()
        })
    );
    assert_eq!(
        encode_value(&json!({"a/b": [{"~": 0.25}]})),
        Err(CanonicalError::Float {
            path: "/a~1b/0/~0".into(),
            value: "0.25".into()
        })
    );
    // A node refuses a float label, naming node, label and the whole value.
    let refused = Node::new(
        Identity::Tool {
            server: "s".into(),
            name: "t".into(),
        },
        labels(&[("limits", json!({"rate": 0.5, "n": 2}))]),
    );
    assert_eq!(
        refused,
        Err(GraphError::FloatLabel {
            node: "s/tool/t".into(),
            label: "limits".into(),
            value: r#"{"n":2,"rate":0.5}"#.into(),
        })
    );
}

#[test]
fn floats_in_the_catalog_export_follow_rfc_8785() {
    let schema = json!({
        "type": "number", "minimum": 1.0, "maximum": 1e21, "multipleOf": 0.1,
        "exclusiveMinimum": -0.0, "tiny": 5e-324, "third": 0.3333333333333333,
        "small": 1e-7, "n": 12, "big": u64::MAX
    });
    assert_eq!(
        text(&encode_value_with_floats(&schema).unwrap()),
        r#"{"big":18446744073709551615,"exclusiveMinimum":0,"maximum":1e+21,"minimum":1,"multipleOf":0.1,"n":12,"small":1e-7,"third":0.3333333333333333,"tiny":5e-324,"type":"number"}"#
    );
    // The same value under the labels-object rules is refused.
    assert!(matches!(
        encode_value(&schema),
        Err(CanonicalError::Float { .. })
    ));
}

#[test]
fn nesting_is_bounded() {
    let nest = |depth: usize| {
        let mut value = json!(0);
        for _ in 0..depth {
            value = json!([value]);
        }
        value
    };
    assert!(encode_value(&nest(MAX_DEPTH)).is_ok());
    match encode_value(&nest(MAX_DEPTH + 1)) {
        Err(CanonicalError::TooDeep { path, max }) => {
            assert_eq!(max, MAX_DEPTH);
            assert_eq!(path, "/0".repeat(MAX_DEPTH));
        }
        other => panic!("expected TooDeep, got {other:?}"),
    }
}

/// A value nesting `depth` arrays and objects, alternately, around `0`.
fn nested(depth: usize) -> Value {
    (0..depth).fold(json!(0), |inner, level| {
        if level % 2 == 0 {
            json!([inner])
        } else {
            json!({ "k": inner })
        }
    })
}

#[test]
fn every_label_a_node_holds_reads_back_from_its_envelope() {
    let deepest = tool("t", labels(&[("deep", nested(MAX_LABEL_DEPTH))]));
    let graph = Graph::new(vec![server("s"), deepest], vec![]).unwrap();
    for algorithm in Algorithm::ALL {
        let bytes = encode(&graph, *algorithm).unwrap();
        let (read, named) = parse(&bytes).unwrap();
        assert_eq!((&read, named), (&graph, *algorithm));
        assert_eq!(encode(&read, named).unwrap(), bytes);
        assert_eq!(verify(&bytes).unwrap().algorithm, *algorithm);
    }

    // One level deeper would make an envelope no reader takes: refused when the node is made.
    let refused = Node::new(
        Identity::Tool {
            server: "s".into(),
            name: "t".into(),
        },
        labels(&[("fine", json!(1)), ("deep", nested(MAX_LABEL_DEPTH + 1))]),
    );
    assert_eq!(
        refused,
        Err(GraphError::LabelTooDeep {
            node: "s/tool/t".into(),
            label: "deep".into(),
            depth: MAX_LABEL_DEPTH + 1,
            max: MAX_LABEL_DEPTH,
        })
    );
    let message = refused.unwrap_err().to_string();
    assert!(
        message.contains("\"s/tool/t\"") && message.contains("\"deep\"") && message.contains("124"),
        "{message}"
    );
    let from_parts = Node::from_parts(
        "s/tool/t".into(),
        NodeKind::Tool,
        Level::Server,
        labels(&[("deep", json!([nested(MAX_LABEL_DEPTH)]))]),
    );
    assert!(matches!(
        from_parts,
        Err(GraphError::LabelTooDeep { depth, .. }) if depth == MAX_LABEL_DEPTH + 1
    ));
    // Far deeper, built in code: measured without recursion, and said before a float in it.
    let far = (0..1_000).fold(json!(0.5), |inner, _| json!([inner]));
    assert!(matches!(
        Node::new(
            Identity::Server { server: "s".into() },
            labels(&[("far", far)])
        ),
        Err(GraphError::LabelTooDeep { depth: 1_000, .. })
    ));
    // The label bound sits exactly where the reader's is: the same envelope one level deeper
    // (written by hand, since no node holds it) is refused as JSON.
    let bytes = String::from_utf8(encode(&graph, Algorithm::Sha256).unwrap()).unwrap();
    let end = bytes.rfind("},\"level\"").unwrap();
    let deeper = format!("{}]{}", &bytes[..end], &bytes[end..]).replace("\"deep\":", "\"deep\":[");
    match verify(deeper.as_bytes()) {
        Err(CanonicalError::NotJson { message }) => {
            assert!(message.contains("recursion limit"), "{message}");
        }
        other => panic!("expected the reader's depth refusal, got {other:?}"),
    }
}

#[test]
fn sidecar_holds_only_weighted_edges_sorted_as_the_envelope() {
    let nodes = vec![
        server("s"),
        tool("a", Labels::new()),
        tool("b", Labels::new()),
    ];
    let edges = vec![
        Edge::new(
            "s/tool/b",
            "s/tool/a",
            EdgeKind::Invoke,
            Provenance::Observed,
        )
        .with_weight(2),
        Edge::new(
            "s/server",
            "s/tool/b",
            EdgeKind::Invoke,
            Provenance::Declared,
        ),
        Edge::new("s/server", "s/tool/a", EdgeKind::Read, Provenance::Observed).with_weight(0),
        Edge::new(
            "s/server",
            "s/tool/a",
            EdgeKind::Message,
            Provenance::Observed,
        )
        .with_weight(u64::MAX),
    ];
    let graph = Graph::new(nodes, edges).unwrap();
    assert_eq!(
        text(&sidecar(&graph).unwrap()),
        concat!(
            r#"{"schema_version":3,"weights":["#,
            r#"{"from":"s/server","kind":"message","provenance":"observed","to":"s/tool/a","weight":18446744073709551615},"#,
            r#"{"from":"s/server","kind":"read","provenance":"observed","to":"s/tool/a","weight":0},"#,
            r#"{"from":"s/tool/b","kind":"invoke","provenance":"observed","to":"s/tool/a","weight":2}]}"#
        )
    );
    // The weights are not in the envelope, so they do not move the digest.
    let (nodes, edges) = graph.clone().into_parts();
    let unweighted: Vec<Edge> = edges
        .into_iter()
        .map(|mut e| {
            e.weight = None;
            e
        })
        .collect();
    let bare = Graph::new(nodes, unweighted).unwrap();
    assert_eq!(
        encode(&graph, Algorithm::Sha256).unwrap(),
        encode(&bare, Algorithm::Sha256).unwrap()
    );
    assert_eq!(
        sidecar(&bare).unwrap(),
        br#"{"schema_version":3,"weights":[]}"#
    );
}

#[test]
fn the_empty_graph() {
    let graph = Graph::new(vec![], vec![]).unwrap();
    assert_eq!(
        encode(&graph, Algorithm::Sha384).unwrap(),
        br#"{"schema_version":3,"algorithm":"sha384","nodes":[],"edges":[]}"#
    );
}
