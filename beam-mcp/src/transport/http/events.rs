//! Where the events of 2025-11-25 session streams are kept, so that a client that lost its
//! connection resumes with `Last-Event-ID` and gets exactly what it missed, or a clear refusal
//! when the store no longer holds all of it.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use axum::body::Bytes;

use crate::caller_text::Logged;
use crate::store::{StoreError, StoreFuture};

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
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResumeError {
    /// The store no longer holds every event after the one named: a replay would be partial.
    #[error("the events after this one are no longer held")]
    Evicted,
    /// No such stream in this session.
    #[error("no such stream")]
    Unknown,
    /// The store could not answer.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Keeps the events of session streams for resumption. The default,
/// [`MemoryEventStore`], holds a bounded number per session in memory and answers at once; a
/// host behind a balancer may keep them where every replica sees them, answering later
/// ([`StoreFuture::later`]) and failing with a [`StoreError`] when the store cannot be reached.
///
/// ```
/// use beam_mcp::transport::http::{EventStore, MemoryEventStore, StoredEvent};
///
/// let store = MemoryEventStore::new(2);
/// let store: &dyn EventStore = &store;
/// /// A memory store's answer, ready at once.
/// fn now<T>(answer: beam_mcp::store::StoreFuture<T>) -> T {
///     answer.into_ready().unwrap_or_else(|_| panic!("a memory store answers at once"))
/// }
/// for seq in 1..=3 {
///     let event = StoredEvent { stream: 1, seq, data: format!("{seq}").into() };
///     now(store.store("s1", event)).unwrap();
/// }
/// // The first event was evicted: resuming after it would skip one, so it is refused.
/// assert!(now(store.after("s1", 1, 0)).is_err());
/// assert_eq!(now(store.after("s1", 1, 1)).unwrap().len(), 2);
/// ```
pub trait EventStore: Send + Sync + 'static {
    /// Keeps one event of a session.
    fn store(&self, session: &str, event: StoredEvent) -> StoreFuture<Result<(), StoreError>>;

    /// Keeps one event of a session opened by the principal whose share key is `owner` (`None`:
    /// a principal that tells no caller apart), so that a store can hold each principal to a
    /// share of what it keeps. The endpoint calls this one; the default forgets the owner.
    ///
    /// ```
    /// use beam_mcp::transport::http::{EventStore, MemoryEventStore, StoredEvent};
    ///
    /// let store = MemoryEventStore::new(10);
    /// let event = StoredEvent { stream: 1, seq: 1, data: "{}".into() };
    /// let kept = EventStore::store_owned(&store, "s1", Some(7), event);
    /// assert_eq!(kept.into_ready().unwrap(), Ok(()));
    /// assert_eq!(store.after("s1", 1, 0).unwrap().len(), 1);
    /// ```
    fn store_owned(
        &self,
        session: &str,
        owner: Option<u64>,
        event: StoredEvent,
    ) -> StoreFuture<Result<(), StoreError>> {
        let _ = owner;
        self.store(session, event)
    }

    /// Every held event of `stream` after `seq`, in order; an error when an event after `seq`
    /// is no longer held, the stream is unknown, or the store cannot answer.
    fn after(
        &self,
        session: &str,
        stream: u64,
        seq: u64,
    ) -> StoreFuture<Result<Vec<StoredEvent>, ResumeError>>;

    /// Forgets a session's events (it ended).
    fn forget(&self, session: &str) -> StoreFuture<Result<(), StoreError>>;
}

/// Logs a store's failure to forget a session's events (they outlive it there until the store
/// expires them).
pub(super) fn forgotten(result: Result<(), StoreError>) {
    if let Err(error) = result {
        tracing::error!(detail = %Logged(error.detail()), "a session's events could not be forgotten");
    }
}

/// The default [`EventStore`]: the newest events of each session, in memory, bounded four
/// ways: a number of events per session (default 1000), bytes per session (default 16 MiB),
/// bytes per principal across its sessions (default a quarter of the total) and bytes in all
/// (default 64 MiB). Past a session's bounds its own oldest events go; past a principal's
/// share, the oldest events of any of its sessions; past the total, the oldest events of the
/// session that holds the most bytes, so one caller that streams a lot cannot push the others'
/// events out. A resumption that would need an evicted event is refused, never served in
/// part.
///
/// ```
/// use beam_mcp::transport::http::{EventStore, MemoryEventStore, StoredEvent};
///
/// let store = MemoryEventStore::new(1000).max_session_bytes(4096);
/// for seq in 1..=3 {
///     let data = vec![b'x'; 1500].into();
///     store.store("s1", StoredEvent { stream: 1, seq, data });
/// }
/// // Three events of 1500 bytes do not fit in 4096 (with what each costs to keep):
/// // the first went, so resuming before it is refused.
/// assert!(store.after("s1", 1, 0).is_err());
/// assert_eq!(store.after("s1", 1, 1).unwrap().len(), 2);
/// ```
#[derive(Debug)]
pub struct MemoryEventStore {
    per_session: usize,
    session_bytes: usize,
    /// `None`: a quarter of `total_bytes`.
    principal_bytes: Option<usize>,
    total_bytes: usize,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    sessions: HashMap<String, Held>,
    /// Bytes held across every session.
    bytes: usize,
    /// Bytes held by each principal's sessions (those stored with an owner).
    owners: HashMap<u64, usize>,
    /// Events stored so far: each event's place in the order of every session's.
    tick: u64,
}

#[derive(Debug, Default)]
struct Held {
    /// The share key of the principal that opened the session, if it tells callers apart.
    owner: Option<u64>,
    events: VecDeque<StoredEvent>,
    /// When each event was stored (`State::tick`), beside it.
    ticks: VecDeque<u64>,
    /// Bytes these events cost to keep.
    bytes: usize,
    /// Per stream, the last seq evicted: a resumption at or before it would be partial.
    evicted: HashMap<u64, u64>,
    /// The newest stream whose eviction record was dropped to bound `evicted`: a resumption
    /// of it, or of any stream before it, may be partial and is refused (the GET stream, 0,
    /// keeps its record always).
    forgotten_through: Option<u64>,
}

/// Eviction records kept per session (besides the GET stream's).
const EVICTIONS_KEPT: usize = 4096;

/// What one event costs to keep beyond its bytes (its record and its slot), counted so that
/// many tiny events are bounded too.
const EVENT_OVERHEAD: usize = std::mem::size_of::<StoredEvent>() + 16;

fn cost(event: &StoredEvent) -> usize {
    event.data.len() + EVENT_OVERHEAD
}

impl Held {
    /// Drops the oldest event, remembering that its stream is now partial before it.
    fn evict_oldest(&mut self) -> usize {
        self.ticks.pop_front();
        let Some(old) = self.events.pop_front() else {
            return 0;
        };
        self.evicted.insert(old.stream, old.seq);
        let freed = cost(&old);
        self.bytes -= freed;
        freed
    }

    /// Keeps the eviction records of the newest streams only: an older stream is one the
    /// session forgot too, and its resumption is refused either way. Past the bound, down to
    /// three quarters of it, so that the sort runs once in a thousand evictions, not each time.
    fn bound_evictions(&mut self) {
        let others = self.evicted.len() - usize::from(self.evicted.contains_key(&0));
        if others <= EVICTIONS_KEPT {
            return;
        }
        let mut streams: Vec<u64> = self.evicted.keys().copied().filter(|&s| s != 0).collect();
        streams.sort_unstable();
        for &stream in &streams[..streams.len() - EVICTIONS_KEPT * 3 / 4] {
            self.evicted.remove(&stream);
            self.forgotten_through = self.forgotten_through.max(Some(stream));
        }
    }
}

impl MemoryEventStore {
    /// A store holding at most `per_session` events of each session (at least 1), within the
    /// default byte bounds.
    pub fn new(per_session: usize) -> Self {
        MemoryEventStore {
            per_session: per_session.max(1),
            session_bytes: 16 << 20,
            principal_bytes: None,
            total_bytes: 64 << 20,
            state: Mutex::new(State::default()),
        }
    }

    /// The most bytes one session's events may take (default 16 MiB, a quarter of the
    /// total); each event counts its message and about 64 bytes to keep it. An event larger
    /// than this is not kept: a resumption from before it is refused.
    ///
    /// ```
    /// let store = beam_mcp::transport::http::MemoryEventStore::new(1000)
    ///     .max_session_bytes(1 << 20);
    /// # let _ = store;
    /// ```
    pub fn max_session_bytes(mut self, bytes: usize) -> Self {
        self.session_bytes = bytes;
        self
    }

    /// The most bytes the sessions of one principal may take together (default: a quarter of
    /// [`max_total_bytes`](Self::max_total_bytes)); past it, that principal's oldest events go,
    /// whichever of its sessions holds them. Principals are told apart by the share key the endpoint passes
    /// to [`EventStore::store_owned`]; the anonymous `()` has none and is held to the total
    /// alone.
    ///
    /// ```
    /// let store = beam_mcp::transport::http::MemoryEventStore::new(1000)
    ///     .max_principal_bytes(8 << 20);
    /// # let _ = store;
    /// ```
    pub fn max_principal_bytes(mut self, bytes: usize) -> Self {
        self.principal_bytes = Some(bytes);
        self
    }

    /// The most bytes every session's events take together (default 64 MiB). Past it, the
    /// session holding the most bytes loses its oldest events first.
    ///
    /// ```
    /// let store = beam_mcp::transport::http::MemoryEventStore::new(1000)
    ///     .max_total_bytes(256 << 20);
    /// # let _ = store;
    /// ```
    pub fn max_total_bytes(mut self, bytes: usize) -> Self {
        self.total_bytes = bytes;
        self
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Bytes held in all (for tests).
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.lock().bytes
    }
}

impl Default for MemoryEventStore {
    /// 1000 events and 16 MiB per session, 64 MiB in all.
    fn default() -> Self {
        MemoryEventStore::new(1000)
    }
}

impl EventStore for MemoryEventStore {
    fn store(&self, session: &str, event: StoredEvent) -> StoreFuture<Result<(), StoreError>> {
        MemoryEventStore::store_owned(self, session, None, event);
        StoreFuture::ready(Ok(()))
    }

    fn store_owned(
        &self,
        session: &str,
        owner: Option<u64>,
        event: StoredEvent,
    ) -> StoreFuture<Result<(), StoreError>> {
        MemoryEventStore::store_owned(self, session, owner, event);
        StoreFuture::ready(Ok(()))
    }

    fn after(
        &self,
        session: &str,
        stream: u64,
        seq: u64,
    ) -> StoreFuture<Result<Vec<StoredEvent>, ResumeError>> {
        StoreFuture::ready(MemoryEventStore::after(self, session, stream, seq))
    }

    fn forget(&self, session: &str) -> StoreFuture<Result<(), StoreError>> {
        MemoryEventStore::forget(self, session);
        StoreFuture::ready(Ok(()))
    }
}

/// The store's work, done at once (what [`EventStore`] answers, ready): these take the trait's
/// names, so a `MemoryEventStore` in hand is used without awaiting.
impl MemoryEventStore {
    /// Keeps one event of a session.
    ///
    /// ```
    /// use beam_mcp::transport::http::{MemoryEventStore, StoredEvent};
    ///
    /// let store = MemoryEventStore::new(10);
    /// store.store("s1", StoredEvent { stream: 1, seq: 1, data: "{}".into() });
    /// assert_eq!(store.after("s1", 1, 0).unwrap().len(), 1);
    /// ```
    pub fn store(&self, session: &str, event: StoredEvent) {
        self.store_owned(session, None, event);
    }

    /// Keeps one event of a session opened by the principal whose share key is `owner`.
    ///
    /// ```
    /// use beam_mcp::transport::http::{MemoryEventStore, StoredEvent};
    ///
    /// let store = MemoryEventStore::new(10);
    /// store.store_owned("s1", Some(7), StoredEvent { stream: 1, seq: 1, data: "{}".into() });
    /// assert_eq!(store.after("s1", 1, 0).unwrap().len(), 1);
    /// ```
    pub fn store_owned(&self, session: &str, owner: Option<u64>, event: StoredEvent) {
        let mut state = self.lock();
        let State {
            sessions,
            bytes,
            owners,
            tick,
        } = &mut *state;
        *tick += 1;
        let held = sessions.entry(session.to_owned()).or_default();
        // A session's owner is the one it was first stored with.
        if held.events.is_empty() && held.bytes == 0 && held.owner.is_none() {
            held.owner = owner;
        }
        let owner = held.owner;
        let added = cost(&event);
        held.events.push_back(event);
        held.ticks.push_back(*tick);
        held.bytes += added;
        *bytes += added;
        let mut freed = 0;
        while held.events.len() > self.per_session || held.bytes > self.session_bytes {
            freed += held.evict_oldest();
        }
        held.bound_evictions();
        *bytes -= freed;
        if let Some(owner) = owner {
            let owned = owners.entry(owner).or_insert(0);
            *owned = (*owned + added).saturating_sub(freed);
            // Past the principal's share, its oldest events go, whichever of its sessions holds
            // them.
            let share = self.principal_bytes.unwrap_or(self.total_bytes / 4);
            while owners.get(&owner).is_some_and(|&b| b > share) {
                let Some(oldest) = sessions
                    .values_mut()
                    .filter(|h| h.owner == Some(owner))
                    .filter_map(|h| Some((h.ticks.front().copied()?, h)))
                    .min_by_key(|(tick, _)| *tick)
                    .map(|(_, h)| h)
                else {
                    break;
                };
                let gone = oldest.evict_oldest();
                oldest.bound_evictions();
                *bytes -= gone;
                if let Some(owned) = owners.get_mut(&owner) {
                    *owned = owned.saturating_sub(gone);
                }
            }
        }
        // Past the total, the heaviest session gives way (one that streams a lot, not the
        // others). Each round frees at least one event, and the bound is at most crossed by
        // the event just kept.
        while *bytes > self.total_bytes {
            let Some(heaviest) = sessions
                .values_mut()
                .filter(|h| !h.events.is_empty())
                .max_by_key(|h| h.bytes)
            else {
                break;
            };
            let gone = heaviest.evict_oldest();
            heaviest.bound_evictions();
            *bytes -= gone;
            if let Some(owned) = heaviest.owner.and_then(|o| owners.get_mut(&o)) {
                *owned = owned.saturating_sub(gone);
            }
        }
        owners.retain(|_, owned| *owned > 0);
    }

    /// Every held event of `stream` after `seq`, in order, or why a resumption from there
    /// cannot be served.
    ///
    /// ```
    /// use beam_mcp::transport::http::{MemoryEventStore, ResumeError};
    ///
    /// let store = MemoryEventStore::new(10);
    /// assert_eq!(store.after("s1", 1, 0), Err(ResumeError::Unknown));
    /// ```
    pub fn after(
        &self,
        session: &str,
        stream: u64,
        seq: u64,
    ) -> Result<Vec<StoredEvent>, ResumeError> {
        let state = self.lock();
        let Some(held) = state.sessions.get(session) else {
            return Err(ResumeError::Unknown);
        };
        if let Some(&gone) = held.evicted.get(&stream) {
            if gone > seq {
                return Err(ResumeError::Evicted);
            }
        } else if stream != 0 && held.forgotten_through.is_some_and(|f| stream <= f) {
            return Err(ResumeError::Evicted);
        } else if !held.events.iter().any(|e| e.stream == stream) {
            return Err(ResumeError::Unknown);
        }
        Ok(held
            .events
            .iter()
            .filter(|e| e.stream == stream && e.seq > seq)
            .cloned()
            .collect())
    }

    /// Forgets a session's events.
    ///
    /// ```
    /// use beam_mcp::transport::http::{MemoryEventStore, ResumeError, StoredEvent};
    ///
    /// let store = MemoryEventStore::new(10);
    /// store.store("s1", StoredEvent { stream: 1, seq: 1, data: "{}".into() });
    /// store.forget("s1");
    /// assert_eq!(store.after("s1", 1, 0), Err(ResumeError::Unknown));
    /// ```
    pub fn forget(&self, session: &str) {
        let mut state = self.lock();
        if let Some(held) = state.sessions.remove(session) {
            state.bytes -= held.bytes;
            if let Some(owner) = held.owner
                && let Some(owned) = state.owners.get_mut(&owner)
            {
                *owned = owned.saturating_sub(held.bytes);
                if *owned == 0 {
                    state.owners.remove(&owner);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(stream: u64, seq: u64, len: usize) -> StoredEvent {
        StoredEvent {
            stream,
            seq,
            data: vec![b'x'; len].into(),
        }
    }

    #[test]
    fn a_session_is_bounded_in_bytes_and_a_resumption_before_what_went_is_refused() {
        let store = MemoryEventStore::new(1000).max_session_bytes(10_000);
        for seq in 1..=10 {
            store.store("s", event(1, seq, 3000));
        }
        // Three events fit (with their overhead); the seven before went.
        assert_eq!(store.after("s", 1, 7).unwrap().len(), 3);
        assert_eq!(store.after("s", 1, 6), Err(ResumeError::Evicted));
        assert!(store.bytes() <= 10_000, "{}", store.bytes());
        // An event larger than the bound is not kept, and a resumption before it is refused.
        store.store("s", event(1, 11, 20_000));
        assert_eq!(store.after("s", 1, 10), Err(ResumeError::Evicted));
        assert!(store.bytes() <= 10_000);
        store.forget("s");
        assert_eq!(store.bytes(), 0);
    }

    #[test]
    fn past_the_total_the_heaviest_session_gives_way() {
        let store = MemoryEventStore::new(1000)
            .max_session_bytes(1 << 20)
            .max_total_bytes(100_000);
        store.store("quiet", event(1, 1, 1000));
        for seq in 1..=200 {
            store.store("loud", event(1, seq, 1000));
        }
        assert!(store.bytes() <= 100_000, "{}", store.bytes());
        // The quiet session keeps its one event; the loud one lost its oldest.
        assert_eq!(store.after("quiet", 1, 0).unwrap().len(), 1);
        assert_eq!(store.after("loud", 1, 0), Err(ResumeError::Evicted));
        assert_eq!(store.after("loud", 1, 199).unwrap().len(), 1);
    }

    #[test]
    fn the_get_stream_keeps_its_eviction_record_past_the_bound_on_records() {
        let store = MemoryEventStore::new(2);
        // The GET stream's first events go, then 5000 streams with one event each.
        for seq in 1..=3 {
            store.store("s", event(0, seq, 1));
        }
        for stream in 1..=5000 {
            store.store("s", event(stream, 1, 1));
        }
        store.store("s", event(0, 4, 1));
        // Before: stream 0's record was the first dropped, and a resumption from 0-1 replayed
        // 0-4 alone, silently skipping 0-2 and 0-3.
        assert_eq!(store.after("s", 0, 1), Err(ResumeError::Evicted));
        assert_eq!(store.after("s", 0, 3).unwrap().len(), 1);
        // A stream whose record was dropped is refused, never replayed in part.
        assert_eq!(store.after("s", 2, 0), Err(ResumeError::Evicted));
        // The newest streams keep their records.
        assert_eq!(store.after("s", 4999, 0), Err(ResumeError::Evicted));
        assert_eq!(store.after("s", 5000, 0).unwrap().len(), 1);
    }

    #[test]
    fn a_principal_holds_its_share_of_the_bytes_across_its_sessions() {
        let store = MemoryEventStore::new(1000)
            .max_total_bytes(1 << 20)
            .max_principal_bytes(10_000);
        store.store_owned("bob", Some(2), event(1, 1, 3000));
        // Alice streams on two sessions: together they stay within her share, her oldest
        // events giving way first.
        for seq in 1..=10 {
            store.store_owned("alice-1", Some(1), event(1, seq, 3000));
            store.store_owned("alice-2", Some(1), event(1, seq, 3000));
        }
        let held = |s: &str| store.lock().sessions.get(s).map_or(0, |h| h.bytes);
        assert!(held("alice-1") + held("alice-2") <= 10_000);
        assert!(
            held("alice-1") > 0 && held("alice-2") > 0,
            "both keep their newest"
        );
        assert_eq!(store.after("alice-1", 1, 0), Err(ResumeError::Evicted));
        // Bob's event is untouched; the anonymous owner is held to the total alone.
        assert_eq!(store.after("bob", 1, 0).unwrap().len(), 1);
        for seq in 1..=10 {
            store.store_owned("anon", None, event(1, seq, 3000));
        }
        assert_eq!(store.after("anon", 1, 0).unwrap().len(), 10);
        // Forgetting a session gives its bytes back to its principal.
        store.forget("alice-1");
        store.forget("alice-2");
        assert!(!store.lock().owners.contains_key(&1));
    }
}
