//! Why a client's request did not give its typed result.

use std::time::Duration;

use serde_json::Value;

/// Why a [`Client`](super::Client) call failed. The JSON-RPC code, message and `data` of a
/// server's error are kept as sent.
///
/// ```
/// use beam_mcp::client::ClientError;
/// let refused = ClientError::Protocol { code: -32602, message: "unknown tool".into(), data: None };
/// assert_eq!(refused.code(), Some(-32602));
/// assert_eq!(refused.to_string(), "the server answered error -32602: unknown tool");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The server's process could not be started.
    #[error("cannot start the server {program:?}: {source}")]
    Spawn {
        /// The program named.
        program: String,
        /// Why.
        source: std::io::Error,
    },
    /// A message could not be written to the server.
    #[error("cannot write to the server: {0}")]
    Write(#[source] std::io::Error),
    /// The connection is closed: the server ended, or sent what no bound of ours accepts (a
    /// message over 1 MiB, nested deeper than 64, a repeated key, not JSON).
    #[error("the connection to the server is closed: {reason}")]
    Closed {
        /// Why, in words.
        reason: String,
    },
    /// The server answered with a JSON-RPC error.
    #[error("the server answered error {code}: {message}")]
    Protocol {
        /// The error code.
        code: i64,
        /// The error message.
        message: String,
        /// The error's `data`, when there is one.
        data: Option<Value>,
    },
    /// A protected HTTP endpoint refused the client's credentials (`401`, or `403` with
    /// `insufficient_scope`): the client had no token source, or the host's token source gave
    /// no token it took.
    #[cfg(feature = "client-http")]
    #[error("the endpoint refused the client's credentials (HTTP {status}): {detail}")]
    Unauthorized {
        /// The HTTP status.
        status: u16,
        /// What the endpoint asked for.
        challenge: Box<super::Challenge>,
        /// What went wrong.
        detail: String,
    },
    /// No answer came within the request's time limit; the request was cancelled.
    #[error("no answer to {method} within {after:?}")]
    Timeout {
        /// The request's method.
        method: String,
        /// The limit.
        after: Duration,
    },
    /// The answer did not have the shape of the method's result.
    #[error("the answer to {method} is not its result: {detail}")]
    Shape {
        /// The request's method.
        method: String,
        /// What was wrong.
        detail: String,
    },
    /// The server asked for input the client has no handler for (an elicitation without
    /// `on_elicitation`, a sampling request), or kept asking past the round limit.
    #[error("the server asked for input the client does not give to {method}: {what}")]
    InputRequired {
        /// The request's method.
        method: String,
        /// What was asked, in words.
        what: String,
    },
    /// The task a call became was cancelled (by the host, or on the server).
    #[error("task {task} was cancelled")]
    Cancelled {
        /// The task's id.
        task: String,
    },
    /// Neither revision could be agreed on.
    #[error("no protocol revision agreed with the server: {detail}")]
    Negotiation {
        /// What each attempt answered.
        detail: String,
    },
}

impl ClientError {
    /// The JSON-RPC error code, when the server answered one.
    ///
    /// ```
    /// let closed = beam_mcp::client::ClientError::Closed { reason: "ended".into() };
    /// assert_eq!(closed.code(), None);
    /// ```
    pub fn code(&self) -> Option<i64> {
        match self {
            ClientError::Protocol { code, .. } => Some(*code),
            _ => None,
        }
    }
}
