//! Renderings for people and tools: DOT (graphviz) and GraphML. Neither is canonical nor
//! hashed; both are deterministic, listing nodes by id bytes and edges by `(from, to, kind,
//! provenance)` bytewise, as the canonical bytes do. Strings are written as the graph holds
//! them (no NFC).

use std::fmt::Write as _;

use crate::canonical::{CanonicalError, encode_value};
use crate::graph::{Edge, Graph, Node};

/// Why a graph could not be rendered.
///
/// ```
/// use beam_mcp_connectome::{ExportError, Graph, Identity, Node, to_graphml};
///
/// let bell = Node::new(Identity::Tool { server: "s".into(), name: "\u{7}".into() }, Default::default())?;
/// let graph = Graph::new(vec![bell], vec![])?;
/// assert_eq!(
///     to_graphml(&graph),
///     Err(ExportError::NotXml { id: "s/tool/\u{7}".into(), codepoint: 7 })
/// );
/// # Ok::<(), beam_mcp_connectome::GraphError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// A node's id or labels hold a character XML 1.0 cannot carry (outside `Char`:
    /// `#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`).
    #[error("node {id:?} holds U+{codepoint:04X}, which XML 1.0 cannot carry")]
    NotXml {
        /// The node's id.
        id: String,
        /// The character.
        codepoint: u32,
    },
    /// A node's labels have no canonical JSON (keys colliding after NFC).
    #[error("labels of node {id:?}: {reason}")]
    Labels {
        /// The node's id.
        id: String,
        /// Why.
        reason: Box<CanonicalError>,
    },
}

/// The graph in graphviz's DOT language: a `digraph`, one statement per node (attributes
/// `label` = id, `kind`, `level`) and per edge (`kind`, `provenance`, `sign`, and `count` =
/// the weight when it has one; graphviz's own `weight` is a layout hint held in a C `int`,
/// which a count may overflow, so it is not used). Every id and value is a double-quoted
/// string, `\` written `\\`, `"` as `\"`, and line feed and carriage return as `\n` and
/// `\r`, so any id renders.
///
/// ```
/// use beam_mcp_connectome::{Edge, EdgeKind, Graph, Identity, Node, Provenance, to_dot};
///
/// let graph = Graph::new(
///     vec![
///         Node::new(Identity::Tool { server: "s".into(), name: "say \"hi\"".into() }, Default::default())?,
///         Node::new(Identity::Server { server: "s".into() }, Default::default())?,
///     ],
///     vec![Edge::new("s/server", "s/tool/say \"hi\"", EdgeKind::Invoke, Provenance::Declared)],
/// )?;
/// assert_eq!(
///     to_dot(&graph),
///     concat!(
///         "digraph \"connectome\" {\n",
///         "  \"s/server\" [label=\"s/server\", kind=\"server\", level=\"server\"];\n",
///         "  \"s/tool/say \\\"hi\\\"\" [label=\"s/tool/say \\\"hi\\\"\", kind=\"tool\", level=\"server\"];\n",
///         "  \"s/server\" -> \"s/tool/say \\\"hi\\\"\" [kind=\"invoke\", provenance=\"declared\", sign=\"unset\"];\n",
///         "}\n",
///     )
/// );
/// # Ok::<(), beam_mcp_connectome::GraphError>(())
/// ```
pub fn to_dot(graph: &Graph) -> String {
    let mut out = String::from("digraph \"connectome\" {\n");
    for node in sorted_nodes(graph) {
        let id = dot_quote(node.id());
        let _ = writeln!(
            out,
            "  {id} [label={id}, kind={}, level={}];",
            dot_quote(node.kind().as_str()),
            dot_quote(node.level().as_str()),
        );
    }
    for edge in sorted_edges(graph) {
        let _ = write!(
            out,
            "  {} -> {} [kind={}, provenance={}, sign={}",
            dot_quote(&edge.from),
            dot_quote(&edge.to),
            dot_quote(edge.kind.as_str()),
            dot_quote(edge.provenance.as_str()),
            dot_quote(edge.sign.as_str()),
        );
        if let Some(weight) = edge.weight {
            let _ = write!(out, ", count={weight}");
        }
        out.push_str("];\n");
    }
    out.push_str("}\n");
    out
}

/// The graph as GraphML (XML 1.0, UTF-8): keys `kind`, `level` and `labels` (the labels'
/// canonical JSON) on nodes, `edge_kind`, `provenance`, `sign` and `weight` (a `long`, only
/// when the edge has one) on edges; a directed graph. `&`, `<`, `>`, `"` and `'` are written
/// as entities, and tab, line feed and carriage return as character references so they
/// survive attribute normalisation. A character outside XML 1.0's `Char` in an id or a label
/// is refused, naming the node and the code point.
///
/// ```
/// use beam_mcp_connectome::{Graph, Identity, Node, to_graphml};
///
/// let node = Node::new(Identity::Tool { server: "s".into(), name: "a<b&c".into() }, Default::default())?;
/// let xml = to_graphml(&Graph::new(vec![node], vec![])?)?;
/// assert!(xml.contains(r#"<node id="s/tool/a&lt;b&amp;c">"#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn to_graphml(graph: &Graph) -> Result<String, ExportError> {
    let mut out = String::from(concat!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
        "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" ",
        "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" ",
        "xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns ",
        "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n",
        "  <key id=\"kind\" for=\"node\" attr.name=\"kind\" attr.type=\"string\"/>\n",
        "  <key id=\"level\" for=\"node\" attr.name=\"level\" attr.type=\"string\"/>\n",
        "  <key id=\"labels\" for=\"node\" attr.name=\"labels\" attr.type=\"string\"/>\n",
        "  <key id=\"edge_kind\" for=\"edge\" attr.name=\"kind\" attr.type=\"string\"/>\n",
        "  <key id=\"provenance\" for=\"edge\" attr.name=\"provenance\" attr.type=\"string\"/>\n",
        "  <key id=\"sign\" for=\"edge\" attr.name=\"sign\" attr.type=\"string\"/>\n",
        "  <key id=\"weight\" for=\"edge\" attr.name=\"weight\" attr.type=\"long\"/>\n",
        "  <graph id=\"connectome\" edgedefault=\"directed\">\n",
    ));
    for node in sorted_nodes(graph) {
        let id = node.id();
        xml_chars(id, id)?;
        let labels = labels_json(node)?;
        xml_chars(id, &labels)?;
        let _ = writeln!(
            out,
            "    <node id=\"{}\"><data key=\"kind\">{}</data><data key=\"level\">{}</data><data key=\"labels\">{}</data></node>",
            xml_escape(id),
            node.kind(),
            node.level(),
            xml_escape(&labels),
        );
    }
    for edge in sorted_edges(graph) {
        let _ = write!(
            out,
            "    <edge source=\"{}\" target=\"{}\"><data key=\"edge_kind\">{}</data><data key=\"provenance\">{}</data><data key=\"sign\">{}</data>",
            xml_escape(&edge.from),
            xml_escape(&edge.to),
            edge.kind,
            edge.provenance,
            edge.sign,
        );
        if let Some(weight) = edge.weight {
            let _ = write!(out, "<data key=\"weight\">{weight}</data>");
        }
        out.push_str("</edge>\n");
    }
    out.push_str("  </graph>\n</graphml>\n");
    Ok(out)
}

fn sorted_nodes(graph: &Graph) -> Vec<&Node> {
    let mut nodes: Vec<&Node> = graph.nodes().iter().collect();
    nodes.sort_by(|a, b| a.id().cmp(b.id()));
    nodes
}

fn sorted_edges(graph: &Graph) -> Vec<&Edge> {
    let mut edges: Vec<&Edge> = graph.edges().iter().collect();
    edges.sort_by(|a, b| {
        (&a.from, &a.to, a.kind.as_str(), a.provenance.as_str()).cmp(&(
            &b.from,
            &b.to,
            b.kind.as_str(),
            b.provenance.as_str(),
        ))
    });
    edges
}

/// A DOT double-quoted string that reads back as `text` (graphviz keeps `\\` in a name and
/// turns it into `\` in a label; ids stay distinct either way).
fn dot_quote(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\r' => quoted.push_str("\\r"),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// The labels' canonical JSON, as text.
fn labels_json(node: &Node) -> Result<String, ExportError> {
    let labels = serde_json::Value::Object(
        node.labels()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    );
    let bytes = encode_value(&labels).map_err(|reason| ExportError::Labels {
        id: node.id().to_owned(),
        reason: Box::new(reason),
    })?;
    // encode_value writes only UTF-8 from strings that were UTF-8.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Refuses the first character of `text` outside XML 1.0's `Char`, naming node `id`.
fn xml_chars(id: &str, text: &str) -> Result<(), ExportError> {
    match text.chars().find(|&c| !is_xml_char(c)) {
        Some(c) => Err(ExportError::NotXml {
            id: id.to_owned(),
            codepoint: u32::from(c),
        }),
        None => Ok(()),
    }
}

/// XML 1.0 `Char` (surrogates cannot occur in a Rust string).
fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

fn xml_escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            '\t' => escaped.push_str("&#9;"),
            '\n' => escaped.push_str("&#10;"),
            '\r' => escaped.push_str("&#13;"),
            c => escaped.push(c),
        }
    }
    escaped
}
