//! What the core does with one message: nothing, a response now, or an exchange that answers
//! once host code has run.

use super::exchange::Exchange;
use super::response::Response;

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
