//! The host's rate limit at the last step before host code runs: a verdict known now refuses
//! (or admits) at once; one a shared store gives later is awaited as the first step of the
//! call's work, so nothing of the host runs before it.

use crate::limit::{Caller, Checked, Limited};
use crate::protocol::{ProtocolError, Session};
use crate::server::Server;

/// A call's admission: `Ok(None)` to run now, `Ok(Some(verdict))` to run once `verdict`
/// admits it ([`admitted`]), `Err` refused now (`-31429`).
pub(super) fn admit(
    server: &Server,
    session: &Session,
    kind: Limited<'_>,
) -> Result<Option<Checked>, ProtocolError> {
    let Some(limit) = &server.inner.rate_limit else {
        return Ok(None);
    };
    let owner = session.principal().map(|p| p.digest());
    match limit.check(Caller::new(owner.as_ref()), kind).into_ready() {
        Ok(Ok(())) => Ok(None),
        Ok(Err(retry)) => Err(retry.into()),
        Err(later) => Ok(Some(later)),
    }
}

/// Waits for a verdict [`admit`] left for later (none: admitted already).
pub(super) async fn admitted(verdict: Option<Checked>) -> Result<(), ProtocolError> {
    match verdict {
        None => Ok(()),
        Some(verdict) => verdict.await.map_err(ProtocolError::from),
    }
}
