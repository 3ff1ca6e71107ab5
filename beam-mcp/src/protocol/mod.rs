//! The protocol core: JSON-RPC envelope rules, the era of each request, the method table,
//! and the per-revision result shapes. Pure: transports own bytes and connections.

mod around;
mod core;
pub(crate) mod cursor;
pub(crate) mod door;
mod error;
mod exchange;
mod methods;
pub mod middleware;
mod response;
pub(crate) mod session;

pub use crate::revision::{
    META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, META_PROTOCOL_VERSION,
    META_SERVER_INFO, META_SUBSCRIPTION_ID, Revision,
};
pub use error::{CALLER_TEXT_BYTES, ProtocolError};
pub(crate) use error::{Logged, caller_text};
pub use exchange::{Exchange, Outbound};
pub use response::{Reply, Response};
pub use session::Session;
