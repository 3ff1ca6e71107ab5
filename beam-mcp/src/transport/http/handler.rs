//! The axum handler: the door's checks in their order, the host's hooks, the era of each POST,
//! and the core's answer as HTTP (JSON, or an event stream).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, Method, header};
use axum::response::Response as HttpResponse;

use super::hooks::{Authorize, hook, hook_later};
use super::legacy::{self, Legacy};
use super::load::Slot;
use super::refusal::HttpRefusal;
use super::status::{self, Wire};
use super::{Endpoint, body, empty, guard, headers, load, reply, sse};
use crate::context::Principal;
use crate::json::MAX_MESSAGE_BYTES;
use crate::protocol::envelope::Envelope;
use crate::protocol::{Exchange, Logged, ProtocolError, Reply, Revision, Session};

/// The endpoint. Its future is small on purpose: axum boxes it for every request, and a box
/// past the allocator's small sizes costs more than the work it holds. The door's checks, the
/// body and an answer ready at once run inline; what waits or is rare (a hook that decides
/// later, legacy sessions, streams, host code still running) is boxed where it starts, and
/// nothing large is held across a wait (see [`posted`]).
pub(super) fn endpoint(
    State(endpoint): State<Arc<Endpoint>>,
    request: Request,
) -> impl Future<Output = HttpResponse> + Send {
    let (parts, body) = request.into_parts();
    async move { admitted(&endpoint, &parts, body).await }
}

/// A request: the door's checks in their order, the host's hooks, the body, then the answer.
async fn admitted(endpoint: &Endpoint, parts: &Parts, body: Body) -> HttpResponse {
    let sessions = matches!(endpoint.legacy, Some(Legacy::Sessions { .. }));
    if let Err(early) = guard::check(parts, &endpoint.origins, &endpoint.hosts, sessions) {
        return refused_early(early, sessions);
    }
    let decided = match &endpoint.authorize {
        Authorize::Now(authorize) => hook(|| authorize(parts)),
        Authorize::Later(authorize) => {
            Box::pin(hook_later(|| authorize(parts), endpoint.read_timeout)).await
        }
    };
    let principal = match decided {
        Ok(principal) => principal,
        Err(refused) => return refused.response(true),
    };
    // The guard let GET and DELETE through only with a session id, to a session endpoint.
    if let Some(legacy) = &endpoint.legacy
        && (parts.method == Method::GET || parts.method == Method::DELETE)
    {
        return session_request(endpoint, legacy, parts, principal).await;
    }
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_MESSAGE_BYTES as u64) {
        return reply(413, None, ProtocolError::TooLarge, true);
    }
    let bytes = match body::read(body, endpoint.read_timeout).await {
        Ok(bytes) => bytes,
        Err(error) => {
            let (status, error) = error.status_and_error(endpoint.read_timeout);
            tracing::info!(status, reason = %Logged(&error.to_string()), "body refused");
            return reply(status, None, error, true);
        }
    };
    let answered = posted(endpoint, parts, &bytes, principal);
    // The body may be a slice of hyper's read buffer: given back before a long wait (a call
    // still running, a listen stream), not held for as long as it lasts.
    drop(bytes);
    match answered {
        Answered::Now(response) => response,
        Answered::Later(rest) => rest.await,
    }
}

/// The answer to a request the door's first checks refused, before its body is read.
fn refused_early(early: guard::Early, sessions: bool) -> HttpResponse {
    tracing::info!(status = early.status, reason = %Logged(&early.error.to_string()), "refused before the body");
    let mut response = reply(early.status, None, early.error, true);
    if early.allow {
        let allow = if sessions {
            "GET, POST, DELETE"
        } else {
            "POST"
        };
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static(allow));
    }
    response
}

/// A GET (the session's stream) or a DELETE (its end) to a legacy session endpoint.
fn session_request<'e>(
    endpoint: &'e Endpoint,
    legacy: &'e Legacy,
    parts: &'e Parts,
    principal: Principal,
) -> Later<'e> {
    Box::pin(async move {
        if parts.method == Method::GET {
            legacy::get(legacy, parts, &principal, endpoint).await
        } else {
            legacy::delete(legacy, parts, &principal, &endpoint.server).await
        }
    })
}

/// A POST's body, read: the host's body hook, the message, its era, and the core's answer.
/// Not async, so that the message (408 bytes) is never kept in the request's future.
fn posted<'e>(
    endpoint: &'e Endpoint,
    parts: &'e Parts,
    bytes: &[u8],
    principal: Principal,
) -> Answered<'e> {
    if let Some(authorize_body) = &endpoint.authorize_body
        && let Err(refused) = hook(|| authorize_body(parts, bytes))
    {
        return Answered::Now(refused.response(false));
    }
    if bytes.is_empty() {
        return Answered::Now(reply(400, None, HttpRefusal::EmptyBody, false));
    }
    let message = match Envelope::read(&endpoint.server, bytes) {
        Ok(message) => message,
        Err(error) => return Answered::Now(reply(400, None, ProtocolError::from(error), false)),
    };
    if let Some(legacy) = &endpoint.legacy
        && !is_modern(parts, &message)
    {
        return Answered::Later(Box::pin(legacy::post(
            endpoint, legacy, parts, message, principal,
        )));
    }
    answer(endpoint, parts, message, principal)
}

/// The era of a POST (DIGEST §0), never by its method: 2026-07-28 when `params._meta` names a
/// protocol version or client capabilities, or else when `MCP-Protocol-Version` names a
/// version that is not of the legacy era; 2025-11-25 otherwise.
fn is_modern(parts: &Parts, message: &Envelope) -> bool {
    if message.names_modern_era() {
        return true;
    }
    parts
        .headers
        .get("mcp-protocol-version")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| !Revision::is_legacy_era(v.trim()))
}

/// An answer given at once, or the rest of the work, to be awaited.
enum Answered<'e> {
    Now(HttpResponse),
    Later(Later<'e>),
}

/// Work that waits, boxed where it starts so that the request's future stays small.
type Later<'e> = Pin<Box<dyn Future<Output = HttpResponse> + Send + 'e>>;

/// The core answers, calling the header rules at their steps; HTTP adds only the status. A
/// request handed to host code takes an in-flight place, counted in its principal's share,
/// until its answer is written (503 when none is free); a listen stream, which waits without
/// working, takes a place among the streams instead. An answer host code gives at once is
/// answered here, with nothing to wait for.
fn answer<'e>(
    endpoint: &'e Endpoint,
    parts: &Parts,
    message: Envelope,
    principal: Principal,
) -> Answered<'e> {
    let works = message.method() != Some("subscriptions/listen");
    let key = principal.share_key();
    let session = Session::single_request().with_principal_arc(principal);
    let rules = headers::HeaderRules {
        headers: &parts.headers,
        extensions: &parts.extensions,
        version: parts.version,
        server: &endpoint.server,
    };
    let id = message.id().cloned();
    let mut exchange = match endpoint.server.handle_envelope(&session, message, &rules) {
        Reply::Silent => return Answered::Now(empty(202)),
        Reply::Ready(response) => {
            return Answered::Now(status::respond(&response, Wire::Stateless));
        }
        Reply::Pending(exchange) => exchange,
    };
    if !works {
        return Answered::Later(Box::pin(async move {
            match super::stream_lease::take(endpoint, key, id).await {
                Ok(slot) => finish(exchange, slot).await,
                Err(refused) => refused,
            }
        }));
    }
    let slot = match endpoint.in_flight.take(key) {
        Ok(slot) => slot,
        Err(full) => {
            tracing::debug!(?full, "no in-flight place: refused with 503");
            return Answered::Now(load::busy(id));
        }
    };
    // An answer, streamed or not, holds its place until its last byte is written.
    if !exchange.streams()
        && let Some(response) = exchange.answer_now()
    {
        return Answered::Now(status::respond_with(&response, Wire::Stateless, |bytes| {
            slot.body(bytes)
        }));
    }
    Answered::Later(Box::pin(finish(exchange, slot)))
}

/// The rest of an answer that waits: an event stream, or host code still running.
async fn finish(exchange: Exchange, slot: Slot) -> HttpResponse {
    let response = if exchange.streams() {
        sse::response(exchange, Wire::Stateless).await
    } else {
        // Dropped with the connection if the client goes away: that cancels the call.
        match exchange.response().await {
            Some(response) => status::respond(&response, Wire::Stateless),
            None => reply(500, None, ProtocolError::Internal, false),
        }
    };
    slot.hold_until_sent(response)
}
