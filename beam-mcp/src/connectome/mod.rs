//! The connectome of a running server: the model, canonical bytes, diff and reach of
//! [`beam_mcp_connectome`] (re-exported here), and what only a running server has: the
//! observed graph counted at dispatch, the declared graph its build step emitted, and the
//! surface that serves both on the wire when a host adds it.
//!
//! The declared graph is emitted at build time by the `beam-mcp-build` crate into `OUT_DIR`
//! and handed to [`ServerBuilder::declared_connectome`](crate::ServerBuilder::declared_connectome)
//! with [`declared_connectome!`](crate::declared_connectome); see `docs/connectome.md`.

mod declared;
mod observer;
mod surface;
mod window;

pub use beam_mcp_connectome::*;
pub(crate) use declared::Declared;
pub use declared::DeclaredError;
pub(crate) use observer::{Counter, ItemCounter};
pub use observer::{EdgeLatency, HostEdge, MAX_HOST_EDGES, ObserveError, Observed, Observer};
pub(crate) use surface::Surface;
pub use window::Window;

pub(crate) mod wire {
    //! The surface's definitions, for the builder.
    pub(crate) use super::surface::{resources, tool};
}
