//! A principal's share of the listen streams, counted across replicas: each open stream holds a
//! lease in a shared store, renewed while it lives and given back when it ends, so a replica
//! that dies without giving its leases back holds them only until they lapse.

use std::sync::Arc;
use std::time::Duration;

use super::{StoreError, StoreFuture};

/// Where the replicas of one HTTP endpoint count each principal's open listen streams
/// (`subscriptions/listen`, 2025-11-25 GET streams), so
/// `HttpBuilder::max_streams_per_principal` holds across them. The Redis engine implements it
/// (`redis::Redis::streams`, feature `redis`); give it to `HttpBuilder::stream_share`.
///
/// ```
/// use beam_mcp::store::{StoreError, StoreFuture, StreamShare};
/// use std::collections::HashMap;
/// use std::sync::Mutex;
/// use std::time::Duration;
///
/// /// One process's map, standing in for a shared store (leases never lapse here).
/// #[derive(Default)]
/// struct InProcess(Mutex<HashMap<u64, Vec<String>>>);
///
/// impl StreamShare for InProcess {
///     fn open(&self, share: u64, stream: &str, _lease: Duration, most: usize) -> StoreFuture<Result<bool, StoreError>> {
///         let mut map = self.0.lock().unwrap();
///         let held = map.entry(share).or_default();
///         if held.len() >= most {
///             return StoreFuture::ready(Ok(false));
///         }
///         held.push(stream.to_owned());
///         StoreFuture::ready(Ok(true))
///     }
///     fn renew(&self, _share: u64, _stream: &str, _lease: Duration) -> StoreFuture<Result<(), StoreError>> {
///         StoreFuture::ready(Ok(()))
///     }
///     fn close(&self, share: u64, stream: &str) -> StoreFuture<Result<(), StoreError>> {
///         let mut map = self.0.lock().unwrap();
///         map.entry(share).or_default().retain(|s| s != stream);
///         StoreFuture::ready(Ok(()))
///     }
/// }
///
/// let store = InProcess::default();
/// let lease = Duration::from_secs(60);
/// assert!(store.open(7, "a", lease, 1).into_ready().unwrap().unwrap());
/// assert!(!store.open(7, "b", lease, 1).into_ready().unwrap().unwrap(), "past the share");
/// assert!(store.open(8, "c", lease, 1).into_ready().unwrap().unwrap(), "another principal");
/// store.close(7, "a").into_ready().unwrap().unwrap();
/// assert!(store.open(7, "b", lease, 1).into_ready().unwrap().unwrap());
/// ```
pub trait StreamShare: Send + Sync + 'static {
    /// Counts stream `stream` (unique among every replica's) of the principal `share`, to
    /// lapse after `lease` unless renewed; unless that principal holds `most` streams already,
    /// across every replica: then `false`, and nothing is counted.
    fn open(
        &self,
        share: u64,
        stream: &str,
        lease: Duration,
        most: usize,
    ) -> StoreFuture<Result<bool, StoreError>>;

    /// Pushes the lease of an open stream `lease` on from now.
    fn renew(
        &self,
        share: u64,
        stream: &str,
        lease: Duration,
    ) -> StoreFuture<Result<(), StoreError>>;

    /// The stream ended: it no longer counts.
    fn close(&self, share: u64, stream: &str) -> StoreFuture<Result<(), StoreError>>;
}

impl<T: StreamShare + ?Sized> StreamShare for Arc<T> {
    fn open(
        &self,
        share: u64,
        stream: &str,
        lease: Duration,
        most: usize,
    ) -> StoreFuture<Result<bool, StoreError>> {
        (**self).open(share, stream, lease, most)
    }

    fn renew(
        &self,
        share: u64,
        stream: &str,
        lease: Duration,
    ) -> StoreFuture<Result<(), StoreError>> {
        (**self).renew(share, stream, lease)
    }

    fn close(&self, share: u64, stream: &str) -> StoreFuture<Result<(), StoreError>> {
        (**self).close(share, stream)
    }
}
