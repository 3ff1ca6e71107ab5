//! The seam of shared state: what a store answers, now or later.
//!
//! State that replicas behind a balancer must share (the events of resumable streams, rate
//! limits) sits behind host-implementable traits ([`EventStore`], [`RateLimit`]). An in-memory
//! implementation answers at once; one over a network store answers later. Both return a
//! [`StoreFuture`], so the in-memory default costs no allocation and no await.
//!
#![cfg_attr(
    feature = "http",
    doc = "[`EventStore`]: crate::transport::http::EventStore"
)]
#![cfg_attr(not(feature = "http"), doc = "[`EventStore`]: self")]
//! [`RateLimit`]: crate::limit::RateLimit

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// A store's answer: ready now (memory), or a future that yields it (a network store).
///
/// Await it anywhere; [`into_ready`](Self::into_ready) takes a ready answer without a runtime.
///
/// ```
/// use beam_mcp::store::StoreFuture;
///
/// assert_eq!(StoreFuture::ready(7).into_ready().ok(), Some(7));
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let later = StoreFuture::later(async { 7 });
/// assert!(later.into_ready().is_err(), "a future is not ready before it is polled");
/// assert_eq!(StoreFuture::later(async { 7 }).await, 7);
/// # });
/// ```
#[must_use = "a store's answer does nothing unless it is read"]
pub struct StoreFuture<T>(Inner<T>);

enum Inner<T> {
    /// Taken once: polled again after it yielded, it panics (as a finished future may).
    Ready(Option<T>),
    Later(Pin<Box<dyn Future<Output = T> + Send>>),
}

impl<T> StoreFuture<T> {
    /// An answer known now.
    pub fn ready(value: T) -> StoreFuture<T> {
        StoreFuture(Inner::Ready(Some(value)))
    }

    /// An answer `future` yields. It owns what it needs (`'static`): a store copies the key it
    /// asks for into it.
    pub fn later(future: impl Future<Output = T> + Send + 'static) -> StoreFuture<T> {
        StoreFuture(Inner::Later(Box::pin(future)))
    }

    /// The answer if it is known now, or this future to await.
    pub fn into_ready(self) -> Result<T, StoreFuture<T>> {
        match self.0 {
            Inner::Ready(Some(value)) => Ok(value),
            other => Err(StoreFuture(other)),
        }
    }
}

impl<T> From<T> for StoreFuture<T> {
    fn from(value: T) -> StoreFuture<T> {
        StoreFuture::ready(value)
    }
}

// Neither variant is pinned in place: the value moves out, the future is boxed.
impl<T> Unpin for StoreFuture<T> {}

impl<T> Future for StoreFuture<T> {
    type Output = T;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        match &mut self.0 {
            Inner::Ready(value) => Poll::Ready(value.take().expect("a ready answer is taken once")),
            Inner::Later(future) => future.as_mut().poll(cx),
        }
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for StoreFuture<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Inner::Ready(value) => f.debug_tuple("StoreFuture::Ready").field(value).finish(),
            Inner::Later(_) => f.write_str("StoreFuture::Later(..)"),
        }
    }
}

/// A store that could not answer: unreachable, timed out, or refusing. The request that needed
/// it is refused (never answered from a guess), and the store's own words are logged, not sent.
///
/// ```
/// use beam_mcp::store::StoreError;
///
/// let error = StoreError::unavailable("redis at 10.0.0.5:6379: connection refused");
/// assert_eq!(error.to_string(), "the state store is unavailable");
/// assert_eq!(error.detail(), "redis at 10.0.0.5:6379: connection refused");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the state store is unavailable")]
pub struct StoreError {
    detail: String,
}

impl StoreError {
    /// The store could not answer; `detail` says why, for the log.
    pub fn unavailable(detail: impl Into<String>) -> StoreError {
        StoreError {
            detail: detail.into(),
        }
    }

    /// Why, in the store's words (for the log: never sent to a client).
    pub fn detail(&self) -> &str {
        &self.detail
    }
}

/// A shared store's answer to "are you there?", for a health route: a balancer stops sending
/// work to a replica whose store is gone, rather than have every request refused there.
///
/// ```
/// use beam_mcp::store::{Probe, StoreError, StoreFuture};
///
/// struct AlwaysThere;
/// impl Probe for AlwaysThere {
///     fn probe(&self) -> StoreFuture<Result<(), StoreError>> {
///         StoreFuture::ready(Ok(()))
///     }
/// }
/// assert_eq!(AlwaysThere.probe().into_ready().unwrap(), Ok(()));
/// ```
pub trait Probe: Send + Sync + 'static {
    /// `Ok` when the store answers now; the implementation bounds how long it waits.
    fn probe(&self) -> StoreFuture<Result<(), StoreError>>;
}

pub(crate) mod sessions;
pub(crate) mod streams;
pub(crate) mod tasks;

pub use sessions::{SessionDelivery, SessionRelay, SessionShare, SharedSession};
pub use streams::StreamShare;
pub use tasks::{SharedTask, TaskDelivery, TaskRelay, TaskShare};
