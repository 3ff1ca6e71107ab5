//! What the HTTP endpoint refuses by itself (the door, the body, sessions, streams, places),
//! each with its JSON-RPC code; the status is the caller's, beside it. A core error a transport
//! answers with itself is wrapped (`Core`).

use serde_json::{Value, json};

use crate::caller_text::caller_text;
use crate::protocol::{ProtocolError, Revision};

/// Why the HTTP endpoint answered a request itself.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum HttpRefusal {
    /// An `Origin` the HTTP endpoint does not allow.
    #[error("Origin not allowed")]
    OriginNotAllowed,
    /// A `Host` the HTTP endpoint does not serve (DNS-rebinding protection).
    #[error("Host not allowed")]
    HostNotAllowed,
    /// An HTTP method other than POST.
    #[error("Method not allowed; use POST")]
    HttpMethodNotAllowed(String),
    /// A request body framed by `transfer-encoding` rather than a declared length.
    #[error("Request body must declare its length: transfer-encoding is refused")]
    TransferEncodingRefused,
    /// The host's `authorize` or `authorize_body` refused the request; why goes to the log.
    #[error("Forbidden")]
    Forbidden,
    /// The whole body did not arrive within the read deadline.
    #[error("Request body not received within {0} ms")]
    BodyTimeout(u64),
    /// The body could not be read from the connection (the detail goes to the log).
    #[error("Could not read request body")]
    BodyUnreadable,
    /// The host's `authorize` asked the caller to authenticate (HTTP 401).
    #[error("Unauthorized")]
    Unauthorized,
    /// An HTTP request with an empty body.
    #[error("Parse error: empty body")]
    EmptyBody,
    /// A 2025-11-25 method that needs a session, on an HTTP endpoint that keeps none.
    #[error(
        "Invalid Request: {0} needs a session, and this endpoint keeps none (stateless legacy mode)"
    )]
    NeedsSession(String),
    /// `initialize` over HTTP at the session bound (503, with `Retry-After`).
    #[error("Too many sessions: try again later")]
    SessionsFull,
    /// A request that would run host code on an HTTP endpoint whose places for requests being
    /// processed are all taken, or this caller's share of them (503, with `Retry-After`).
    #[error("Too many requests in flight: try again later")]
    InFlightFull,
    /// This caller holds its share of the endpoint's listen streams (`subscriptions/listen`,
    /// 2025-11-25 GET streams) open (503, with `Retry-After`).
    #[error("Too many streams open: try again later")]
    StreamsFull,
    /// A 2025-11-25 HTTP request after `initialize` without `Mcp-Session-Id`.
    #[error("Bad Request: Mcp-Session-Id header is required")]
    SessionIdMissing,
    /// An `Mcp-Session-Id` that names no session of this caller (ended, expired, or never
    /// issued): the client initializes again.
    #[error("Session not found")]
    SessionNotFound,
    /// A GET whose `Accept` does not take `text/event-stream`.
    #[error("Not Acceptable: a GET stream is text/event-stream")]
    NotAcceptable,
    /// A 2025-11-25 session already running as many requests as a connection may.
    #[error("Too many requests running in this session: try again later")]
    SessionBusy,
    /// The state store (a host's [`EventStore`](super::EventStore) over a network) could not
    /// answer (503, with `Retry-After`; what it said goes to the log).
    #[error("The state store is unavailable: try again later")]
    StoreUnavailable,
    /// A `Last-Event-ID` that cannot be resumed (why is the second field).
    #[error("Last-Event-ID {1}")]
    LastEventId(String, &'static str),
    /// A core error the endpoint answers with itself (a body over the bound, a fault).
    #[error(transparent)]
    Core(#[from] ProtocolError),
}

impl HttpRefusal {
    /// The JSON-RPC error code.
    pub(crate) fn code(&self) -> i64 {
        match self {
            HttpRefusal::BodyUnreadable | HttpRefusal::EmptyBody => -32700,
            HttpRefusal::StoreUnavailable => -32603,
            HttpRefusal::Core(error) => error.code_at(Some(Revision::V2026_07_28)),
            _ => -32600,
        }
    }

    /// The error's `data`, caller text cut.
    pub(crate) fn data(&self) -> Option<Value> {
        match self {
            HttpRefusal::HttpMethodNotAllowed(method) => {
                Some(json!({ "method": caller_text(method) }))
            }
            HttpRefusal::LastEventId(id, _) => Some(json!({ "lastEventId": caller_text(id) })),
            HttpRefusal::Core(error) => error.data(),
            _ => None,
        }
    }

    /// The error response, with the request's id when it was read.
    pub(crate) fn response(&self, id: Option<&Value>) -> Vec<u8> {
        super::super::refusal::error_response(id, self.code(), self.to_string(), self.data())
    }
}
