//! The transport's own rules, called by the core at the steps of its order where they
//! interleave (DIGEST §A5): the core reads the envelope once; a transport never parses it again.

use serde_json::Value;

use super::envelope::Said;

use crate::catalog::Tool;
use crate::error::ProtocolError;
use crate::middleware::Via;
use crate::params::Params;

/// What a transport adds to the core's checks. stdio adds nothing ([`Bare`]); HTTP checks its
/// request metadata headers here.
pub(crate) trait Door {
    /// Whether `shutdown` and `exit` exist (a connection's session control); where they do not,
    /// they are unknown methods.
    fn has_session_control(&self) -> bool {
        true
    }

    /// Whether a message that is no request and no notification (a response, or an object
    /// without `method`) is refused; otherwise it is dropped silently, as stdio does.
    fn refuses_non_messages(&self) -> bool {
        false
    }

    /// Whether a response from the client (to a request the server sent on a 2025-11-25
    /// session) is taken; where it is not (stateless HTTP: no session to answer), it is a
    /// message like any other that is no request.
    fn accepts_responses(&self) -> bool {
        true
    }

    /// The transport's metadata against what a well-formed message says, before `params._meta`
    /// decides the era.
    fn check_message(&self, _said: Said<'_>) -> Result<(), ProtocolError> {
        Ok(())
    }

    /// The transport's metadata against the tool a `tools/call` names, once it is found (asked
    /// through [`check_tool`] only for a tool with `x-mcp-header` parameters).
    fn check_tool(&self, _tool: &Tool, _arguments: Option<&Value>) -> Result<(), ProtocolError> {
        Ok(())
    }

    /// How the request came in, as middleware and telemetry see it; read only when one of
    /// them runs.
    fn via(&self) -> Via {
        Via::STDIO
    }

    /// Whether the transport registers a request that goes on running itself
    /// ([`Exchange::register`](super::Exchange::register)), after its host code's first poll,
    /// rather than the core at once: true only where no other message (a cancel among them)
    /// can be read until the transport has done so, so a request answered at once costs no
    /// registration.
    fn registers_late(&self) -> bool {
        false
    }

    /// Whether host code may be polled once where the core handles the message, before the
    /// transport sees the request (it holds a place for it to run in, and no request waits
    /// for one before it): an answer host code gives at once is then answered with no future
    /// boxed and no exchange made.
    fn runs_in_place(&self) -> bool {
        false
    }
}

/// A transport with no rules of its own (hosts calling the core directly).
pub(crate) struct Bare;

impl Door for Bare {}

/// A transport with no rules of its own that reads one message at a time, and registers a
/// request that goes on running before it reads the next (stdio); `in_place` when it holds a
/// slot for the message's host code to run in, and nothing waits for one.
#[cfg(feature = "stdio")]
pub(crate) struct Sequential {
    pub(crate) in_place: bool,
}

#[cfg(feature = "stdio")]
impl Door for Sequential {
    fn registers_late(&self) -> bool {
        true
    }

    fn runs_in_place(&self) -> bool {
        self.in_place
    }
}

/// `door`'s rules for `tool` ([`Door::check_tool`]), asked only when the tool has `x-mcp-header`
/// parameters: the arguments, kept as read, are made a value only for such a tool.
pub(crate) fn check_tool(
    door: &dyn Door,
    tool: &Tool,
    params: &Params,
) -> Result<(), ProtocolError> {
    if tool.headers.is_empty() {
        return Ok(());
    }
    door.check_tool(tool, params.get("arguments"))
}
