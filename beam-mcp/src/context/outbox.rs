//! The bounded queue of one request's notifications, between host code (which never waits)
//! and the transport (which drains it before the response).

use std::collections::VecDeque;
use std::sync::Mutex;

use serde_json::Value;
use tokio::sync::Notify;

/// Notifications waiting to be written for one request.
pub(crate) struct Outbox {
    state: Mutex<State>,
    wake: Notify,
    capacity: usize,
}

struct State {
    queue: VecDeque<Queued>,
    closed: bool,
    dropped: u64,
}

struct Queued {
    merge: Option<&'static str>,
    message: Value,
}

/// Why a notification was not queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refused {
    /// The response was produced: nothing may follow it.
    Closed,
    /// The queue is full of messages that cannot be merged.
    Full,
}

impl Default for Outbox {
    /// A connection's queue of unsolicited notifications.
    fn default() -> Self {
        Outbox::new(256)
    }
}

impl Outbox {
    pub(crate) fn new(capacity: usize) -> Self {
        Outbox {
            state: Mutex::new(State {
                queue: VecDeque::new(),
                closed: false,
                dropped: 0,
            }),
            wake: Notify::new(),
            capacity: capacity.max(1),
        }
    }

    /// Queues a notification. When the queue is full (the client reads slowly), one with a
    /// `merge` key replaces a waiting one with the same key (a newer progress update says more;
    /// a second "the list changed" says nothing new); anything else is refused.
    pub(crate) fn push(&self, message: Value, merge: Option<&'static str>) -> Result<(), Refused> {
        let mut state = self.lock();
        if state.closed {
            return Err(Refused::Closed);
        }
        if state.queue.len() >= self.capacity {
            if merge.is_some()
                && let Some(waiting) = state.queue.iter_mut().rev().find(|q| q.merge == merge)
            {
                waiting.message = message;
                return Ok(());
            }
            state.dropped += 1;
            return Err(Refused::Full);
        }
        state.queue.push_back(Queued { merge, message });
        drop(state);
        self.wake.notify_one();
        Ok(())
    }

    /// Nothing is queued.
    pub(crate) fn is_empty(&self) -> bool {
        self.lock().queue.is_empty()
    }

    /// The next waiting notification, if any.
    pub(crate) fn pop(&self) -> Option<Value> {
        self.lock().queue.pop_front().map(|q| q.message)
    }

    /// Refuses every later push; what is queued is still drained. Returns how many were
    /// dropped because the queue was full.
    pub(crate) fn close(&self) -> u64 {
        let mut state = self.lock();
        state.closed = true;
        state.dropped
    }

    /// Wakes one waiter of [`pushed`](Self::pushed) (a reader handing its turn to another).
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "used by the HTTP transport")
    )]
    pub(crate) fn nudge(&self) {
        self.wake.notify_one();
    }

    /// Completes when a push may have happened since the last call.
    pub(crate) async fn pushed(&self) {
        self.wake.notified().await;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while holding this lock cannot leave the queue half-changed.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn progress_merges_only_when_full_and_the_bound_holds() {
        let outbox = Outbox::new(2);
        outbox.push(json!(1), Some("progress")).unwrap();
        outbox.push(json!("log"), None).unwrap();
        // Full: the newer progress replaces the waiting one; a log is refused.
        outbox.push(json!(2), Some("progress")).unwrap();
        assert_eq!(outbox.push(json!("log2"), None), Err(Refused::Full));
        assert_eq!(outbox.pop(), Some(json!(2)));
        outbox.push(json!(3), Some("progress")).unwrap();
        assert_eq!(outbox.pop(), Some(json!("log")));
        assert_eq!(outbox.pop(), Some(json!(3)));
        assert_eq!(outbox.pop(), None);
        assert_eq!(outbox.close(), 1);
        assert_eq!(
            outbox.push(json!(3), Some("progress")),
            Err(Refused::Closed)
        );
    }
}
