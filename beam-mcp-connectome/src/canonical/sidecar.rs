//! The weight sidecar: edge weights beside the envelope, never hashed.

use super::envelope::{Envelope, sorted};
use super::error::CanonicalError;
use super::text::{nfc, write_str};
use crate::graph::Graph;
use crate::vocab::SCHEMA_VERSION;

/// The weight sidecar of `graph`, which is **never hashed**:
/// `{"schema_version":3,"weights":[{"from":…,"kind":…,"provenance":…,"to":…,"weight":N},…]}`,
/// one entry per edge that has a weight, sorted as the envelope's edges (`from, to, kind,
/// provenance` bytewise), strings NFC and escaped as in the envelope. Weights are counts
/// (`u64`), written as plain decimal integers: a float has no place in the sidecar.
///
/// ```
/// use beam_mcp_connectome::{Edge, EdgeKind, Graph, Identity, Node, Provenance, canonical::sidecar};
///
/// let nodes = vec![
///     Node::new(Identity::Server { server: "s".into() }, Default::default())?,
///     Node::new(Identity::Tool { server: "s".into(), name: "t".into() }, Default::default())?,
/// ];
/// let edges = vec![
///     Edge::new("s/server", "s/tool/t", EdgeKind::Invoke, Provenance::Observed).with_weight(7),
///     Edge::new("s/server", "s/tool/t", EdgeKind::Invoke, Provenance::Declared),
/// ];
/// let graph = Graph::new(nodes, edges)?;
/// assert_eq!(
///     sidecar(&graph)?,
///     br#"{"schema_version":3,"weights":[{"from":"s/server","kind":"invoke","provenance":"observed","to":"s/tool/t","weight":7}]}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn sidecar(graph: &Graph) -> Result<Vec<u8>, CanonicalError> {
    let envelope = Envelope::of(graph, None);
    let (_, edges) = sorted(&envelope)?;
    let mut out = Vec::new();
    out.extend_from_slice(b"{\"schema_version\":");
    out.extend_from_slice(SCHEMA_VERSION.to_string().as_bytes());
    out.extend_from_slice(b",\"weights\":[");
    let mut first = true;
    for sorted in &edges {
        let Some(weight) = sorted.edge.weight else {
            continue;
        };
        if !first {
            out.push(b',');
        }
        first = false;
        out.extend_from_slice(b"{\"from\":");
        write_str(&mut out, &sorted.from);
        out.extend_from_slice(b",\"kind\":");
        write_str(&mut out, &nfc(sorted.edge.kind));
        out.extend_from_slice(b",\"provenance\":");
        write_str(&mut out, &nfc(sorted.edge.provenance));
        out.extend_from_slice(b",\"to\":");
        write_str(&mut out, &sorted.to);
        out.extend_from_slice(b",\"weight\":");
        out.extend_from_slice(weight.to_string().as_bytes());
        out.push(b'}');
    }
    out.extend_from_slice(b"]}");
    Ok(out)
}
