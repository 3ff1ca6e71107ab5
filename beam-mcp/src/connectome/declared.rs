//! The declared connectome a host's build step wrote to `OUT_DIR` (the `beam-mcp-build`
//! crate), read back and checked when the server is built.

use std::collections::BTreeSet;

use beam_mcp_connectome::{
    Algorithm, Edge, EdgeKind, Graph, Identity, Labels, Node, NodeKind, Provenance, canonical,
};

use crate::catalog::Definitions;

/// The declared connectome as the server serves it: the file's bytes, untouched, and the
/// graph they hold.
#[derive(Debug)]
pub(crate) struct Declared {
    pub(crate) bytes: &'static [u8],
    pub(crate) graph: Graph,
    pub(crate) algorithm: Algorithm,
    pub(crate) digest_hex: String,
    /// The items the server links that the build step did not declare (built by hand, or
    /// the connectome surface's own), by node id, sorted.
    pub(crate) hand_built: Vec<String>,
    /// The declared graph with those items added, each labelled `hand_built` with its edge
    /// from the server: the side a diff compares, so that their calls are not drift.
    pub(crate) diff_side: Graph,
}

/// Why the declared connectome given to the builder was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DeclaredError {
    /// A hand-built item's node could not be added for the diff (an id no graph takes).
    #[error("a linked item cannot be added to the declared graph: {0}")]
    Item(#[from] beam_mcp_connectome::GraphError),
    /// The bytes are not a canonical version-3 graph.
    #[error("the declared connectome is not a canonical graph: {0}")]
    Unreadable(#[from] beam_mcp_connectome::CanonicalError),
    /// The graph has no server node, or more than one.
    #[error("the declared connectome must hold exactly one server node, it holds {0}")]
    ServerNodes(usize),
    /// It declares items the server does not link: it was scanned from another build, or the
    /// host links part of its crate's items.
    #[error(
        "the declared connectome declares {} the server does not link (link them, e.g. with crate_items(), or scan the crate the server is built from)", .0.join(", ")
    )]
    NotLinked(Vec<String>),
    /// It was emitted for another server name than the one being built.
    #[error(
        "the declared connectome was emitted for server {declared:?}, but this server is named {running:?}: pass the same name to beam_mcp_build and to the builder"
    )]
    ServerName {
        /// The server node's id in the file.
        declared: String,
        /// The id the running server's name derives.
        running: String,
    },
}

impl Declared {
    /// Reads the file's bytes and checks they were emitted for the server named `server`.
    pub(crate) fn read(bytes: &'static [u8], server: &str) -> Result<Declared, DeclaredError> {
        let (graph, algorithm) = canonical::parse(bytes)?;
        let servers: Vec<&str> = graph
            .nodes()
            .iter()
            .filter(|n| n.kind() == NodeKind::Server)
            .map(|n| n.id())
            .collect();
        let [declared] = servers[..] else {
            return Err(DeclaredError::ServerNodes(servers.len()));
        };
        let running = Identity::Server {
            server: server.to_owned(),
        }
        .id();
        if declared != running {
            return Err(DeclaredError::ServerName {
                declared: declared.to_owned(),
                running,
            });
        }
        Ok(Declared {
            bytes,
            digest_hex: canonical::hash_hex(bytes, algorithm),
            diff_side: graph.clone(),
            graph,
            algorithm,
            hand_built: Vec::new(),
        })
    }

    /// Checks the graph against the items the server links, item for item: every declared item
    /// must be linked; a linked item the build step could not see is recorded as hand-built.
    pub(crate) fn agree(
        mut self,
        defs: &Definitions,
        server: &str,
    ) -> Result<Declared, DeclaredError> {
        let server = server.to_owned();
        let linked: Vec<(Identity, EdgeKind)> = defs
            .tools
            .iter()
            .map(|t| {
                let name = t.name.to_owned();
                (
                    Identity::Tool {
                        server: server.clone(),
                        name,
                    },
                    EdgeKind::Invoke,
                )
            })
            .chain(defs.resources.iter().map(|r| {
                let uri = r.uri.to_owned();
                (
                    Identity::Resource {
                        server: server.clone(),
                        uri,
                    },
                    EdgeKind::Read,
                )
            }))
            .chain(defs.prompts.iter().map(|p| {
                let name = p.name.to_owned();
                (
                    Identity::Prompt {
                        server: server.clone(),
                        name,
                    },
                    EdgeKind::Invoke,
                )
            }))
            .collect();
        let mut linked_ids: BTreeSet<String> = linked.iter().map(|(i, _)| i.id()).collect();
        // A mounted item is declared where its function is, under the name its own catalog
        // gave it (a named catalog's items under the name `serve!` mounts them by).
        let origins = defs
            .tools
            .iter()
            .filter_map(|t| t.origin)
            .map(|o| Identity::Tool {
                server: server.clone(),
                name: o.name.to_owned(),
            })
            .chain(
                defs.resources
                    .iter()
                    .filter_map(|r| r.origin)
                    .map(|o| Identity::Resource {
                        server: server.clone(),
                        uri: o.name.to_owned(),
                    }),
            )
            .chain(
                defs.prompts
                    .iter()
                    .filter_map(|p| p.origin)
                    .map(|o| Identity::Prompt {
                        server: server.clone(),
                        name: o.name.to_owned(),
                    }),
            );
        linked_ids.extend(origins.map(|i| i.id()));
        let declared_items: BTreeSet<&str> = self
            .graph
            .nodes()
            .iter()
            .filter(|n| {
                matches!(
                    n.kind(),
                    NodeKind::Tool | NodeKind::Resource | NodeKind::Prompt
                )
            })
            .map(|n| n.id())
            .collect();
        let not_linked: Vec<String> = declared_items
            .iter()
            .filter(|id| !linked_ids.contains(**id))
            .map(|id| (*id).to_owned())
            .collect();
        if !not_linked.is_empty() {
            return Err(DeclaredError::NotLinked(not_linked));
        }
        let root = Identity::Server { server }.id();
        let (mut nodes, mut edges) = self.graph.clone().into_parts();
        let mut hand_built = BTreeSet::new();
        for (identity, kind) in linked {
            let id = identity.id();
            if declared_items.contains(id.as_str()) || !hand_built.insert(id.clone()) {
                continue;
            }
            let mut labels = Labels::new();
            labels.insert("hand_built".to_owned(), true.into());
            nodes.push(Node::new(identity, labels)?);
            edges.push(Edge::new(root.clone(), id, kind, Provenance::Declared));
        }
        self.diff_side = Graph::new(nodes, edges)?;
        self.hand_built = hand_built.into_iter().collect();
        Ok(self)
    }
}
