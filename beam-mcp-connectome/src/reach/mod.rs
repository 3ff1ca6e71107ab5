//! Reach: questions about paths through a connectome, answered on a private petgraph built
//! per query and dropped on every exit.
//!
//! * [`reachable`]: does `from` reach `to`? A node reaches itself in zero hops.
//! * [`reachable_without`]: a shortest path from `from` to `to` entering no gate, as the
//!   graph's own edges (the *witness*), or `None`.
//! * [`dominates`]: is every path from the entries to `target` through `gate`? (Removal
//!   definition: `target` is reachable, and unreachable once `gate` is taken out.)
//! * [`mandatory_pass`]: every node all paths from the entries to `target` pass through.
//!
//! Options come in two structs, [`PathOptions`] for the first two queries and
//! [`DominatorOptions`] for the last two, so an option a query cannot use (`max_hops` for
//! dominance, `entries` for a path) cannot be passed to it at all: the compiler refuses what
//! the seed refused at run time as an unknown option. Signs are never read.
//!
//! There is no all-paths query, on purpose: the number of paths grows exponentially with the
//! graph, and a witness plus dominance answer the questions it would be asked. There is no
//! motif matching either.
//!
//! The worked example:
//!
//! ```
//! use beam_mcp_connectome::{
//!     dominates, mandatory_pass, reachable_without, DominatorOptions, Edge, EdgeKind, Graph,
//!     Identity, Node, PathOptions, Provenance,
//! };
//!
//! let tool = |name: &str| Identity::Tool { server: "srv".into(), name: name.into() };
//! let mut nodes = vec![Node::new(Identity::Server { server: "srv".into() }, Default::default())?];
//! for name in ["a", "b", "g", "x"] {
//!     nodes.push(Node::new(tool(name), Default::default())?);
//! }
//! let id = |name: &str| if name == "srv" { "srv/server".to_owned() } else { tool(name).id() };
//! let edge = |from: &str, to: &str| Edge::new(id(from), id(to), EdgeKind::Invoke, Provenance::Declared);
//! let mut edges = vec![edge("srv", "a"), edge("srv", "b"), edge("a", "g"), edge("b", "g"), edge("g", "x")];
//! let graph = Graph::new(nodes.clone(), edges.clone())?;
//! let options = DominatorOptions::new();
//!
//! assert!(dominates(&graph, &id("g"), &id("x"), &options)?);
//! assert_eq!(mandatory_pass(&graph, &id("x"), &options)?, [id("srv"), id("g")].into());
//!
//! edges.push(edge("a", "x"));
//! let graph = Graph::new(nodes, edges)?;
//! let witness = reachable_without(&graph, &id("srv"), &id("x"), [id("g")], &PathOptions::new())?
//!     .expect("a gate-free path");
//! assert_eq!(witness.nodes, [id("srv"), id("a"), id("x")]);
//! assert!(!dominates(&graph, &id("g"), &id("x"), &options)?);
//! assert_eq!(mandatory_pass(&graph, &id("x"), &options)?, [id("srv")].into());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
mod net;
mod options;
mod search;

use std::collections::BTreeSet;

use petgraph::algo::dominators::simple_fast;

use crate::graph::{Edge, Graph};

pub use error::ReachError;
pub use options::{DEFAULT_MAX_EDGES, DominatorOptions, PathOptions};

use net::Net;

/// A witness: the nodes of a path, first to last, and the graph's own edges between them
/// (`edges[i]` runs from `nodes[i]` to `nodes[i + 1]`).
///
/// ```
/// use beam_mcp_connectome::{reachable_without, Graph, Identity, Node, PathOptions};
///
/// let server = Node::new(Identity::Server { server: "srv".into() }, Default::default())?;
/// let graph = Graph::new(vec![server], vec![])?;
/// let none: [&str; 0] = [];
/// let path = reachable_without(&graph, "srv/server", "srv/server", none, &PathOptions::new())?;
/// let path = path.expect("a node reaches itself");
/// assert_eq!((path.nodes, path.edges.len()), (vec!["srv/server"], 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Witness<'g> {
    /// The node ids along the path, `from` first and `to` last.
    pub nodes: Vec<&'g str>,
    /// The edges taken, each the first edge in graph order of an admitted kind between its
    /// two nodes.
    pub edges: Vec<&'g Edge>,
}

/// Whether `from` reaches `to` along edges of the admitted kinds, within `max_hops` if set.
///
/// ```
/// use beam_mcp_connectome::{reachable, Edge, EdgeKind, Graph, Identity, Node, PathOptions, Provenance};
///
/// let server = Node::new(Identity::Server { server: "s".into() }, Default::default())?;
/// let tool = Node::new(Identity::Tool { server: "s".into(), name: "t".into() }, Default::default())?;
/// let call = Edge::new("s/server", "s/tool/t", EdgeKind::Invoke, Provenance::Observed);
/// let graph = Graph::new(vec![server, tool], vec![call])?;
///
/// assert!(reachable(&graph, "s/server", "s/tool/t", &PathOptions::new())?);
/// assert!(!reachable(&graph, "s/tool/t", "s/server", &PathOptions::new())?);
/// assert!(!reachable(&graph, "s/server", "s/tool/t", &PathOptions::new().max_hops(0))?);
/// assert!(!reachable(&graph, "s/server", "s/tool/t", &PathOptions::new().kinds([EdgeKind::Read]))?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn reachable(
    graph: &Graph,
    from: &str,
    to: &str,
    options: &PathOptions,
) -> Result<bool, ReachError> {
    options.check()?;
    let net = Net::build(graph, &options.kinds, options.max_edges)?;
    let (from, to) = (net.vertex("from", from)?, net.vertex("to", to)?);
    Ok(search::shortest(&net.inner, from, to, &[], options.max_hops).is_some())
}

/// A shortest path from `from` to `to` that enters no gate (the first a breadth-first search
/// meets, each node's edges taken in graph order), within `max_hops` if set; `None` if there
/// is none, and always `None` when `from` or `to` is itself a gate.
///
/// ```
/// use beam_mcp_connectome::{reachable_without, Edge, EdgeKind, Graph, Identity, Node, PathOptions, Provenance};
///
/// let node = |name: &str| Node::new(Identity::Tool { server: "s".into(), name: name.into() }, Default::default());
/// let edge = |from: &str, to: &str| Edge::new(format!("s/tool/{from}"), format!("s/tool/{to}"), EdgeKind::Invoke, Provenance::Declared);
/// let graph = Graph::new(
///     vec![node("a")?, node("b")?, node("c")?, node("d")?],
///     vec![edge("a", "b"), edge("b", "d"), edge("a", "c"), edge("c", "d")],
/// )?;
///
/// let path = reachable_without(&graph, "s/tool/a", "s/tool/d", ["s/tool/b"], &PathOptions::new())?;
/// let path = path.expect("around b through c");
/// assert_eq!(path.nodes, ["s/tool/a", "s/tool/c", "s/tool/d"]);
/// assert_eq!(path.edges[0], &graph.edges()[2]);
/// let blocked = reachable_without(&graph, "s/tool/a", "s/tool/d", ["s/tool/b", "s/tool/c"], &PathOptions::new())?;
/// assert_eq!(blocked, None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn reachable_without<'g, S: AsRef<str>>(
    graph: &'g Graph,
    from: &str,
    to: &str,
    gates: impl IntoIterator<Item = S>,
    options: &PathOptions,
) -> Result<Option<Witness<'g>>, ReachError> {
    options.check()?;
    let net = Net::build(graph, &options.kinds, options.max_edges)?;
    let (from, to) = (net.vertex("from", from)?, net.vertex("to", to)?);
    let gates = gates
        .into_iter()
        .map(|gate| net.vertex("gate", gate.as_ref()))
        .collect::<Result<Vec<_>, _>>()?;
    if gates.contains(&from) || gates.contains(&to) {
        return Ok(None);
    }
    let Some(arcs) = search::shortest(&net.inner, from, to, &gates, options.max_hops) else {
        return Ok(None);
    };
    let mut nodes = Vec::with_capacity(arcs.len() + 1);
    nodes.extend(net.id(from));
    let mut edges = Vec::with_capacity(arcs.len());
    for arc in arcs {
        if let Some(edge) = net.edge(arc) {
            edges.push(edge);
            nodes.push(edge.to.as_str());
        }
    }
    Ok(Some(Witness { nodes, edges }))
}

/// Whether `gate` dominates `target`: `target` is reachable from the entries, and no longer is
/// once `gate` is taken out (so a reachable target dominates itself). Entries are the graph's
/// server nodes unless [`DominatorOptions::entries`] names others.
///
/// ```
/// use beam_mcp_connectome::{dominates, DominatorOptions, Edge, EdgeKind, Graph, Identity, Node, Provenance};
///
/// let server = Node::new(Identity::Server { server: "s".into() }, Default::default())?;
/// let node = |name: &str| Node::new(Identity::Tool { server: "s".into(), name: name.into() }, Default::default());
/// let edge = |from: &str, to: &str| Edge::new(from, to, EdgeKind::Invoke, Provenance::Declared);
/// let graph = Graph::new(
///     vec![server, node("a")?, node("b")?],
///     vec![edge("s/server", "s/tool/a"), edge("s/tool/a", "s/tool/b")],
/// )?;
///
/// assert!(dominates(&graph, "s/tool/a", "s/tool/b", &DominatorOptions::new())?);
/// let from_b = DominatorOptions::new().entries(["s/tool/b"]);
/// assert!(!dominates(&graph, "s/tool/a", "s/tool/b", &from_b)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn dominates(
    graph: &Graph,
    gate: &str,
    target: &str,
    options: &DominatorOptions,
) -> Result<bool, ReachError> {
    options.check()?;
    let mut net = Net::build(graph, &options.kinds, options.max_edges)?;
    let (gate, target) = (net.vertex("gate", gate)?, net.vertex("target", target)?);
    let root = net.root_over(options.entries.as_deref())?;
    let reached =
        |blocked: &[_]| search::shortest(&net.inner, root, target, blocked, None).is_some();
    Ok(reached(&[]) && (gate == target || !reached(&[gate])))
}

/// Every node that all paths from the entries to `target` pass through: its dominators, less
/// the virtual root over the entries and `target` itself. A target the entries do not reach is
/// refused. Entries are the graph's server nodes unless [`DominatorOptions::entries`] names
/// others.
///
/// The dominators come from petgraph's Cooper–Harvey–Kennedy algorithm (the seed used
/// Lengauer–Tarjan); the property tests hold the answer equal to [`dominates`], the removal
/// definition, on random graphs.
///
/// ```
/// use beam_mcp_connectome::{mandatory_pass, DominatorOptions, Edge, EdgeKind, Graph, Identity, Node, Provenance, ReachError};
///
/// let server = Node::new(Identity::Server { server: "s".into() }, Default::default())?;
/// let node = |name: &str| Node::new(Identity::Tool { server: "s".into(), name: name.into() }, Default::default());
/// let edge = |from: &str, to: &str| Edge::new(from, to, EdgeKind::Invoke, Provenance::Declared);
/// let graph = Graph::new(
///     vec![server, node("a")?, node("b")?, node("lone")?],
///     vec![edge("s/server", "s/tool/a"), edge("s/tool/a", "s/tool/b")],
/// )?;
///
/// let pass = mandatory_pass(&graph, "s/tool/b", &DominatorOptions::new())?;
/// assert_eq!(pass, ["s/server".to_owned(), "s/tool/a".to_owned()].into());
/// assert_eq!(
///     mandatory_pass(&graph, "s/tool/lone", &DominatorOptions::new()),
///     Err(ReachError::Unreachable { id: "s/tool/lone".into() })
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn mandatory_pass(
    graph: &Graph,
    target: &str,
    options: &DominatorOptions,
) -> Result<BTreeSet<String>, ReachError> {
    options.check()?;
    let mut net = Net::build(graph, &options.kinds, options.max_edges)?;
    let target_vertex = net.vertex("target", target)?;
    let root = net.root_over(options.entries.as_deref())?;
    let dominators = simple_fast(&net.inner, root);
    let chain =
        dominators
            .strict_dominators(target_vertex)
            .ok_or_else(|| ReachError::Unreachable {
                id: target.to_owned(),
            })?;
    // The root stands for no node, so `id` leaves it out.
    Ok(chain
        .filter_map(|vertex| net.id(vertex))
        .map(str::to_owned)
        .collect())
}
