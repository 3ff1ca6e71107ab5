//! DOT and GraphML renderings: exact output, escaping, determinism, refusals.

use beam_mcp_connectome::{
    Edge, EdgeKind, ExportError, Graph, Identity, Labels, Node, Provenance, to_dot, to_graphml,
};
use serde_json::json;

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

fn server() -> Node {
    Node::new(Identity::Server { server: "s".into() }, Labels::new()).unwrap()
}

fn example(reversed: bool) -> Graph {
    let mut nodes = vec![
        server(),
        tool("t", [("mode".to_owned(), json!("read_only"))].into()),
    ];
    let mut edges = vec![
        Edge::new(
            "s/server",
            "s/tool/t",
            EdgeKind::Invoke,
            Provenance::Declared,
        ),
        Edge::new(
            "s/server",
            "s/tool/t",
            EdgeKind::Invoke,
            Provenance::Observed,
        )
        .with_weight(3),
    ];
    if reversed {
        nodes.reverse();
        edges.reverse();
    }
    Graph::new(nodes, edges).unwrap()
}

#[test]
fn dot_is_exact_and_ordered_like_the_canonical_bytes() {
    let expected = concat!(
        "digraph \"connectome\" {\n",
        "  \"s/server\" [label=\"s/server\", kind=\"server\", level=\"server\"];\n",
        "  \"s/tool/t\" [label=\"s/tool/t\", kind=\"tool\", level=\"server\"];\n",
        "  \"s/server\" -> \"s/tool/t\" [kind=\"invoke\", provenance=\"declared\", sign=\"unset\"];\n",
        "  \"s/server\" -> \"s/tool/t\" [kind=\"invoke\", provenance=\"observed\", sign=\"unset\", count=3];\n",
        "}\n",
    );
    assert_eq!(to_dot(&example(false)), expected);
    assert_eq!(to_dot(&example(true)), expected);
}

#[test]
fn dot_quotes_and_escapes_every_id() {
    let graph = Graph::new(vec![tool("a\"b\\c\nd\re{x} -> y;", Labels::new())], vec![]).unwrap();
    assert_eq!(
        to_dot(&graph),
        concat!(
            "digraph \"connectome\" {\n",
            "  \"s/tool/a\\\"b\\\\c\\nd\\re{x} -> y;\" [label=\"s/tool/a\\\"b\\\\c\\nd\\re{x} -> y;\", kind=\"tool\", level=\"server\"];\n",
            "}\n",
        )
    );
    // A trailing backslash cannot swallow the closing quote.
    let graph = Graph::new(vec![tool("end\\", Labels::new())], vec![]).unwrap();
    assert!(to_dot(&graph).contains("\"s/tool/end\\\\\" [label="));
}

#[test]
fn graphml_is_exact() {
    let expected = concat!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
        "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n",
        "  <key id=\"kind\" for=\"node\" attr.name=\"kind\" attr.type=\"string\"/>\n",
        "  <key id=\"level\" for=\"node\" attr.name=\"level\" attr.type=\"string\"/>\n",
        "  <key id=\"labels\" for=\"node\" attr.name=\"labels\" attr.type=\"string\"/>\n",
        "  <key id=\"edge_kind\" for=\"edge\" attr.name=\"kind\" attr.type=\"string\"/>\n",
        "  <key id=\"provenance\" for=\"edge\" attr.name=\"provenance\" attr.type=\"string\"/>\n",
        "  <key id=\"sign\" for=\"edge\" attr.name=\"sign\" attr.type=\"string\"/>\n",
        "  <key id=\"weight\" for=\"edge\" attr.name=\"weight\" attr.type=\"long\"/>\n",
        "  <graph id=\"connectome\" edgedefault=\"directed\">\n",
        "    <node id=\"s/server\"><data key=\"kind\">server</data><data key=\"level\">server</data><data key=\"labels\">{}</data></node>\n",
        "    <node id=\"s/tool/t\"><data key=\"kind\">tool</data><data key=\"level\">server</data><data key=\"labels\">{&quot;mode&quot;:&quot;read_only&quot;}</data></node>\n",
        "    <edge source=\"s/server\" target=\"s/tool/t\"><data key=\"edge_kind\">invoke</data><data key=\"provenance\">declared</data><data key=\"sign\">unset</data></edge>\n",
        "    <edge source=\"s/server\" target=\"s/tool/t\"><data key=\"edge_kind\">invoke</data><data key=\"provenance\">observed</data><data key=\"sign\">unset</data><data key=\"weight\">3</data></edge>\n",
        "  </graph>\n",
        "</graphml>\n",
    );
    assert_eq!(to_graphml(&example(false)).unwrap(), expected);
    assert_eq!(to_graphml(&example(true)).unwrap(), expected);
}

#[test]
fn graphml_escapes_markup_and_whitespace() {
    let labels: Labels = [("note".to_owned(), json!("<b>&'\u{1}"))].into();
    let graph = Graph::new(vec![tool("a<&>\"'\t\n\r", labels)], vec![]).unwrap();
    let xml = to_graphml(&graph).unwrap();
    assert!(
        xml.contains("<node id=\"s/tool/a&lt;&amp;&gt;&quot;&apos;&#9;&#10;&#13;\">"),
        "{xml}"
    );
    // The control character in the label is a JSON escape, which XML carries.
    assert!(
        xml.contains(
            "<data key=\"labels\">{&quot;note&quot;:&quot;&lt;b&gt;&amp;&apos;\\u0001&quot;}</data>"
        ),
        "{xml}"
    );
}

#[test]
fn graphml_refuses_what_xml_cannot_carry() {
    for (name, codepoint) in [
        ("\u{0}", 0),
        ("a\u{1b}", 0x1b),
        ("\u{fffe}", 0xfffe),
        ("\u{ffff}", 0xffff),
    ] {
        let graph = Graph::new(vec![tool(name, Labels::new())], vec![]).unwrap();
        let refused = to_graphml(&graph).unwrap_err();
        assert_eq!(
            refused,
            ExportError::NotXml {
                id: format!("s/tool/{name}"),
                codepoint
            }
        );
        assert!(refused.to_string().contains(&format!("U+{codepoint:04X}")));
    }
    let labels: Labels = [("k".to_owned(), json!(["\u{ffff}"]))].into();
    let graph = Graph::new(vec![tool("ok", labels)], vec![]).unwrap();
    assert_eq!(
        to_graphml(&graph),
        Err(ExportError::NotXml {
            id: "s/tool/ok".into(),
            codepoint: 0xffff
        })
    );
    // Astral characters and the top of the BMP below U+FFFE are fine.
    let graph = Graph::new(
        vec![tool("\u{1f600}\u{fffd}\u{e000}", Labels::new())],
        vec![],
    )
    .unwrap();
    assert!(to_graphml(&graph).is_ok());
}
