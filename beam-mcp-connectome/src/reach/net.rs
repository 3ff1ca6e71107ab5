//! The petgraph a query walks: one node per graph node (same position), one edge per edge of
//! an admitted kind, weighted by the edge's position in the graph. Built per query and dropped
//! with it, so no state outlives a call.

use std::collections::HashMap;

use petgraph::Directed;
use petgraph::graph::{EdgeIndex, NodeIndex};

use crate::graph::{Edge, Graph};
use crate::vocab::NodeKind;

use super::error::ReachError;
use super::options::Kinds;

/// `usize` indices: no node count can overflow them, so building never panics.
pub(crate) type Inner = petgraph::Graph<(), usize, Directed, usize>;
pub(crate) type Vertex = NodeIndex<usize>;
pub(crate) type Arc = EdgeIndex<usize>;

pub(crate) struct Net<'g> {
    graph: &'g Graph,
    ids: HashMap<&'g str, Vertex>,
    pub(crate) inner: Inner,
}

impl<'g> Net<'g> {
    /// The net of `graph`'s edges of an admitted kind; a graph over the cap is refused before
    /// any work.
    pub(crate) fn build(
        graph: &'g Graph,
        kinds: &Kinds,
        max_edges: usize,
    ) -> Result<Net<'g>, ReachError> {
        let edges = graph.edges().len();
        if edges > max_edges {
            return Err(ReachError::TooManyEdges { edges, max_edges });
        }
        let mut inner = Inner::with_capacity(graph.nodes().len() + 1, edges);
        let mut ids = HashMap::with_capacity(graph.nodes().len());
        for node in graph.nodes() {
            ids.insert(node.id(), inner.add_node(()));
        }
        // petgraph lists a node's out-edges newest first; adding them in reverse lists them in
        // graph order, which is what makes the witness take the first edge in graph order.
        for (position, edge) in graph.edges().iter().enumerate().rev() {
            if !kinds.admits(edge.kind) {
                continue;
            }
            if let (Some(&from), Some(&to)) =
                (ids.get(edge.from.as_str()), ids.get(edge.to.as_str()))
            {
                inner.add_edge(from, to, position);
            }
        }
        Ok(Net { graph, ids, inner })
    }

    /// The vertex of a node id, or the id named as unknown in its role.
    pub(crate) fn vertex(&self, role: &'static str, id: &str) -> Result<Vertex, ReachError> {
        self.ids
            .get(id)
            .copied()
            .ok_or_else(|| ReachError::UnknownNode {
                role,
                id: id.to_owned(),
            })
    }

    /// The id of a vertex standing for a graph node (`None` for the virtual root).
    pub(crate) fn id(&self, vertex: Vertex) -> Option<&'g str> {
        self.graph.nodes().get(vertex.index()).map(|node| node.id())
    }

    /// The graph's own edge an arc stands for.
    pub(crate) fn edge(&self, arc: Arc) -> Option<&'g Edge> {
        self.graph.edges().get(*self.inner.edge_weight(arc)?)
    }

    /// Adds a virtual root over the given entries, or over every server node; returns it.
    pub(crate) fn root_over(&mut self, entries: Option<&[String]>) -> Result<Vertex, ReachError> {
        let entries: Vec<Vertex> = match entries {
            Some(ids) => ids
                .iter()
                .map(|id| self.vertex("entry", id))
                .collect::<Result<_, _>>()?,
            None => self
                .graph
                .nodes()
                .iter()
                .filter(|node| node.kind() == NodeKind::Server)
                .filter_map(|node| self.ids.get(node.id()).copied())
                .collect(),
        };
        if entries.is_empty() {
            return Err(ReachError::NoEntries);
        }
        let root = self.inner.add_node(());
        for entry in entries {
            // The weight is never read: the root's arcs stand for no edge of the graph.
            self.inner.add_edge(root, entry, usize::MAX);
        }
        Ok(root)
    }
}
