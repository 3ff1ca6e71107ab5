//! What the core does with one message: nothing, a response now, or an exchange that answers
//! once host code has run.

use std::future::Future;
use std::pin::Pin;

use super::exchange::Exchange;
use super::request::Begun;
use super::response::Response;
use crate::error::ProtocolError;
use serde_json::Value;

/// What a method ends as: its result, or the error it is answered with.
pub(crate) type Outcome = Result<Value, ProtocolError>;

/// Host code still to run, ending in the method's outcome.
pub(crate) type HostWork = Pin<Box<dyn Future<Output = Outcome> + Send + 'static>>;

/// What a method answers with; the core alone turns it into a [`Reply`] (it sets up the
/// exchange, defers, and writes the response), so no method calls back into it.
pub(crate) enum Answer {
    /// Nothing (`exit`).
    Silent,
    /// The outcome, known now.
    Now(Outcome),
    /// Host code to run with the context begun for it; its outcome is the answer.
    Run(Begun, HostWork),
}

/// What the core does with one message.
pub enum Reply {
    /// No answer: the message was a notification (or `exit`).
    Silent,
    /// The answer is known now.
    Ready(Response),
    /// The answer comes once host code has run, perhaps after notifications: read it with
    /// [`Exchange::next`]; transports may run many concurrently.
    Pending(Exchange),
}

impl Reply {
    /// Waits for the answer, if there is one (notifications are discarded).
    ///
    /// ```
    /// # async fn demo(server: beam_mcp::Server) {
    /// let session = beam_mcp::protocol::Session::new();
    /// let reply = server.handle(&session, br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
    /// assert_eq!(reply.resolve().await.unwrap().to_json(), r#"{"id":1,"jsonrpc":"2.0","result":{}}"#);
    /// # }
    /// ```
    pub async fn resolve(self) -> Option<Response> {
        match self {
            Reply::Silent => None,
            Reply::Ready(response) => Some(response),
            Reply::Pending(exchange) => exchange.response().await,
        }
    }
}

impl std::fmt::Debug for Reply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reply::Silent => f.write_str("Silent"),
            Reply::Ready(r) => f.debug_tuple("Ready").field(r).finish(),
            Reply::Pending(_) => f.write_str("Pending(..)"),
        }
    }
}
