//! The protocol core: JSON-RPC envelope rules, the era of each request, the method table,
//! and the per-revision result shapes. Pure: transports own bytes and connections.

mod answer;
mod around;
mod core;
pub(crate) mod cursor;
pub(crate) mod door;
pub(crate) mod envelope;
mod exchange;
mod methods;
mod reply;
mod request;
mod response;
pub(crate) mod session;
pub(crate) mod top;

pub use crate::caller_text::CALLER_TEXT_BYTES;
pub(crate) use crate::caller_text::Logged;
pub use crate::error::ProtocolError;
pub use crate::revision::{
    META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, META_PROTOCOL_VERSION,
    META_SERVER_INFO, META_SUBSCRIPTION_ID, Revision,
};
pub use exchange::{Exchange, Outbound};
pub use reply::Reply;
pub use response::Response;
pub use session::Session;
