//! What one stdio process (a legacy session) remembers between messages.

use std::sync::atomic::{AtomicBool, Ordering};

/// Per-connection state: tracked, never enforced (every method works without a handshake).
///
/// ```
/// let session = beam_mcp::protocol::Session::new();
/// assert!(!session.is_initialized());
/// assert!(!session.is_closed());
/// ```
#[derive(Debug, Default)]
pub struct Session {
    initialized: AtomicBool,
    closed: AtomicBool,
}

impl Session {
    /// A fresh session.
    pub fn new() -> Self {
        Self::default()
    }

    /// True once `notifications/initialized` (or `initialize`) was seen.
    pub fn is_initialized(&self) -> bool {
        self.initialized.load(Ordering::Relaxed)
    }

    /// True after `shutdown` or `exit`: the transport stops reading.
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Relaxed)
    }

    pub(crate) fn mark_initialized(&self) {
        self.initialized.store(true, Ordering::Relaxed);
    }

    pub(crate) fn close(&self) {
        self.closed.store(true, Ordering::Relaxed);
    }
}
