//! What a method answers with: its outcome now, or host work whose output is the outcome. The
//! core alone turns it into a [`Reply`](super::Reply).

use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

use super::request::Begun;
use crate::error::ProtocolError;

/// What a method ends as: its result, or the error it is answered with.
pub(crate) type Outcome = Result<Value, ProtocolError>;

/// Host code still to run, ending in the method's outcome.
pub(crate) type HostWork = Pin<Box<dyn Future<Output = Outcome> + Send + 'static>>;

/// What a method answers with; the core alone turns it into a [`Reply`](super::Reply) (it sets
/// up the exchange, defers, and writes the response), so no method calls back into it.
pub(crate) enum Answer {
    /// Nothing (`exit`).
    Silent,
    /// The outcome, known now.
    Now(Outcome),
    /// Host code to run with the context begun for it; its outcome is the answer.
    Run(Begun, HostWork),
}
