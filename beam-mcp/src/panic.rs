//! Turns a panic inside host code into a value, so one bad tool never takes the server down.

use std::any::Any;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

/// Polls the inner future, catching a panic from any poll.
pub(crate) struct CatchUnwind<F> {
    inner: F,
}

impl<F: Future + Unpin> CatchUnwind<F> {
    pub(crate) fn new(inner: F) -> Self {
        Self { inner }
    }

    /// Calls host code that returns a future; a panic in the call itself (a hand-written
    /// handler may panic before returning its future) is caught like one in the future.
    pub(crate) fn start(call: impl FnOnce() -> F) -> Result<Self, String> {
        catch(call).map(Self::new)
    }
}

impl<F: Future + Unpin> Future for CatchUnwind<F> {
    type Output = Result<F::Output, String>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = Pin::new(&mut self.inner);
        // The future is dropped after a panic, never polled again, so no broken state is seen.
        match catch_unwind(AssertUnwindSafe(|| inner.poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(value)) => Poll::Ready(Ok(value)),
            Err(payload) => Poll::Ready(Err(panic_message(payload.as_ref()))),
        }
    }
}

/// The panic's message, for the log only.
fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a non-string panic payload".to_owned()
    }
}

/// Runs synchronous host code (a completer), catching a panic.
pub(crate) fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| panic_message(payload.as_ref()))
}
