//! What the core answers: a JSON-RPC response, ready now or after host code runs.

use std::future::Future;
use std::pin::Pin;

use serde_json::{Map, Value};

use super::{Exchange, ProtocolError, Revision};

/// A JSON-RPC response: the request's id and either a result or an error.
///
/// ```
/// use beam_mcp::protocol::{ProtocolError, Response};
/// let r = Response::error(None, ProtocolError::Batch, None);
/// assert_eq!(
///     r.to_json(),
///     r#"{"error":{"code":-32600,"message":"Batch requests are not supported at any supported protocol version"},"jsonrpc":"2.0"}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    id: Option<Value>,
    body: Result<Value, ProtocolError>,
    revision: Option<Revision>,
}

impl Response {
    /// A successful response carrying `result`.
    pub fn result(id: Option<Value>, result: Value) -> Self {
        Self {
            id,
            body: Ok(result),
            revision: None,
        }
    }

    /// An error response; `id` is omitted when the request's id could not be read.
    pub fn error(id: Option<Value>, error: ProtocolError, revision: Option<Revision>) -> Self {
        Self {
            id,
            body: Err(error),
            revision,
        }
    }

    /// The id this response echoes.
    pub fn id(&self) -> Option<&Value> {
        self.id.as_ref()
    }

    /// The result, or the error.
    pub fn body(&self) -> Result<&Value, &ProtocolError> {
        self.body.as_ref()
    }

    /// The result, or the error, taken.
    pub(crate) fn into_body(self) -> Result<Value, ProtocolError> {
        self.body
    }

    /// The response as a JSON value (keys sorted).
    pub fn to_value(&self) -> Value {
        let mut out = Map::new();
        out.insert("jsonrpc".into(), Value::from("2.0"));
        if let Some(id) = &self.id {
            out.insert("id".into(), id.clone());
        }
        match &self.body {
            Ok(result) => out.insert("result".into(), result.clone()),
            Err(error) => out.insert("error".into(), error.to_error_object(self.revision)),
        };
        Value::Object(out)
    }

    /// The response as one compact JSON line (no trailing newline).
    pub fn to_json(&self) -> String {
        self.to_value().to_string()
    }

    /// Appends the compact JSON form to `out`, without an intermediate value for the result.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        // Keys in sorted order, as `to_value` would give them, without cloning the result.
        out.extend_from_slice(b"{");
        match &self.body {
            Ok(result) => {
                self.write_id(out);
                out.extend_from_slice(b"\"jsonrpc\":\"2.0\",\"result\":");
                write_value(out, result);
            }
            Err(error) => {
                out.extend_from_slice(b"\"error\":");
                write_value(out, &error.to_error_object(self.revision));
                out.extend_from_slice(b",");
                self.write_id(out);
                out.extend_from_slice(b"\"jsonrpc\":\"2.0\"");
            }
        }
        out.extend_from_slice(b"}");
    }

    fn write_id(&self, out: &mut Vec<u8>) {
        if let Some(id) = &self.id {
            out.extend_from_slice(b"\"id\":");
            write_value(out, id);
            out.extend_from_slice(b",");
        }
    }
}

fn write_value(out: &mut Vec<u8>, value: &Value) {
    // Writing a `Value` into a Vec cannot fail: every key is a string, every number finite.
    if serde_json::to_writer(&mut *out, value).is_err() {
        out.extend_from_slice(b"null");
    }
}

/// A future that yields a response once host code has run.
pub(crate) type PendingResponse = Pin<Box<dyn Future<Output = Response> + Send + 'static>>;

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
