//! Why a reach query was refused.

/// Why a reach query was refused. Each names the culprit.
///
/// ```
/// use beam_mcp_connectome::{reachable, Graph, PathOptions, ReachError};
///
/// let empty = Graph::new(vec![], vec![])?;
/// let refused = reachable(&empty, "srv/server", "srv/tool/a", &PathOptions::new());
/// assert_eq!(
///     refused,
///     Err(ReachError::UnknownNode { role: "from", id: "srv/server".into() })
/// );
/// # Ok::<(), beam_mcp_connectome::GraphError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReachError {
    /// A list option was given empty.
    #[error("option {option} is an empty list; leave it out to use its default")]
    EmptyOption {
        /// The option (`kinds` or `entries`).
        option: &'static str,
    },
    /// The graph has more edges than `max_edges` allows.
    #[error("the graph has {edges} edges, over max_edges {max_edges}")]
    TooManyEdges {
        /// How many edges the graph has.
        edges: usize,
        /// The cap in force.
        max_edges: usize,
    },
    /// A node id the query names is not a node of the graph.
    #[error("{role} {id:?} is not a node of the graph")]
    UnknownNode {
        /// Which argument named it (`from`, `to`, `gate`, `target`, `entry`).
        role: &'static str,
        /// The id as given.
        id: String,
    },
    /// No entries were given and the graph has no server node to enter from.
    #[error("the graph has no server node to enter from; name the entries")]
    NoEntries,
    /// The target cannot be reached from the entries, so nothing dominates it.
    #[error("target {id:?} cannot be reached from the entries")]
    Unreachable {
        /// The target's id.
        id: String,
    },
}
