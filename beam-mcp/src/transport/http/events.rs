//! Where the events of 2025-11-25 session streams are kept, so that a client that lost its
//! connection resumes with `Last-Event-ID` and gets exactly what it missed, or a clear refusal
//! when the store no longer holds all of it.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use axum::body::Bytes;

/// One stored event: its stream within the session, its place in that stream, and the
/// message as written on the wire (the JSON of one `data:` line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEvent {
    /// The stream within the session (0: the session's GET stream; then one per POST stream).
    pub stream: u64,
    /// The event's place in its stream, from 1.
    pub seq: u64,
    /// The message.
    pub data: Bytes,
}

/// Why a resumption cannot be served.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResumeError {
    /// The store no longer holds every event after the one named: a replay would be partial.
    #[error("the events after this one are no longer held")]
    Evicted,
    /// No such stream in this session.
    #[error("no such stream")]
    Unknown,
}

/// Keeps the events of session streams for resumption. The default,
/// [`MemoryEventStore`], holds a bounded number per session in memory; a host behind a
/// balancer may keep them where every replica sees them.
///
/// ```
/// use beam_mcp::transport::http::{EventStore, MemoryEventStore, StoredEvent};
///
/// let store = MemoryEventStore::new(2);
/// for seq in 1..=3 {
///     store.store("s1", StoredEvent { stream: 1, seq, data: format!("{seq}").into() });
/// }
/// // The first event was evicted: resuming after it would skip one, so it is refused.
/// assert!(store.after("s1", 1, 0).is_err());
/// assert_eq!(store.after("s1", 1, 1).unwrap().len(), 2);
/// ```
pub trait EventStore: Send + Sync + 'static {
    /// Keeps one event of a session.
    fn store(&self, session: &str, event: StoredEvent);

    /// Every held event of `stream` after `seq`, in order; an error when an event after `seq`
    /// is no longer held, or the stream is unknown.
    fn after(&self, session: &str, stream: u64, seq: u64) -> Result<Vec<StoredEvent>, ResumeError>;

    /// Forgets a session's events (it ended).
    fn forget(&self, session: &str);
}

/// The default [`EventStore`]: the newest `per_session` events of each session, in memory.
#[derive(Debug)]
pub struct MemoryEventStore {
    per_session: usize,
    sessions: Mutex<HashMap<String, Held>>,
}

#[derive(Debug, Default)]
struct Held {
    events: VecDeque<StoredEvent>,
    /// Per stream, the last seq evicted: a resumption at or before it would be partial.
    evicted: HashMap<u64, u64>,
}

impl MemoryEventStore {
    /// A store holding the newest `per_session` events of each session (at least 1).
    pub fn new(per_session: usize) -> Self {
        MemoryEventStore {
            per_session: per_session.max(1),
            sessions: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Held>> {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Default for MemoryEventStore {
    /// 1000 events per session.
    fn default() -> Self {
        MemoryEventStore::new(1000)
    }
}

impl EventStore for MemoryEventStore {
    fn store(&self, session: &str, event: StoredEvent) {
        let mut sessions = self.lock();
        let held = sessions.entry(session.to_owned()).or_default();
        held.events.push_back(event);
        while held.events.len() > self.per_session {
            if let Some(old) = held.events.pop_front() {
                held.evicted.insert(old.stream, old.seq);
            }
        }
        // Remember evictions for the newest streams only: an older stream is one the session
        // forgot too, and a resumption of it is refused either way.
        if held.evicted.len() > 4096 {
            let mut streams: Vec<u64> = held.evicted.keys().copied().collect();
            streams.sort_unstable();
            for stream in &streams[..streams.len() - 4096] {
                held.evicted.remove(stream);
            }
        }
    }

    fn after(&self, session: &str, stream: u64, seq: u64) -> Result<Vec<StoredEvent>, ResumeError> {
        let sessions = self.lock();
        let Some(held) = sessions.get(session) else {
            return Err(ResumeError::Unknown);
        };
        let known =
            held.evicted.contains_key(&stream) || held.events.iter().any(|e| e.stream == stream);
        if !known {
            return Err(ResumeError::Unknown);
        }
        if held.evicted.get(&stream).is_some_and(|&gone| gone > seq) {
            return Err(ResumeError::Evicted);
        }
        Ok(held
            .events
            .iter()
            .filter(|e| e.stream == stream && e.seq > seq)
            .cloned()
            .collect())
    }

    fn forget(&self, session: &str) {
        self.lock().remove(session);
    }
}
