//! A listen stream's place in its principal's share across replicas
//! ([`stream_share`](super::HttpBuilder::stream_share)): the place this replica gives comes
//! first, then a lease in the shared store, renewed while the stream lives and given back when
//! it ends.

use std::sync::Arc;
use std::time::Duration;

use axum::response::Response as HttpResponse;
use serde_json::Value;
use tokio::task::JoinHandle;

use super::Endpoint;
use super::load::{self, Slot};
use crate::store::StreamShare;

/// How long a stream's lease lasts unless renewed: what a replica that died without giving its
/// streams back holds of its principals' shares, at most.
pub(super) const LEASE: Duration = Duration::from_secs(60);

/// How often an open stream renews its lease: three times a lease, so one renewal lost to a
/// store's blink does not let it lapse.
const RENEWAL: Duration = Duration::from_secs(20);

/// A place among the endpoint's streams for principal `key` (`None`: one that tells no caller
/// apart, held to the connection bound alone), within its share on this replica and, where
/// streams are shared, across every replica; or the refusal (503 with `Retry-After`), with the
/// request's `id`.
pub(super) async fn take(
    endpoint: &Endpoint,
    key: Option<u64>,
    id: Option<Value>,
) -> Result<Slot, HttpResponse> {
    let slot = endpoint.streams.take(key).map_err(|full| {
        tracing::debug!(?full, "no place for a stream: refused with 503");
        load::streams_busy(id.clone())
    })?;
    let (Some(share), Some(key)) = (&endpoint.stream_share, key) else {
        return Ok(slot);
    };
    let stream = super::sessions::new_id();
    match share
        .open(key, &stream, LEASE, endpoint.streams.share())
        .await
    {
        Ok(true) => Ok(slot.holding(Lease::hold(Arc::clone(share), key, stream))),
        Ok(false) => {
            tracing::debug!("the principal holds its share of the streams across replicas: 503");
            Err(load::streams_busy(id))
        }
        Err(error) => {
            tracing::warn!(
                detail = error.detail(),
                "stream share: the store did not answer"
            );
            Err(load::store_unavailable())
        }
    }
}

/// A stream's lease in the shared store: renewed while held, given back when dropped.
struct Lease {
    renewing: JoinHandle<()>,
    share: Arc<dyn StreamShare>,
    key: u64,
    stream: String,
}

impl Lease {
    fn hold(share: Arc<dyn StreamShare>, key: u64, stream: String) -> Lease {
        let renewing = tokio::spawn({
            let (share, stream) = (Arc::clone(&share), stream.clone());
            async move {
                let mut every = tokio::time::interval(RENEWAL);
                every.tick().await;
                loop {
                    every.tick().await;
                    // A renewal the store missed is tried again at the next tick; the lease
                    // lasts three of them.
                    if let Err(error) = share.renew(key, &stream, LEASE).await {
                        tracing::debug!(detail = error.detail(), "stream lease not renewed");
                    }
                }
            }
        });
        Lease {
            renewing,
            share,
            key,
            stream,
        }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        self.renewing.abort();
        let closed = self.share.close(self.key, &self.stream);
        // Without a runtime (it is shutting down) the lease lapses by itself.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                if let Err(error) = closed.await {
                    tracing::debug!(detail = error.detail(), "stream lease not given back");
                }
            });
        }
    }
}
