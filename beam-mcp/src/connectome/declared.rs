//! The declared connectome a host's build step wrote to `OUT_DIR` (the `beam-mcp-build`
//! crate), read back and checked when the server is built.

use beam_mcp_connectome::{Algorithm, Graph, Identity, NodeKind, canonical};

/// The declared connectome as the server serves it: the file's bytes, untouched, and the
/// graph they hold.
#[derive(Debug)]
pub(crate) struct Declared {
    pub(crate) bytes: &'static [u8],
    pub(crate) graph: Graph,
    pub(crate) algorithm: Algorithm,
    pub(crate) digest_hex: String,
}

/// Why the declared connectome given to the builder was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DeclaredError {
    /// The bytes are not a canonical version-3 graph.
    #[error("the declared connectome is not a canonical graph: {0}")]
    Unreadable(#[from] beam_mcp_connectome::CanonicalError),
    /// The graph has no server node, or more than one.
    #[error("the declared connectome must hold exactly one server node, it holds {0}")]
    ServerNodes(usize),
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
            graph,
            algorithm,
        })
    }
}
