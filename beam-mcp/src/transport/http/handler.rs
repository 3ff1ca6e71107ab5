//! The axum handler: the door's checks in their order, the host's hooks, the era of each POST,
//! and the core's answer as HTTP (JSON, or an event stream).

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, header};
use axum::response::Response as HttpResponse;

use super::hooks::{Authorize, hook, hook_later};
use super::legacy::{self, Legacy};
use super::refusal::HttpRefusal;
use super::status::{self, Wire};
use super::{Endpoint, body, empty, guard, headers, load, reply, sse};
use crate::Server;
use crate::json::MAX_MESSAGE_BYTES;
use crate::protocol::envelope::Envelope;
use crate::protocol::{Logged, ProtocolError, Reply, Revision, Session};

pub(super) async fn endpoint(
    State(endpoint): State<Arc<Endpoint>>,
    request: Request,
) -> HttpResponse {
    let (parts, body) = request.into_parts();
    let sessions = matches!(endpoint.legacy, Some(Legacy::Sessions { .. }));
    if let Err(early) = guard::check(&parts, &endpoint.origins, &endpoint.hosts, sessions) {
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
        return response;
    }
    admitted(&endpoint, parts, body).await
}

/// A request past the door's checks. It takes an in-flight slot only when the core hands it to
/// host code (see [`load`]); a listen stream (`subscriptions/listen`) takes none, since it waits
/// without working and holds a connection, which `max_connections` bounds.
async fn admitted(endpoint: &Endpoint, parts: Parts, body: Body) -> HttpResponse {
    let decided = match &endpoint.authorize {
        Authorize::Now(authorize) => hook(|| authorize(&parts)),
        Authorize::Later(authorize) => {
            hook_later(|| authorize(&parts), endpoint.read_timeout).await
        }
    };
    let principal = match decided {
        Ok(principal) => principal,
        Err(refused) => return refused.response(true),
    };
    // The guard let GET and DELETE through only with a session id, to a session endpoint.
    if let Some(legacy) = &endpoint.legacy {
        if parts.method == axum::http::Method::GET {
            return legacy::get(legacy, &parts, &principal, endpoint).await;
        }
        if parts.method == axum::http::Method::DELETE {
            return legacy::delete(legacy, &parts, &principal, &endpoint.server).await;
        }
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
    if let Some(authorize_body) = &endpoint.authorize_body
        && let Err(refused) = hook(|| authorize_body(&parts, &bytes))
    {
        return refused.response(false);
    }
    if bytes.is_empty() {
        return reply(400, None, HttpRefusal::EmptyBody, false);
    }
    let message = match Envelope::read(&bytes) {
        Ok(message) => message,
        Err(error) => return reply(400, None, ProtocolError::from(error), false),
    };
    if let Some(legacy) = &endpoint.legacy
        && !is_modern(&parts, &message)
    {
        return legacy::post(endpoint, legacy, &parts, message, principal).await;
    }
    let works = message.method() != Some("subscriptions/listen");
    let key = principal.share_key();
    let session = Session::single_request().with_principal_arc(principal);
    // Work takes an in-flight place; a listen stream, which waits without working, a place
    // among the streams, in its principal's share.
    let places = if works {
        Places::InFlight(&endpoint.in_flight, key)
    } else {
        Places::Streams(endpoint, key)
    };
    answer(&endpoint.server, &parts, message, session, places).await
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

/// Where a request takes its place, under its principal's key.
enum Places<'e> {
    InFlight(&'e load::Places, Option<u64>),
    Streams(&'e super::Endpoint, Option<u64>),
}

/// The core answers, calling the header rules at their steps; HTTP adds only the status. A
/// request handed to host code takes a slot of `places`, counted in its principal's share (the
/// key), until its answer is written (503 when none is free).
async fn answer(
    server: &Server,
    parts: &Parts,
    message: Envelope,
    session: Session,
    places: Places<'_>,
) -> HttpResponse {
    let rules = headers::HeaderRules {
        headers: &parts.headers,
        extensions: &parts.extensions,
        version: parts.version,
        server,
    };
    let id = message.id().cloned();
    let exchange = match server.handle_envelope(&session, message, &rules) {
        Reply::Silent => return empty(202),
        Reply::Ready(response) => return status::respond(&response, Wire::Stateless),
        Reply::Pending(exchange) => exchange,
    };
    let slot = match places {
        Places::InFlight(places, key) => places.take(key).map_err(|full| {
            tracing::debug!(?full, "no in-flight place: refused with 503");
            load::busy(id)
        }),
        Places::Streams(endpoint, key) => super::stream_lease::take(endpoint, key, id).await,
    };
    let slot = match slot {
        Ok(slot) => slot,
        Err(refused) => return refused,
    };
    let response = if exchange.streams() {
        sse::response(exchange, Wire::Stateless).await
    } else {
        // Dropped with the connection if the client goes away: that cancels the call.
        match exchange.response().await {
            Some(response) => status::respond(&response, Wire::Stateless),
            None => reply(500, None, ProtocolError::Internal, false),
        }
    };
    // An answer, streamed or not, holds its place until its last byte is written.
    slot.hold_until_sent(response)
}
