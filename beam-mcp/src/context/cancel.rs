//! The cancellation flag of one request: set once, seen by sync code and awaited by async code.

use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Notify;

/// Lives in the request's shared context, so cancelling costs no allocation of its own.
#[derive(Default)]
pub(crate) struct CancelFlag {
    set: AtomicBool,
    wake: Notify,
}

impl CancelFlag {
    pub(crate) fn cancel(&self) {
        if !self.set.swap(true, Ordering::AcqRel) {
            self.wake.notify_waiters();
        }
    }

    pub(crate) fn is_cancelled(&self) -> bool {
        self.set.load(Ordering::Acquire)
    }

    /// Completes once [`cancel`](Self::cancel) was called (at once if it already was).
    pub(crate) async fn cancelled(&self) {
        loop {
            let woken = self.wake.notified();
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
