//! The host's hooks at the door (`authorize`, `authorize_async`, `authorize_body`): what they
//! decide, and running them so that a refusal or a panic is an HTTP answer, never a dead
//! connection task.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Duration;

use axum::http::request::Parts;
use axum::http::{HeaderValue, header};
use axum::response::Response as HttpResponse;

use super::refusal::HttpRefusal;
use super::reply;
use crate::context::Principal;
use crate::protocol::{Logged, ProtocolError};
use crate::tool::BoxFuture;

/// Why a host's `authorize` or `authorize_body` refused a request. The reason goes to the
/// log; the caller sees only 403 "Forbidden".
///
/// ```
/// use beam_mcp::transport::http::Refusal;
/// let r = Refusal::new("token expired");
/// assert_eq!(r.reason(), "token expired");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    reason: String,
    challenge: Option<String>,
    /// 403 even with a challenge (`insufficient_scope`).
    forbidden: bool,
}

impl Refusal {
    /// A refusal with a reason for the log: 403 "Forbidden".
    pub fn new(reason: impl Into<String>) -> Self {
        Refusal {
            reason: reason.into(),
            challenge: None,
            forbidden: false,
        }
    }

    /// "Authenticate first": 401 "Unauthorized" with `WWW-Authenticate: <challenge>` (for
    /// example `Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource"`).
    ///
    /// ```
    /// use beam_mcp::transport::http::Refusal;
    /// let r = Refusal::unauthorized("no token", r#"Bearer realm="mcp""#);
    /// assert_eq!(r.challenge(), Some(r#"Bearer realm="mcp""#));
    /// ```
    pub fn unauthorized(reason: impl Into<String>, challenge: impl Into<String>) -> Self {
        Refusal {
            reason: reason.into(),
            challenge: Some(challenge.into()),
            forbidden: false,
        }
    }

    /// "Authenticated, but not allowed": 403 "Forbidden" with `WWW-Authenticate: <challenge>`
    /// (for example `Bearer error="insufficient_scope", scope="mcp:tools"`).
    ///
    /// ```
    /// use beam_mcp::transport::http::Refusal;
    /// let r = Refusal::insufficient_scope("no mcp:tools", r#"Bearer error="insufficient_scope""#);
    /// assert_eq!(r.challenge(), Some(r#"Bearer error="insufficient_scope""#));
    /// ```
    pub fn insufficient_scope(reason: impl Into<String>, challenge: impl Into<String>) -> Self {
        Refusal {
            reason: reason.into(),
            challenge: Some(challenge.into()),
            forbidden: true,
        }
    }

    /// The reason.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The `WWW-Authenticate` challenge of a 401, if any.
    pub fn challenge(&self) -> Option<&str> {
        self.challenge.as_deref()
    }
}

/// What `authorize` decides: the caller's identity, or a refusal.
pub(super) type Decision = Result<Principal, Refusal>;

/// An `authorize` that decides later.
pub(super) type DecideLater = dyn Fn(&Parts) -> BoxFuture<Decision> + Send + Sync;

/// The host's `authorize` hook, as written: it decides now, or later (it awaits a token check).
#[derive(Clone)]
pub(super) enum Authorize {
    Now(Arc<dyn Fn(&Parts) -> Decision + Send + Sync>),
    Later(Arc<DecideLater>),
}
pub(super) type AuthorizeBody = Arc<dyn Fn(&Parts, &[u8]) -> Result<(), Refusal> + Send + Sync>;

/// What a host hook decided against the request.
pub(super) enum Refused {
    /// 403, or 401 with this challenge (403 with it when `forbidden`).
    Refusal(Option<String>, bool),
    /// The hook panicked: 500.
    Fault,
}

impl Refused {
    pub(super) fn response(self, close: bool) -> HttpResponse {
        match self {
            Refused::Refusal(None, _) => reply(403, None, HttpRefusal::Forbidden, close),
            Refused::Refusal(Some(challenge), forbidden) => {
                let mut response = if forbidden {
                    reply(403, None, HttpRefusal::Forbidden, close)
                } else {
                    reply(401, None, HttpRefusal::Unauthorized, close)
                };
                match HeaderValue::from_str(&challenge) {
                    Ok(value) => {
                        response
                            .headers_mut()
                            .insert(header::WWW_AUTHENTICATE, value);
                    }
                    Err(_) => tracing::error!("a WWW-Authenticate challenge is not a header value"),
                }
                response
            }
            Refused::Fault => reply(500, None, ProtocolError::Internal, close),
        }
    }
}

/// Runs a host hook that decides later, under `deadline`: what it allowed, or its refusal, or
/// its fault (a panic, or no decision in time).
pub(super) async fn hook_later<T>(
    start: impl FnOnce() -> BoxFuture<Result<T, Refusal>>,
    deadline: Duration,
) -> Result<T, Refused> {
    let running = match crate::panic::CatchUnwind::start(start) {
        Ok(running) => running,
        Err(_) => {
            tracing::error!("an authorization hook panicked");
            return Err(Refused::Fault);
        }
    };
    match tokio::time::timeout(deadline, running).await {
        Ok(Ok(decided)) => hook(|| decided),
        Ok(Err(_)) => {
            tracing::error!("an authorization hook panicked");
            Err(Refused::Fault)
        }
        Err(_) => {
            tracing::error!(
                ?deadline,
                "an authorization hook did not decide within the deadline"
            );
            Err(Refused::Fault)
        }
    }
}

/// Runs a host hook: what it allowed, or its refusal (logged with the reason) or its fault.
pub(super) fn hook<T>(f: impl FnOnce() -> Result<T, Refusal>) -> Result<T, Refused> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(allowed)) => Ok(allowed),
        Ok(Err(refusal)) => {
            tracing::info!(reason = %Logged(&refusal.reason), "request refused by the host");
            Err(Refused::Refusal(refusal.challenge, refusal.forbidden))
        }
        Err(_) => {
            tracing::error!("an authorization hook panicked");
            Err(Refused::Fault)
        }
    }
}
