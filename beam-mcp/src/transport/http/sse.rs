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

use crate::protocol::Exchange;

/// Events buffered between the exchange and the connection.
const BUFFER: usize = 16;

/// How often a quiet stream (a subscription) sends a comment, so that proxies keep it open.
const KEEP_ALIVE: std::time::Duration = std::time::Duration::from_secs(15);

/// Starts streaming `exchange`'s messages; the driving task ends, dropping (and so cancelling)
/// the exchange, when the client goes away.
pub(super) fn response(mut exchange: Exchange) -> HttpResponse {
    let (tx, rx) = mpsc::channel::<Bytes>(BUFFER);
    tokio::spawn(async move {
        let mut keep_alive = tokio::time::interval(KEEP_ALIVE);
        keep_alive.tick().await;
        loop {
            let message = tokio::select! {
                message = exchange.next() => message,
                () = tx.closed() => return,
                _ = keep_alive.tick() => {
                    if tx.send(Bytes::from_static(b": keep-alive\n\n")).await.is_err() {
                        return;
                    }
                    continue;
                }
            };
            let Some(message) = message else { return };
            let mut event = Vec::with_capacity(256);
            event.extend_from_slice(b"event: message\ndata: ");
            message.write_to(&mut event);
            event.extend_from_slice(b"\n\n");
            if tx.send(Bytes::from(event)).await.is_err() {
                return;
            }
        }
    });
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
