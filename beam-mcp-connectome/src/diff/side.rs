//! One side of a diff, checked: its edges all of its provenance, its node ids one per id
//! after NFC.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::canonical::CanonicalError;
use crate::canonical::text::nfc;
use crate::graph::Graph;

use super::error::{DiffError, Side};

/// A graph that passed the checks, with each node's id after NFC (in node order).
pub(super) struct Checked<'g> {
    pub(super) graph: &'g Graph,
    pub(super) ids: Vec<Cow<'g, str>>,
}

impl<'g> Checked<'g> {
    /// Checks `graph` as `side`: ids colliding after NFC make it uncanonical, an edge of
    /// another provenance is on the wrong side. Since node ids stay distinct after NFC and the
    /// graph holds each `(from, to, kind, provenance)` once, each label is then held once.
    pub(super) fn new(graph: &'g Graph, side: Side) -> Result<Checked<'g>, DiffError> {
        let ids: Vec<Cow<'g, str>> = graph.nodes().iter().map(|node| nfc(node.id())).collect();
        let mut first_holder: HashMap<&str, usize> = HashMap::with_capacity(ids.len());
        for (position, id) in ids.iter().enumerate() {
            if let Some(&first) = first_holder.get(id.as_ref()) {
                let written = |at: usize| graph.nodes().get(at).map(|node| node.id().to_owned());
                let source = CanonicalError::NodeIdCollision {
                    first: written(first).unwrap_or_default(),
                    second: written(position).unwrap_or_default(),
                    normalised: id.to_string(),
                };
                return Err(DiffError::Uncanonical { side, source });
            }
            first_holder.insert(id, position);
        }
        if let Some(edge) = graph
            .edges()
            .iter()
            .find(|edge| edge.provenance != side.provenance())
        {
            return Err(DiffError::WrongProvenance {
                side,
                from: edge.from.clone(),
                to: edge.to.clone(),
                kind: edge.kind,
                found: edge.provenance,
            });
        }
        Ok(Checked { graph, ids })
    }
}
