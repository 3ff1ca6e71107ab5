//! The transport's own rules, called by the core at the steps of its order where they
//! interleave (DIGEST §A5): the core reads the envelope once; a transport never parses it again.

use serde_json::Value;

use super::envelope::Said;

use crate::catalog::Tool;
use crate::error::ProtocolError;
use crate::middleware::Via;

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

    /// The transport's metadata against the tool a `tools/call` names, once it is found.
    fn check_tool(&self, _tool: &Tool, _arguments: Option<&Value>) -> Result<(), ProtocolError> {
        Ok(())
    }

    /// How the request came in, as middleware and telemetry see it; read only when one of
    /// them runs.
    fn via(&self) -> Via {
        Via::STDIO
    }
}

/// A transport with no rules of its own (stdio, and hosts calling the core directly).
pub(crate) struct Bare;

impl Door for Bare {}
