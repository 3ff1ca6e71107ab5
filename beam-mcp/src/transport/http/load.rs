//! The bound on requests being processed at once by one endpoint
//! ([`max_in_flight_requests`](super::HttpBuilder::max_in_flight_requests)): a request takes a
//! slot once the door's checks pass, and gives it back when the last byte of its answer is
//! written (or the connection ends). Past the bound it is answered 503 at once. A 2025-11-25
//! POST streamed on a session keeps its slot until its work ends instead: that era's
//! disconnect does not cancel, so the connection's end is not the work's.
//!
//! Listen streams (`subscriptions/listen`, 2025-11-25 GET streams) give their slot back once
//! the stream starts: they do no work while they wait, and each holds a connection, which
//! [`max_connections`](super::HttpBuilder::max_connections) bounds.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response as HttpResponse;
use http_body::{Frame, SizeHint};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How long a client told the endpoint is busy should wait, in seconds: requests end fast, so
/// a slot is usually free by then.
pub(super) const RETRY_AFTER_SECONDS: &str = "1";

/// The refusal as a JSON-RPC error without an id (the body was not read): fixed text, like
/// every message the caller sees.
const BUSY: &str = r#"{"error":{"code":-32600,"message":"Too many requests in flight: try again later"},"jsonrpc":"2.0"}"#;

/// One request's place among those being processed; given back when dropped.
pub(super) struct Slot {
    _permit: OwnedSemaphorePermit,
}

impl Slot {
    /// A free slot, or `None` at the bound.
    pub(super) fn take(slots: &Arc<Semaphore>) -> Option<Slot> {
        let permit = Arc::clone(slots).try_acquire_owned().ok()?;
        Some(Slot { _permit: permit })
    }

    /// Keeps the slot until `response`'s body is dropped: written to its end, or abandoned
    /// with the connection. A streamed answer (progress, then the result) is still work.
    pub(super) fn hold_until_sent(self, response: HttpResponse) -> HttpResponse {
        response.map(|body| Body::new(Held { body, _slot: self }))
    }
}

/// A body that holds a slot for as long as it lives.
struct Held {
    body: Body,
    _slot: Slot,
}

impl http_body::Body for Held {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    // Passed on, so a JSON answer keeps its `content-length`.
    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// 503 with `Retry-After`, the connection closed: the body was not read, and an unread body
/// would otherwise be parsed as the next request.
pub(super) fn busy() -> HttpResponse {
    let mut out = HttpResponse::new(Body::from(BUSY));
    *out.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    let headers = out.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(
        header::RETRY_AFTER,
        HeaderValue::from_static(RETRY_AFTER_SECONDS),
    );
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    #[tokio::test]
    async fn a_slot_is_held_until_the_body_is_dropped_and_the_length_is_kept() {
        let slots = Arc::new(Semaphore::new(1));
        let slot = Slot::take(&slots).unwrap();
        assert!(Slot::take(&slots).is_none(), "the bound holds");
        let response = slot.hold_until_sent(HttpResponse::new(Body::from("{}")));
        assert_eq!(http_body::Body::size_hint(response.body()).exact(), Some(2));
        assert_eq!(slots.available_permits(), 0);
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        assert_eq!(&bytes[..], b"{}");
        assert_eq!(slots.available_permits(), 1, "freed with the body");
    }

    #[tokio::test]
    async fn busy_is_503_with_retry_after_and_closes() {
        let response = busy();
        assert_eq!(response.status(), 503);
        assert_eq!(response.headers()[header::RETRY_AFTER], "1");
        assert_eq!(response.headers()[header::CONNECTION], "close");
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let error: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(error["error"]["code"], -32600);
        assert_eq!(
            error["error"]["message"],
            "Too many requests in flight: try again later"
        );
    }
}
