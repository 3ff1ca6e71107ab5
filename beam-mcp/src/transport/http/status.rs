//! The one table from a core response to the HTTP status it travels with, for both eras.

use axum::body::Body;
use axum::http::{HeaderValue, header};
use serde_json::Value;

use super::{HttpResponse, json_response};
use crate::protocol::{ProtocolError, Response};

/// Which HTTP era answers: they differ only where the table says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Wire {
    /// 2026-07-28: one request per POST, no session.
    Stateless,
    /// 2025-11-25: `initialize`, then requests on a session (or the stateless legacy mode).
    Sessions,
}

/// The status of `response`.
///
/// 400 only where the spec says MUST (DIGEST, "Status code summary"). At 2026-07-28: the
/// envelope, the `_meta` a request must carry, the header rules, a missing client capability
/// and an unsupported version; `-32601` is 404 and a rate limit 429. At 2025-11-25: a refused
/// envelope (not JSON, not a request, no id) is the HTTP request's fault. Every other JSON-RPC
/// error (an unknown tool, a resource not found, a bad cursor, `-32603`) is 200 with the error
/// in the body, as the reference servers answer: a client that reads a 400 as a transport
/// failure (rust-mcp-sdk does) would otherwise lose the error. A host's refusal
/// ([`Refusal`](crate::middleware::Refusal)) travels with the status it chose, at both eras.
pub(super) fn status_of(response: &Response, wire: Wire) -> u16 {
    let Some(error) = response.failure() else {
        return 200;
    };
    if let ProtocolError::Refused(refusal) = error {
        return refusal.status();
    }
    // A shared store that could not answer: the server's own fault, for now, at both eras.
    if let ProtocolError::StoreUnavailable = error {
        return 503;
    }
    match wire {
        Wire::Sessions => {
            let envelope = matches!(error.code(), -32700 | -32600);
            if envelope || response.id().is_none() {
                400
            } else {
                200
            }
        }
        Wire::Stateless => match error {
            ProtocolError::MethodNotFound(_) => 404,
            // The caller's rate limit (`RateLimit`): HTTP's own word for it, with Retry-After.
            ProtocolError::RateLimited { .. } => 429,
            ProtocolError::Json(_)
            | ProtocolError::Batch
            | ProtocolError::NotAnObject(_)
            | ProtocolError::TooLarge
            | ProtocolError::InvalidRequest
            | ProtocolError::TopLevelMeta
            | ProtocolError::ParamsNotObject
            | ProtocolError::MetaNotObject
            | ProtocolError::MetaLacksVersion
            | ProtocolError::MetaLacksCapabilities
            | ProtocolError::MetaRequired
            | ProtocolError::HeaderMismatch(_)
            | ProtocolError::MissingClientCapability(_)
            | ProtocolError::MissingExtension(_)
            | ProtocolError::UnsupportedVersion { .. } => 400,
            _ => 200,
        },
    }
}

/// `response` as an HTTP response, with `Retry-After` on a 2026-07-28 rate limit and on a store
/// that could not answer, and a host refusal's `WWW-Authenticate` challenge.
pub(super) fn respond(response: &Response, wire: Wire) -> HttpResponse {
    respond_with(response, wire, Body::from)
}

/// The same, its body made by `body` from the JSON's bytes (one that holds a slot, say).
pub(super) fn respond_with(
    response: &Response,
    wire: Wire,
    body: impl FnOnce(Vec<u8>) -> Body,
) -> HttpResponse {
    let mut out = json_response(status_of(response, wire), response, false, body);
    if let Some(ProtocolError::Refused(refusal)) = response.failure()
        && let Some(challenge) = refusal.challenge()
        && let Ok(value) = HeaderValue::from_str(challenge)
    {
        out.headers_mut().insert(header::WWW_AUTHENTICATE, value);
    }
    if let Some(ProtocolError::StoreUnavailable) = response.failure() {
        out.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(1u32));
    }
    if wire == Wire::Stateless
        && let Some(error) = response.failure()
    {
        let wait = error
            .data()
            .and_then(|d| d.get("retryAfterMs").and_then(Value::as_u64));
        if let Some(ms) = wait.filter(|_| error.code() == -31429) {
            // Whole seconds, rounded up: Retry-After has no finer unit.
            let seconds = ms.div_ceil(1000).max(1);
            out.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
    }
    out
}
