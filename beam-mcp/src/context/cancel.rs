//! The cancellation flag of one request: set once, seen by sync code and awaited by async code.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Notify;

/// Shared by a request's [`Context`](crate::Context) clones and the transport that serves it.
#[derive(Clone, Default)]
pub(crate) struct CancelToken(Arc<Flag>);

#[derive(Default)]
struct Flag {
    set: AtomicBool,
    wake: Notify,
}

impl CancelToken {
    pub(crate) fn cancel(&self) {
        if !self.0.set.swap(true, Ordering::AcqRel) {
            self.0.wake.notify_waiters();
        }
    }

    pub(crate) fn is_cancelled(&self) -> bool {
        self.0.set.load(Ordering::Acquire)
    }

    /// Completes once [`cancel`](Self::cancel) was called (at once if it already was).
    pub(crate) async fn cancelled(&self) {
        loop {
            let woken = self.0.wake.notified();
            tokio::pin!(woken);
            // Registered before the check, so a cancel between the two is not missed.
            woken.as_mut().enable();
            if self.is_cancelled() {
                return;
            }
            woken.await;
        }
    }
}

impl std::fmt::Debug for CancelToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("CancelToken")
            .field(&self.is_cancelled())
            .finish()
    }
}

impl CancelToken {
    /// True when both are the same request's token.
    pub(crate) fn same(&self, other: &CancelToken) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
