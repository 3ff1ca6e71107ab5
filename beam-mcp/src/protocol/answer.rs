//! What a method answers with: its outcome now, or host work whose output is the outcome. The
//! core alone turns it into a [`Reply`](super::Reply).

use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

use super::request::Begun;
use crate::error::ProtocolError;
use crate::tool::CallToolResult;

/// What a method ends as: its result, or the error it is answered with.
pub(crate) type Outcome = Result<Value, ProtocolError>;

/// A result as host work ends with it: a value, or a tool's result kept as the host gave it,
/// written straight to the wire with no `Value` built for it (one is made only where asked:
/// middleware, a task's store, [`Response::body`](super::Response::body)).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Body {
    Value(Value),
    Tool(CallToolResult),
}

impl Body {
    /// The result as a JSON value.
    pub(crate) fn into_value(self) -> Value {
        match self {
            Body::Value(value) => value,
            Body::Tool(result) => result.into_value(),
        }
    }
}

/// What host work ends as.
pub(crate) type Ended = Result<Body, ProtocolError>;

/// Host code still to run, ending in the method's outcome.
pub(crate) type HostWork = Pin<Box<dyn Future<Output = Ended> + Send + 'static>>;

/// What a method answers with; the core alone turns it into a [`Reply`](super::Reply) (it sets
/// up the exchange, defers, and writes the response), so no method calls back into it.
pub(crate) enum Answer {
    /// Nothing (`exit`).
    Silent,
    /// The outcome, known now.
    Now(Outcome),
    /// Host code to run with the context begun for it; its outcome is the answer.
    Run(Begun, HostWork),
    /// Host code that ran in place and answered at its first poll, with the context begun for
    /// it, if one was ([`Door::runs_in_place`](super::door::Door::runs_in_place)).
    Ended(Option<Begun>, Ended),
}

impl Answer {
    /// Host code whose outcome is a value.
    pub(crate) fn run(
        begun: Begun,
        work: impl Future<Output = Outcome> + Send + 'static,
    ) -> Answer {
        Answer::Run(begun, Box::pin(async move { work.await.map(Body::Value) }))
    }
}
