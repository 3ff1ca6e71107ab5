//! A request's answer as `text/event-stream`: its notifications, then its response, one
//! `event: message` each with the JSON on one `data:` line (no `id:`: 2026-07-28 streams are
//! not resumed). The client closing the stream cancels the request.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response as HttpResponse;
use http_body::Frame;
use tokio::sync::mpsc;

use super::status::{self, Wire};
use crate::protocol::{Exchange, Outbound};

/// Events buffered between the exchange and the connection.
pub(super) const BUFFER: usize = 16;

/// How often a quiet stream (a subscription) sends a comment, so that proxies keep it open.
pub(super) const KEEP_ALIVE: std::time::Duration = std::time::Duration::from_secs(15);

/// One event as written on the wire.
pub(super) struct Event;

impl Event {
    /// `event: message`, with an `id: <stream>-<seq>` when the stream is resumable, and the
    /// JSON on one `data:` line.
    pub(super) fn message(id: Option<(u64, u64)>, json: &[u8]) -> Bytes {
        let mut event = Vec::with_capacity(json.len() + 48);
        if let Some((stream, seq)) = id {
            event.extend_from_slice(format!("id: {stream}-{seq}\n").as_bytes());
        }
        event.extend_from_slice(b"event: message\ndata: ");
        event.extend_from_slice(json);
        event.extend_from_slice(b"\n\n");
        Bytes::from(event)
    }

    /// The first event of a resumable stream: an id and empty data, a point to resume from.
    pub(super) fn priming(stream: u64, seq: u64) -> Bytes {
        Bytes::from(format!("id: {stream}-{seq}\ndata: \n\n"))
    }
}

/// Streams `exchange`'s messages; the driving task ends, dropping (and so cancelling) the
/// exchange, when the client goes away.
///
/// The header waits for the first event (at most [`KEEP_ALIVE`], then a keep-alive comment
/// goes first), so both leave in one write: a header written alone left the first event to a
/// second small write, which a client's delayed ACK held up by 40 ms wherever Nagle's algorithm
/// is on (a host's own server, say). A client that goes away meanwhile drops this future, and
/// with it the exchange.
///
/// A response that comes first and alone with a status of its own (a refusal: 403 for a
/// missing scope, 429 for a rate limit, ...) is answered as JSON with that status: a stream's
/// status is 200, and a client stepping up its token reads the 403.
pub(super) async fn response(mut exchange: Exchange, wire: Wire) -> HttpResponse {
    let (tx, rx) = mpsc::channel::<Bytes>(BUFFER);
    let (first, last) = match tokio::time::timeout(KEEP_ALIVE, exchange.next()).await {
        Ok(Some(Outbound::Response(response))) if status::status_of(&response, wire) != 200 => {
            return status::respond(&response, wire);
        }
        Ok(Some(message)) => (encode(&message), matches!(message, Outbound::Response(_))),
        // No message at all (the request was cancelled as it started): an empty stream.
        Ok(None) => return stream_response(rx),
        Err(_) => (Bytes::from_static(KEEP_ALIVE_COMMENT), false),
    };
    // The channel is new and empty: the first event always fits.
    let _ = tx.try_send(first);
    if last {
        // The response came first (nothing was sent before it): the stream is that one event,
        // ended with it, with no task to wait for.
        return stream_response(rx);
    }
    tokio::spawn(async move {
        let mut keep_alive = tokio::time::interval(KEEP_ALIVE);
        keep_alive.tick().await;
        loop {
            let message = tokio::select! {
                message = exchange.next() => message,
                () = tx.closed() => return,
                _ = keep_alive.tick() => {
                    if tx.send(Bytes::from_static(KEEP_ALIVE_COMMENT)).await.is_err() {
                        return;
                    }
                    continue;
                }
            };
            let Some(message) = message else { return };
            if tx.send(encode(&message)).await.is_err() {
                return;
            }
        }
    });
    stream_response(rx)
}

/// The comment a quiet stream sends every [`KEEP_ALIVE`].
pub(super) const KEEP_ALIVE_COMMENT: &[u8] = b": keep-alive\n\n";

/// One message of a stream that is not resumed, as its event.
fn encode(message: &Outbound) -> Bytes {
    let mut json = Vec::with_capacity(256);
    message.write_to(&mut json);
    Event::message(None, &json)
}

/// The `200 text/event-stream` response whose body is what `rx` yields.
pub(super) fn stream_response(rx: mpsc::Receiver<Bytes>) -> HttpResponse {
    let mut out = HttpResponse::new(Body::new(Events { rx }));
    *out.status_mut() = StatusCode::OK;
    let headers = out.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    out
}

/// The response body: each event as one data frame, the end when the exchange ends.
struct Events {
    rx: mpsc::Receiver<Bytes>,
}

impl http_body::Body for Events {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        self.rx
            .poll_recv(cx)
            .map(|event| event.map(|bytes| Ok(Frame::data(bytes))))
    }
}
