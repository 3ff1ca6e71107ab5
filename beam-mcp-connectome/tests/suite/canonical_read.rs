//! Reading canonical bytes back: `parse` (version 3 into a graph) and the verifier (versions
//! 1, 2 and 3), on well-formed and hostile input.

use beam_mcp_connectome::canonical::{encode, hash_hex, parse, verify, verify_digest};
use beam_mcp_connectome::{Algorithm, CanonicalError, EdgeKind, Graph, GraphError, Sign};

const V3: &str = r#"{"schema_version":3,"algorithm":"sha256","nodes":[{"id":"s/server","kind":"server","labels":{},"level":"server"},{"id":"s/tool/t","kind":"tool","labels":{"mode":"read_only"},"level":"server"}],"edges":[{"from":"s/server","kind":"invoke","provenance":"declared","sign":"unset","to":"s/tool/t"}]}"#;
const V2: &str = r#"{"schema_version":2,"nodes":[{"id":"s/server","kind":"server","labels":{},"level":"server"},{"id":"s/tool/t","kind":"tool","labels":{"mode":"read_only"},"level":"server"}],"edges":[{"from":"s/server","kind":"invoke","provenance":"declared","sign":"unset","to":"s/tool/t"}]}"#;

fn graph_error(result: Result<impl std::fmt::Debug, CanonicalError>) -> GraphError {
    match result {
        Err(CanonicalError::Graph(e)) => e,
        other => panic!("expected a graph error, got {other:?}"),
    }
}

fn unknown(object: &'static str, key: &str, path: &str) -> GraphError {
    GraphError::UnknownKey {
        object,
        key: key.into(),
        path: path.into(),
    }
}

fn missing(object: &'static str, key: &'static str, path: &str) -> GraphError {
    GraphError::MissingKey {
        object,
        key,
        path: path.into(),
    }
}

fn bad(what: &'static str, word: &str, path: &str) -> GraphError {
    GraphError::BadWord {
        what,
        word: word.into(),
        path: path.into(),
    }
}

fn wrong_type(object: &'static str, key: &str, expected: &'static str, path: &str) -> GraphError {
    GraphError::WrongType {
        object,
        key: key.into(),
        expected,
        path: path.into(),
    }
}

#[test]
fn parse_reads_the_vector_back_and_writes_it_again() {
    for algorithm in Algorithm::ALL {
        let bytes = V3.replace("sha256", algorithm.as_str());
        let (graph, named) = parse(bytes.as_bytes()).unwrap();
        assert_eq!(named, *algorithm);
        assert_eq!(graph.nodes().len(), 2);
        assert_eq!(
            graph.node("s/tool/t").unwrap().labels()["mode"],
            "read_only"
        );
        assert_eq!(graph.edges()[0].kind, EdgeKind::Invoke);
        assert_eq!(graph.edges()[0].weight, None);
        assert_eq!(encode(&graph, named).unwrap(), bytes.as_bytes());
        assert_eq!(graph.to_canonical_json(named).unwrap(), bytes.as_bytes());
    }
    assert_eq!(
        Graph::from_canonical_json(V3.as_bytes()).unwrap().edges()[0].sign,
        Sign::Unset
    );
}

#[test]
fn unknown_members_are_refused_by_name() {
    let cases = [
        (
            V3.replace("\"edges\"", "\"edgez\""),
            unknown("envelope", "edgez", "/edgez"),
        ),
        (
            V3.replace("\"level\":\"server\"}]", "\"level\":\"server\",\"x\":1}]"),
            unknown("node", "x", "/nodes/1/x"),
        ),
        (
            V3.replace("\"sign\"", "\"verdict\""),
            unknown("edge", "verdict", "/edges/0/verdict"),
        ),
        (
            V3.replace("\"labels\":{}", "\"labelz\":{}"),
            unknown("node", "labelz", "/nodes/0/labelz"),
        ),
    ];
    for (bytes, expected) in cases {
        assert_eq!(graph_error(parse(bytes.as_bytes())), expected, "{bytes}");
        assert_eq!(graph_error(verify(bytes.as_bytes())), expected, "{bytes}");
    }
}

#[test]
fn missing_members_are_refused_by_name() {
    let cases = [
        (V3.replace(",\"edges\":[{\"from\":\"s/server\",\"kind\":\"invoke\",\"provenance\":\"declared\",\"sign\":\"unset\",\"to\":\"s/tool/t\"}]", ""), missing("envelope", "edges", "/edges")),
        (V3.replace("{\"id\":\"s/server\",", "{"), missing("node", "id", "/nodes/0/id")),
        (V3.replace(",\"to\":\"s/tool/t\"", ""), missing("edge", "to", "/edges/0/to")),
        (V3.replace("\"provenance\":\"declared\",", ""), missing("edge", "provenance", "/edges/0/provenance")),
        (V3.replace("\"schema_version\":3,", ""), missing("envelope", "schema_version", "/schema_version")),
    ];
    for (bytes, expected) in cases {
        assert_eq!(graph_error(parse(bytes.as_bytes())), expected, "{bytes}");
        assert_eq!(graph_error(verify(bytes.as_bytes())), expected, "{bytes}");
    }
}

#[test]
fn words_outside_their_vocabulary_are_refused() {
    let cases = [
        (
            V3.replace("\"kind\":\"tool\"", "\"kind\":\"Tool\""),
            bad("node kind", "Tool", "/nodes/1/kind"),
        ),
        (
            V3.replace("\"level\":\"server\"}]", "\"level\":\"app\"}]"),
            bad("level", "app", "/nodes/1/level"),
        ),
        (
            V3.replace("\"kind\":\"invoke\"", "\"kind\":\"call\""),
            bad("edge kind", "call", "/edges/0/kind"),
        ),
        (
            V3.replace("\"declared\"", "\"inferred\""),
            bad("provenance", "inferred", "/edges/0/provenance"),
        ),
        (
            V3.replace("\"sign\":\"unset\"", "\"sign\":\"unknown\""),
            bad("sign", "unknown", "/edges/0/sign"),
        ),
        (
            V3.replace("\"sha256\"", "\"md5\""),
            bad("algorithm", "md5", "/algorithm"),
        ),
        (
            V3.replace("\"sha256\"", "\"SHA256\""),
            bad("algorithm", "SHA256", "/algorithm"),
        ),
    ];
    for (bytes, expected) in cases {
        assert_eq!(graph_error(parse(bytes.as_bytes())), expected, "{bytes}");
        assert_eq!(graph_error(verify(bytes.as_bytes())), expected, "{bytes}");
    }
}

#[test]
fn parse_builds_only_version_3() {
    assert_eq!(
        graph_error(parse(V2.as_bytes())),
        GraphError::WrongSchemaVersion { found: "2".into() }
    );
    assert_eq!(
        graph_error(parse(V3.replace(":3,", ":4,").as_bytes())),
        GraphError::WrongSchemaVersion { found: "4".into() }
    );
    assert_eq!(
        graph_error(parse(V3.replace(":3,", ":\"3\",").as_bytes())),
        wrong_type(
            "envelope",
            "schema_version",
            "a non-negative integer",
            "/schema_version"
        )
    );
}

#[test]
fn the_graph_inside_is_checked() {
    let dangling = V3.replace("\"to\":\"s/tool/t\"", "\"to\":\"s/tool/u\"");
    assert!(matches!(
        graph_error(verify(dangling.as_bytes())),
        GraphError::DanglingEdge { missing, .. } if missing == "s/tool/u"
    ));
    let misplaced = V3.replace("\"kind\":\"tool\"", "\"kind\":\"module\"");
    assert!(matches!(
        graph_error(parse(misplaced.as_bytes())),
        GraphError::LevelMismatch { .. }
    ));
    let float = V3.replace("\"read_only\"", "1.5");
    assert_eq!(
        graph_error(verify(float.as_bytes())),
        GraphError::FloatLabel {
            node: "s/tool/t".into(),
            label: "mode".into(),
            value: "1.5".into()
        }
    );
    // An integer beyond 64 bits is a float to serde_json, and refused as one.
    let huge = V3.replace("\"read_only\"", "18446744073709551616");
    assert!(matches!(
        graph_error(verify(huge.as_bytes())),
        GraphError::FloatLabel { .. }
    ));
    let edge = r#"{"from":"s/server","kind":"invoke","provenance":"declared","sign":"unset","to":"s/tool/t"}"#;
    let twice = V3.replace(edge, &format!("{edge},{edge}"));
    assert!(matches!(
        graph_error(verify(twice.as_bytes())),
        GraphError::DuplicateEdge { .. }
    ));
    let labels_array = V3.replace("\"labels\":{}", "\"labels\":[]");
    assert_eq!(
        graph_error(parse(labels_array.as_bytes())),
        wrong_type("node", "labels", "an object", "/nodes/0/labels")
    );
}

#[test]
fn bytes_must_be_exactly_canonical() {
    let cases = [
        // Insignificant whitespace.
        (V3.replacen(',', ", ", 1), 20),
        // Trailing newline.
        (format!("{V3}\n"), V3.len()),
        // Top-level members out of their fixed order.
        (
            V3.replace(
                "\"schema_version\":3,\"algorithm\":\"sha256\"",
                "\"algorithm\":\"sha256\",\"schema_version\":3",
            ),
            2,
        ),
        // Node members out of order.
        (
            V3.replace(
                "{\"id\":\"s/server\",\"kind\":\"server\"",
                "{\"kind\":\"server\",\"id\":\"s/server\"",
            ),
            52,
        ),
        // An escaped slash.
        (V3.replace("s/server", "s\\/server"), 58),
        // A decomposed string (not NFC).
        // ("re\u{301}ad" is written "r\u{e9}ad": the bytes part at the "e").
        (
            V3.replace("read_only", "re\u{301}ad"),
            V3.find("read_only").unwrap() + 1,
        ),
    ];
    for (bytes, offset) in cases {
        assert_eq!(
            parse(bytes.as_bytes()).map(|_| ()),
            Err(CanonicalError::NotCanonical { offset }),
            "{bytes}"
        );
        assert_eq!(
            verify(bytes.as_bytes()).map(|_| ()),
            Err(CanonicalError::NotCanonical { offset }),
            "{bytes}"
        );
    }
    // Nodes out of order.
    let server = r#"{"id":"s/server","kind":"server","labels":{},"level":"server"}"#;
    let tool = r#"{"id":"s/tool/t","kind":"tool","labels":{"mode":"read_only"},"level":"server"}"#;
    let swapped = V3.replace(&format!("{server},{tool}"), &format!("{tool},{server}"));
    assert!(matches!(
        verify(swapped.as_bytes()),
        Err(CanonicalError::NotCanonical { .. })
    ));
    // A repeated JSON member (serde_json keeps the last one; the bytes then differ).
    let repeated = V3.replace(
        "\"schema_version\":3,",
        "\"schema_version\":3,\"schema_version\":3,",
    );
    assert!(matches!(
        verify(repeated.as_bytes()),
        Err(CanonicalError::NotCanonical { .. })
    ));
    // An uppercase escape of a C0 control.
    let upper = V3.replace("read_only", "\\u001B");
    let lower = V3.replace("read_only", "\\u001b");
    assert!(matches!(
        verify(upper.as_bytes()),
        Err(CanonicalError::NotCanonical { .. })
    ));
    verify(lower.as_bytes()).unwrap();
}

#[test]
fn verifier_reads_versions_by_rule_9() {
    // Version 2: no algorithm member, SHA-256.
    let verified = verify(V2.as_bytes()).unwrap();
    assert_eq!(
        (verified.schema_version, verified.algorithm),
        (2, Algorithm::Sha256)
    );
    // An algorithm member below 3 is malformed...
    let v2_named = V2.replace(":2,", ":2,\"algorithm\":\"sha256\",");
    assert_eq!(
        graph_error(verify(v2_named.as_bytes())),
        unknown("envelope", "algorithm", "/algorithm")
    );
    // ...and so is its absence at 3.
    let v3_unnamed = V3.replace("\"algorithm\":\"sha256\",", "");
    assert_eq!(
        graph_error(verify(v3_unnamed.as_bytes())),
        missing("envelope", "algorithm", "/algorithm")
    );
    // Versions other than 1, 2, 3.
    for version in ["0", "4", "18446744073709551615"] {
        let bytes = V2.replace(":2,", &format!(":{version},"));
        assert_eq!(
            verify(bytes.as_bytes()),
            Err(CanonicalError::UnknownSchemaVersion {
                found: version.into()
            })
        );
    }
    assert_eq!(
        graph_error(verify(V2.replace(":2,", ":-1,").as_bytes())),
        wrong_type(
            "envelope",
            "schema_version",
            "a non-negative integer",
            "/schema_version"
        )
    );
}

#[test]
fn verifier_keeps_each_version_sign_vocabulary() {
    // Version 1: `unknown` is a sign, `unset` and `ungoverned` are not.
    let v1 = V2.replace(":2,", ":1,").replace("\"unset\"", "\"unknown\"");
    let verified = verify(v1.as_bytes()).unwrap();
    assert_eq!(verified.schema_version, 1);
    assert_eq!(
        verified.digest_hex,
        hash_hex(v1.as_bytes(), Algorithm::Sha256)
    );
    for sign in ["unset", "ungoverned"] {
        let bytes = V2
            .replace(":2,", ":1,")
            .replace("\"unset\"", &format!("\"{sign}\""));
        assert_eq!(
            graph_error(verify(bytes.as_bytes())),
            bad("version-1 sign", sign, "/edges/0/sign")
        );
    }
    for sign in ["allow", "deny", "hold"] {
        let bytes = V2
            .replace(":2,", ":1,")
            .replace("\"unset\"", &format!("\"{sign}\""));
        verify(bytes.as_bytes()).unwrap();
    }
    // Version 2 and 3: `unknown` is gone, `ungoverned` arrived.
    for base in [V2, V3] {
        let unknown_sign = base.replace("\"unset\"", "\"unknown\"");
        assert_eq!(
            graph_error(verify(unknown_sign.as_bytes())),
            bad("sign", "unknown", "/edges/0/sign")
        );
        let ungoverned = base.replace("\"unset\"", "\"ungoverned\"");
        verify(ungoverned.as_bytes()).unwrap();
    }
}

#[test]
fn expected_digests_are_checked() {
    let digest = "de6db70dc7316885176c4a7493ee07c46e33ec3bb90951dc54908a74e81dc90d";
    verify_digest(V2.as_bytes(), digest).unwrap();
    verify_digest(V2.as_bytes(), &digest.to_uppercase()).unwrap();
    let sha256_of_v3 = "a401cd47f0f0410d17248538eb8a3ef00018f6a31bf6fb6a7b9b0ba3377f570e";
    assert_eq!(
        verify_digest(V2.as_bytes(), sha256_of_v3),
        Err(CanonicalError::DigestMismatch {
            expected: sha256_of_v3.into(),
            actual: digest.into()
        })
    );
    // The digest follows the algorithm named in the bytes.
    let sha512 = V3.replace("sha256", "sha512");
    assert_eq!(verify(sha512.as_bytes()).unwrap().digest_hex.len(), 128);
}

#[test]
fn hostile_bytes_are_refused_without_panicking() {
    let not_json = |bytes: &[u8]| {
        assert!(
            matches!(verify(bytes), Err(CanonicalError::NotJson { .. })),
            "{bytes:?}"
        );
        assert!(matches!(parse(bytes), Err(CanonicalError::NotJson { .. })));
    };
    not_json(b"");
    not_json(b"{");
    not_json(b"\xff");
    // Invalid UTF-8 inside a string: overlong, surrogate, beyond U+10FFFF, truncated.
    for bad in [
        &b"\xc0\xaf"[..],
        b"\xed\xa0\x80",
        b"\xf4\x90\x80\x80",
        b"\xe2\x82",
    ] {
        let mut bytes = V3.as_bytes().to_vec();
        let at = V3.find("read_only").unwrap();
        bytes.splice(at..at, bad.iter().copied());
        not_json(&bytes);
    }
    // A lone surrogate escape.
    not_json(V3.replace("read_only", "\\ud800").as_bytes());
    // Nesting far beyond any bound.
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    not_json(deep.as_bytes());
    let deep_label = V3.replace(
        "\"read_only\"",
        &format!("{}0{}", "[".repeat(200), "]".repeat(200)),
    );
    not_json(deep_label.as_bytes());
    // Not an object.
    assert_eq!(verify(b"[]"), Err(CanonicalError::NotAnEnvelope));
    assert_eq!(parse(b"3").map(|_| ()), Err(CanonicalError::NotAnEnvelope));
    // Every truncation of a valid envelope is refused, and none panics.
    for end in 0..V3.len() {
        assert!(
            verify(&V3.as_bytes()[..end]).is_err(),
            "prefix of {end} bytes"
        );
    }
}

#[test]
fn the_algorithm_member_is_checked_before_any_other_member() {
    let extra = |envelope: &str| envelope.replacen("{", "{\"x\":1,", 1);
    let v3 =
        |algorithm: &str| format!(r#"{{"schema_version":3,{algorithm}"nodes":[],"edges":[]}}"#);
    let cases = [
        // An unknown name, beside a member the envelope must not have.
        (
            extra(&v3(r#""algorithm":"md5","#)),
            bad("algorithm", "md5", "/algorithm"),
        ),
        // Missing at 3.
        (
            extra(&v3("")),
            missing("envelope", "algorithm", "/algorithm"),
        ),
        // Not a string.
        (
            extra(&v3(r#""algorithm":256,"#)),
            wrong_type("envelope", "algorithm", "a string", "/algorithm"),
        ),
        // Present below 3, beside a member whose name sorts before it.
        (
            V2.replace(":2,", ":2,\"a\":1,\"algorithm\":\"sha256\","),
            unknown("envelope", "algorithm", "/algorithm"),
        ),
    ];
    for (bytes, expected) in cases {
        assert_eq!(graph_error(verify(bytes.as_bytes())), expected, "{bytes}");
        if bytes.contains("\"schema_version\":3") {
            assert_eq!(graph_error(parse(bytes.as_bytes())), expected, "{bytes}");
        }
    }
}

#[test]
fn each_object_is_checked_whole_in_file_order() {
    let server = r#"{"id":"s/server","kind":"server","labels":{},"level":"server"}"#;
    let tool = r#"{"id":"s/tool/t","kind":"tool","labels":{"mode":"read_only"},"level":"server"}"#;
    let edge = r#"{"from":"s/server","kind":"invoke","provenance":"declared","sign":"unset","to":"s/tool/t"}"#;
    let envelope = |server: &str, tool: &str, edge: &str| {
        format!(
            r#"{{"schema_version":3,"algorithm":"sha256","nodes":[{server},{tool}],"edges":[{edge}]}}"#
        )
    };
    assert_eq!(envelope(server, tool, edge), V3);
    let cases = [
        // Within an object: a member it must not have, before one it lacks...
        (
            envelope(
                server,
                &tool.replace("\"id\":\"s/tool/t\",", "\"x\":1,"),
                edge,
            ),
            unknown("node", "x", "/nodes/1/x"),
        ),
        // ...a member it lacks, before one of the wrong type...
        (
            envelope(
                server,
                &tool
                    .replace(",\"level\":\"server\"", "")
                    .replace("\"tool\"", "7"),
                edge,
            ),
            missing("node", "level", "/nodes/1/level"),
        ),
        // ...every type before any word, whatever the member order.
        (
            envelope(
                server,
                tool,
                &edge
                    .replace("\"unset\"", "\"maybe\"")
                    .replace("\"s/tool/t\"", "5"),
            ),
            wrong_type("edge", "to", "a string", "/edges/0/to"),
        ),
        (
            envelope(
                server,
                &tool.replace("\"tool\"", "\"Tool\""),
                &edge.replace("\"s/server\"", "[]"),
            ),
            bad("node kind", "Tool", "/nodes/1/kind"),
        ),
        // Objects in file order: the envelope, then node 0, node 1, then the edges.
        (
            envelope(
                &server.replace("\"level\":\"server\"", "\"level\":\"app\""),
                &tool.replace("\"labels\"", "\"labelz\""),
                &edge.replace("\"sign\"", "\"verdict\""),
            ),
            bad("level", "app", "/nodes/0/level"),
        ),
        (
            envelope(server, tool, &edge.replace("\"sign\"", "\"verdict\""))
                .replace("\"nodes\":[", "\"nodes\":[3,"),
            wrong_type("envelope", "nodes", "an array of objects", "/nodes/0"),
        ),
        (
            envelope(server, &tool.replace("\"tool\"", "\"Tool\""), edge)
                .replace(",\"edges\"", ",\"edgez\""),
            unknown("envelope", "edgez", "/edgez"),
        ),
        (
            envelope(server, &tool.replace("\"tool\"", "\"Tool\""), edge)
                .replace("\"edges\":[", "\"edges\":{\"e\":[")
                .replace("}]}", "}]}}"),
            wrong_type("envelope", "edges", "an array", "/edges"),
        ),
    ];
    for (bytes, expected) in cases {
        assert_eq!(graph_error(parse(bytes.as_bytes())), expected, "{bytes}");
        assert_eq!(graph_error(verify(bytes.as_bytes())), expected, "{bytes}");
    }
}

#[test]
fn structural_refusals_say_where_in_the_file() {
    // A graph of many nodes: the refusal points at the one at fault.
    let node = |i: usize, level: &str| {
        format!(r#"{{"id":"s/tool/t{i:04}","kind":"tool","labels":{{}},"level":"{level}"}}"#)
    };
    let mut nodes: Vec<String> = (0..4800).map(|i| node(i, "server")).collect();
    nodes[4711] = node(4711, "app");
    let bytes = format!(
        r#"{{"schema_version":3,"algorithm":"sha256","nodes":[{}],"edges":[]}}"#,
        nodes.join(",")
    );
    let refused = graph_error(parse(bytes.as_bytes()));
    assert_eq!(refused, bad("level", "app", "/nodes/4711/level"));
    assert_eq!(
        refused.to_string(),
        r#"at "/nodes/4711/level": level "app" is not one of its vocabulary"#
    );
    // Member names are escaped as JSON Pointer steps.
    let slashed = V3.replace("\"labels\":{}", "\"labels\":{},\"a/b~c\":0");
    let refused = graph_error(verify(slashed.as_bytes()));
    assert_eq!(refused, unknown("node", "a/b~c", "/nodes/0/a~1b~0c"));
    assert!(
        refused.to_string().contains("/nodes/0/a~1b~0c"),
        "{refused}"
    );
    let missing_level = V3.replace(",\"level\":\"server\"}]", "}]");
    let refused = graph_error(verify(missing_level.as_bytes()));
    assert_eq!(refused, missing("node", "level", "/nodes/1/level"));
    assert_eq!(
        refused.to_string(),
        r#"at "/nodes/1/level": node lacks the member "level""#
    );
}
