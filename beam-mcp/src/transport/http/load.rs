//! The bound on requests being processed at once by one endpoint
//! ([`max_in_flight_requests`](super::HttpBuilder::max_in_flight_requests)): a request takes a
//! slot when the core hands it to host code, and gives it back when the last byte of its answer
//! is written (or the connection ends). Past the bound it is answered 503 at once, with its id.
//!
//! What takes no slot: whatever the core answers at once (a `ping`, a list, a refusal), a
//! notification, and a client's response to the server's ask. A response never waits behind the
//! requests it would unblock.
//!
//! A 2025-11-25 POST streamed on a session keeps its slot with its work instead of its
//! connection (that era's disconnect does not cancel), and gives it back while it waits on its
//! client's answer to an ask: waiting is no work, and the waits are bounded apart.
//!
//! Listen streams (`subscriptions/listen`, 2025-11-25 GET streams) take none: they do no work
//! while they wait, and each holds a connection, which
//! [`max_connections`](super::HttpBuilder::max_connections) bounds. So does the connection bound
//! hold what comes before the body is read (the `authorize` hooks, a slow body, under
//! `read_timeout`).

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, header};
use axum::response::Response as HttpResponse;
use http_body::{Frame, SizeHint};
use http_body_util::Full as FullBody;
use serde_json::Value;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::refusal::HttpRefusal;

/// How long a client told the endpoint is busy should wait, in seconds: requests end fast, so
/// a slot is usually free by then.
pub(super) const RETRY_AFTER_SECONDS: &str = "1";

/// The endpoint's places for requests being processed, and each principal's share of them.
pub(super) struct Places {
    all: Arc<Semaphore>,
    /// The most one principal may hold at once.
    share: usize,
    /// Places held, by principal; an entry lives while its principal holds one, so the map
    /// never outgrows the bound.
    held: Arc<Mutex<HashMap<u64, usize>>>,
}

/// Why no place was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Full {
    /// Every place is taken.
    All,
    /// The caller holds its whole share.
    Share,
}

impl Places {
    /// `all` places, at most `share` of them to one principal.
    pub(super) fn new(all: usize, share: usize) -> Places {
        Places {
            all: Arc::new(Semaphore::new(all)),
            share,
            held: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// The most one principal may hold at once.
    pub(super) fn share(&self) -> usize {
        self.share
    }

    /// A free place for the principal `key` (`None`: an anonymous caller, held to the bound
    /// alone), or why there is none.
    pub(super) fn take(&self, key: Option<u64>) -> Result<Slot, Full> {
        let Some(key) = key else {
            let permit = Arc::clone(&self.all)
                .try_acquire_owned()
                .map_err(|_| Full::All)?;
            return Ok(Slot {
                _permit: permit,
                _share: None,
                _with: None,
            });
        };
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let count = held.entry(key).or_insert(0);
        if *count >= self.share {
            return Err(Full::Share);
        }
        let Ok(permit) = Arc::clone(&self.all).try_acquire_owned() else {
            if *count == 0 {
                held.remove(&key);
            }
            return Err(Full::All);
        };
        *count += 1;
        Ok(Slot {
            _permit: permit,
            _share: Some(Share {
                held: Arc::clone(&self.held),
                key,
            }),
            _with: None,
        })
    }
}

/// A place counted in its principal's share; given back when dropped.
struct Share {
    held: Arc<Mutex<HashMap<u64, usize>>>,
    key: u64,
}

impl Drop for Share {
    fn drop(&mut self) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = held.get_mut(&self.key) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.key);
            }
        }
    }
}

/// One request's place among those being processed; given back when dropped.
pub(super) struct Slot {
    _permit: OwnedSemaphorePermit,
    _share: Option<Share>,
    /// What else is held as long as the place (a stream's lease in a store shared with other
    /// replicas), given back with it.
    _with: Option<Box<dyn std::any::Any + Send + Sync>>,
}

impl Slot {
    /// The place, holding `held` too, until both are given back.
    pub(super) fn holding(mut self, held: impl std::any::Any + Send + Sync) -> Slot {
        self._with = Some(Box::new(held));
        self
    }

    /// Keeps the slot until `response`'s body is dropped: written to its end, or abandoned
    /// with the connection. A streamed answer (progress, then the result) is still work.
    pub(super) fn hold_until_sent(self, response: HttpResponse) -> HttpResponse {
        response.map(|body| Body::new(Held { body, _slot: self }))
    }

    /// A body of `bytes` that keeps the slot until it is dropped, as
    /// [`hold_until_sent`](Self::hold_until_sent) does, in one allocation rather than two.
    pub(super) fn body(self, bytes: Vec<u8>) -> Body {
        Body::new(Held {
            body: FullBody::new(Bytes::from(bytes)),
            _slot: self,
        })
    }
}

/// A body that holds a slot for as long as it lives.
struct Held<B> {
    body: B,
    _slot: Slot,
}

impl<B: http_body::Body<Data = Bytes> + Unpin> http_body::Body for Held<B> {
    type Data = Bytes;
    type Error = B::Error;

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

/// 503 with `Retry-After` and the request's id; the connection is kept (its body was read).
pub(super) fn busy(id: Option<Value>) -> HttpResponse {
    refused_with(id, HttpRefusal::InFlightFull)
}

/// A listen stream refused: the caller holds its share of the streams open.
pub(super) fn streams_busy(id: Option<Value>) -> HttpResponse {
    refused_with(id, HttpRefusal::StreamsFull)
}

/// A request whose state store could not answer: refused, to be tried again (never answered
/// from a guess).
pub(super) fn store_unavailable() -> HttpResponse {
    refused_with(None, HttpRefusal::StoreUnavailable)
}

fn refused_with(id: Option<Value>, error: HttpRefusal) -> HttpResponse {
    let mut out = super::reply(503, id, error, false);
    out.headers_mut().insert(
        header::RETRY_AFTER,
        HeaderValue::from_static(RETRY_AFTER_SECONDS),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    #[tokio::test]
    async fn a_slot_is_held_until_the_body_is_dropped_and_the_length_is_kept() {
        let places = Places::new(1, 1);
        let slot = places.take(None).unwrap();
        assert_eq!(places.take(None).err(), Some(Full::All), "the bound holds");
        let response = slot.hold_until_sent(HttpResponse::new(Body::from("{}")));
        assert_eq!(http_body::Body::size_hint(response.body()).exact(), Some(2));
        assert_eq!(places.all.available_permits(), 0);
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        assert_eq!(&bytes[..], b"{}");
        assert_eq!(places.all.available_permits(), 1, "freed with the body");
    }

    #[test]
    fn a_principal_holds_at_most_its_share_and_others_are_served() {
        let places = Places::new(4, 2);
        let alice: Vec<Slot> = (0..2).map(|_| places.take(Some(1)).unwrap()).collect();
        assert_eq!(places.take(Some(1)).err(), Some(Full::Share));
        let bob = places.take(Some(2)).unwrap();
        let anonymous = places.take(None).unwrap();
        // Every place is taken now: another principal meets the bound, not its share.
        assert_eq!(places.take(Some(3)).err(), Some(Full::All));
        assert!(
            !places.held.lock().unwrap().contains_key(&3),
            "no entry left behind"
        );
        drop(alice);
        assert!(
            !places.held.lock().unwrap().contains_key(&1),
            "the entry goes at zero"
        );
        let again = places.take(Some(1)).unwrap();
        drop((again, bob, anonymous));
        assert!(places.held.lock().unwrap().is_empty());
        assert_eq!(places.all.available_permits(), 4);
    }

    #[tokio::test]
    async fn busy_is_503_with_retry_after_and_the_id() {
        let response = busy(Some(Value::from(7)));
        assert_eq!(response.status(), 503);
        assert_eq!(response.headers()[header::RETRY_AFTER], "1");
        assert!(response.headers().get(header::CONNECTION).is_none());
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let error: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(error["id"], 7);
        assert_eq!(error["error"]["code"], -32600);
        assert_eq!(
            error["error"]["message"],
            "Too many requests in flight: try again later"
        );
    }
}
