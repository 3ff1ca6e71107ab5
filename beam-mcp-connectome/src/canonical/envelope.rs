//! The envelope writer: canonical bytes of a graph (§5.4 rules 1–8), for every version the
//! verifier reads; the library itself writes only version 3.

use std::borrow::Cow;

use serde_json::Value;

use super::error::CanonicalError;
use super::text::{nfc, pointer, write_str};
use super::value::{Floats, sorted_entries, write_value};
use crate::graph::{Graph, GraphError};
use crate::vocab::{Algorithm, SCHEMA_VERSION};

/// The canonical bytes of `graph` in the version-3 envelope naming `algorithm`:
/// `{"schema_version":3,"algorithm":…,"nodes":[…],"edges":[…]}`, members in that fixed order;
/// nodes sorted by id bytes, each `id, kind, labels, level`; edges sorted by `(from, to, kind,
/// provenance)` bytewise, each `from, kind, provenance, sign, to` (no weight); every string
/// NFC; labels under the labels-object rules. Node ids (or label keys) that collide after NFC
/// are refused, never merged.
///
/// ```
/// use beam_mcp_connectome::canonical::{encode, hash_hex};
/// use beam_mcp_connectome::{Algorithm, Edge, EdgeKind, Graph, Identity, Node, Provenance};
///
/// let labels = [("mode".to_owned(), "read_only".into())].into();
/// let graph = Graph::new(
///     vec![
///         Node::new(Identity::Tool { server: "s".into(), name: "t".into() }, labels)?,
///         Node::new(Identity::Server { server: "s".into() }, Default::default())?,
///     ],
///     vec![Edge::new("s/server", "s/tool/t", EdgeKind::Invoke, Provenance::Declared)],
/// )?;
/// let bytes = encode(&graph, Algorithm::Sha256)?;
/// assert!(bytes.starts_with(br#"{"schema_version":3,"algorithm":"sha256","nodes":[{"id":"s/server""#));
/// assert_eq!(
///     hash_hex(&bytes, Algorithm::Sha256),
///     "a401cd47f0f0410d17248538eb8a3ef00018f6a31bf6fb6a7b9b0ba3377f570e"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn encode(graph: &Graph, algorithm: Algorithm) -> Result<Vec<u8>, CanonicalError> {
    write(&Envelope::of(graph, Some(algorithm.as_str())))
}

/// A graph as the writer sees it: every word already a string, so that version-1 and
/// version-2 envelopes (whose signs the model cannot hold) are written by the same code.
pub(crate) struct Envelope<'a> {
    pub(crate) schema_version: u64,
    /// Present at version 3, absent below.
    pub(crate) algorithm: Option<&'a str>,
    pub(crate) nodes: Vec<RawNode<'a>>,
    pub(crate) edges: Vec<RawEdge<'a>>,
}

pub(crate) struct RawNode<'a> {
    pub(crate) id: &'a str,
    pub(crate) kind: &'a str,
    pub(crate) level: &'a str,
    pub(crate) labels: Vec<(&'a str, &'a Value)>,
}

pub(crate) struct RawEdge<'a> {
    pub(crate) from: &'a str,
    pub(crate) to: &'a str,
    pub(crate) kind: &'a str,
    pub(crate) provenance: &'a str,
    pub(crate) sign: &'a str,
    pub(crate) weight: Option<u64>,
}

impl<'a> Envelope<'a> {
    /// The version-3 view of a graph.
    pub(crate) fn of(graph: &'a Graph, algorithm: Option<&'a str>) -> Envelope<'a> {
        Envelope {
            schema_version: SCHEMA_VERSION,
            algorithm,
            nodes: graph
                .nodes()
                .iter()
                .map(|n| RawNode {
                    id: n.id(),
                    kind: n.kind().as_str(),
                    level: n.level().as_str(),
                    labels: n.labels().iter().map(|(k, v)| (k.as_str(), v)).collect(),
                })
                .collect(),
            edges: graph
                .edges()
                .iter()
                .map(|e| RawEdge {
                    from: &e.from,
                    to: &e.to,
                    kind: e.kind.as_str(),
                    provenance: e.provenance.as_str(),
                    sign: e.sign.as_str(),
                    weight: e.weight,
                })
                .collect(),
        }
    }
}

/// A node with its NFC id.
pub(crate) type SortedNode<'e, 'a> = (Cow<'a, str>, &'e RawNode<'a>);

/// An edge with NFC endpoints, in canonical order.
pub(crate) struct SortedEdge<'e, 'a> {
    pub(crate) from: Cow<'a, str>,
    pub(crate) to: Cow<'a, str>,
    pub(crate) edge: &'e RawEdge<'a>,
}

/// Nodes with NFC ids sorted by id bytes (ids colliding after NFC refused), and edges with
/// NFC endpoints sorted by `(from, to, kind, provenance)` bytewise.
pub(crate) fn sorted<'e, 'a>(
    envelope: &'e Envelope<'a>,
) -> Result<(Vec<SortedNode<'e, 'a>>, Vec<SortedEdge<'e, 'a>>), CanonicalError> {
    let mut nodes: Vec<_> = envelope.nodes.iter().map(|n| (nfc(n.id), n)).collect();
    nodes.sort_by(|a, b| a.0.cmp(&b.0));
    if let Some(pair) = nodes.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(CanonicalError::NodeIdCollision {
            first: pair[0].1.id.to_owned(),
            second: pair[1].1.id.to_owned(),
            normalised: pair[0].0.clone().into_owned(),
        });
    }
    let mut edges: Vec<_> = envelope
        .edges
        .iter()
        .map(|edge| SortedEdge {
            from: nfc(edge.from),
            to: nfc(edge.to),
            edge,
        })
        .collect();
    edges.sort_by(|a, b| {
        (&*a.from, &*a.to, a.edge.kind, a.edge.provenance).cmp(&(
            &*b.from,
            &*b.to,
            b.edge.kind,
            b.edge.provenance,
        ))
    });
    Ok((nodes, edges))
}

/// The canonical bytes of an envelope.
pub(crate) fn write(envelope: &Envelope<'_>) -> Result<Vec<u8>, CanonicalError> {
    let (nodes, edges) = sorted(envelope)?;
    let mut out = Vec::with_capacity(64 + 96 * nodes.len() + 96 * edges.len());
    out.extend_from_slice(b"{\"schema_version\":");
    out.extend_from_slice(envelope.schema_version.to_string().as_bytes());
    if let Some(algorithm) = envelope.algorithm {
        out.extend_from_slice(b",\"algorithm\":");
        write_str(&mut out, &nfc(algorithm));
    }
    out.extend_from_slice(b",\"nodes\":[");
    for (i, (id, node)) in nodes.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"id\":");
        write_str(&mut out, id);
        out.extend_from_slice(b",\"kind\":");
        write_str(&mut out, &nfc(node.kind));
        out.extend_from_slice(b",\"labels\":");
        write_labels(&mut out, node)?;
        out.extend_from_slice(b",\"level\":");
        write_str(&mut out, &nfc(node.level));
        out.push(b'}');
    }
    out.extend_from_slice(b"],\"edges\":[");
    for (i, sorted) in edges.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let edge = sorted.edge;
        out.extend_from_slice(b"{\"from\":");
        write_str(&mut out, &sorted.from);
        out.extend_from_slice(b",\"kind\":");
        write_str(&mut out, &nfc(edge.kind));
        out.extend_from_slice(b",\"provenance\":");
        write_str(&mut out, &nfc(edge.provenance));
        out.extend_from_slice(b",\"sign\":");
        write_str(&mut out, &nfc(edge.sign));
        out.extend_from_slice(b",\"to\":");
        write_str(&mut out, &sorted.to);
        out.push(b'}');
    }
    out.extend_from_slice(b"]}");
    Ok(out)
}

/// A node's labels: an object under the labels-object rules, errors naming node and label.
fn write_labels(out: &mut Vec<u8>, node: &RawNode<'_>) -> Result<(), CanonicalError> {
    let entries = sorted_entries(node.labels.iter().copied()).map_err(|c| {
        CanonicalError::LabelKeyCollision {
            node: node.id.to_owned(),
            path: String::new(),
            first: c.first,
            second: c.second,
        }
    })?;
    out.push(b'{');
    for (i, (key, label, value)) in entries.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_str(out, key);
        out.push(b':');
        write_value(out, value, &pointer("", label), Floats::Refuse).map_err(|e| match e {
            // A graph holds no float (`Node::from_parts` refuses one); said the same way if it did.
            CanonicalError::Float { .. } => CanonicalError::Graph(GraphError::FloatLabel {
                node: node.id.to_owned(),
                label: (*label).to_owned(),
                value: value.to_string(),
            }),
            CanonicalError::KeyCollision {
                path,
                first,
                second,
                ..
            } => CanonicalError::LabelKeyCollision {
                node: node.id.to_owned(),
                path,
                first,
                second,
            },
            other => CanonicalError::BadLabel {
                node: node.id.to_owned(),
                label: (*label).to_owned(),
                reason: Box::new(other),
            },
        })?;
    }
    out.push(b'}');
    Ok(())
}
