//! The protocol core: JSON-RPC envelope rules, the era of each request, the method table,
//! and the per-revision result shapes. Pure: transports own bytes and connections.

mod core;
mod cursor;
mod error;
mod methods;
mod response;
mod revision;
mod session;

pub use error::ProtocolError;
pub use response::{PendingResponse, Reply, Response};
pub use revision::{
    META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, META_SERVER_INFO, Revision,
};
pub use session::Session;
