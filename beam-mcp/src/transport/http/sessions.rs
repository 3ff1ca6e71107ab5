//! The 2025-11-25 sessions of one HTTP endpoint: opened by `initialize`, named by a random
//! `Mcp-Session-Id`, bound to the principal that opened them, bounded in number and idle time.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use super::events::{EventStore, forgotten};
use crate::context::Hello;
use crate::protocol::{Revision, Session};
use crate::server::Server;
use crate::store::sessions::SessionRelayed;
use crate::store::{SessionRelay, SessionShare, SharedSession, StoreError};

/// The bounds of an endpoint's sessions.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SessionLimits {
    pub(crate) max: usize,
    /// The most one principal may hold open (`None`: a quarter of `max`, at least 1).
    pub(crate) share: Option<usize>,
    pub(crate) idle: Duration,
}

impl SessionLimits {
    /// One principal's share.
    pub(crate) fn share(&self) -> usize {
        self.share.unwrap_or((self.max / 4).max(1))
    }
}

impl Default for SessionLimits {
    fn default() -> Self {
        SessionLimits {
            max: 1000,
            share: None,
            idle: Duration::from_secs(30 * 60),
        }
    }
}

/// One session and what HTTP keeps for it.
pub(crate) struct Entry {
    pub(crate) id: String,
    pub(crate) session: Arc<Session>,
    principal: Option<[u8; 32]>,
    /// The share key of that principal (`None`: one that tells no caller apart): its sessions
    /// and their events are counted in its shares.
    pub(crate) share: Option<u64>,
    last_seen: Mutex<Instant>,
    /// GET streams open now (a new one takes over from the old, which then ends).
    pub(crate) listening: AtomicUsize,
    /// Set once the session ended here (deleted, expired, or, where sessions are shared, this
    /// replica let its copy go): nothing more is stored for it from here.
    gone: AtomicBool,
    /// Set once the session ended everywhere (deleted, expired, or not in the shared store any
    /// more): an event kept as it ended is forgotten again. A shared session whose copy this
    /// replica let go is gone here but lives on.
    ended: AtomicBool,
    /// The number of this replica's GET stream of the session (0 where sessions are not
    /// shared); its POST streams are numbered after it. Where sessions are shared, each replica
    /// serving one numbers its streams from a random base of its own (low 32 bits zero), so
    /// that an event id names one stream whichever replica resumes it.
    get_stream: u64,
    /// The last stream number given out.
    next_stream: AtomicU64,
    /// The last event number of the GET stream (its ids continue across connections).
    get_seq: AtomicU64,
    /// Streams opened: whether each has ended, and which reader holds it now (a resumption
    /// takes a stream over, so no message goes out on two connections).
    streams: Mutex<HashMap<u64, StreamState>>,
    /// Woken when an event is stored or a stream ends (for resumed readers).
    pub(crate) stored: Notify,
    /// Held while a request is checked against the session's bound of running requests and
    /// registered: two requests at the bound cannot both pass the check.
    admitting: Mutex<()>,
    /// The session's clock for telemetry, stopped when the session ends.
    timer: Mutex<Option<crate::server::SessionTimer>>,
}

impl Entry {
    fn new(
        id: String,
        session: Session,
        principal: Option<[u8; 32]>,
        share: Option<u64>,
        now: Instant,
        get_stream: u64,
    ) -> Entry {
        Entry {
            id,
            session: Arc::new(session),
            principal,
            share,
            last_seen: Mutex::new(now),
            listening: AtomicUsize::new(0),
            gone: AtomicBool::new(false),
            ended: AtomicBool::new(false),
            get_stream,
            next_stream: AtomicU64::new(get_stream),
            get_seq: AtomicU64::new(0),
            streams: Mutex::new(HashMap::new()),
            stored: Notify::new(),
            admitting: Mutex::new(()),
            timer: Mutex::new(None),
        }
    }

    /// The number of this replica's GET stream of the session.
    pub(crate) fn get_stream(&self) -> u64 {
        self.get_stream
    }

    /// Starts the session's clock (telemetry's `mcp.server.session.duration`).
    pub(crate) fn time(&self, timer: Option<crate::server::SessionTimer>) {
        *self.timer.lock().unwrap_or_else(|e| e.into_inner()) = timer;
    }
}

/// One stream of a session.
#[derive(Clone, Copy, Default)]
struct StreamState {
    ended: bool,
    reader: u64,
}

/// Streams of one session remembered at most: older ended ones are forgotten (a resumption of
/// one is then refused, as one whose events are gone).
const STREAMS_KEPT: u64 = 4096;

impl Entry {
    /// Runs `start` (which registers the request it starts, synchronously) only while the
    /// session runs fewer than `bound` requests, the check and the start in one step; `None`
    /// when the session is at its bound.
    pub(crate) fn admit<T>(&self, bound: usize, start: impl FnOnce() -> T) -> Option<T> {
        let _one_at_a_time = self.admitting.lock().unwrap_or_else(|e| e.into_inner());
        (self.session.running() < bound).then(start)
    }

    /// A new stream number for a POST's event stream, held by reader 0.
    pub(crate) fn open_stream(&self) -> u64 {
        let stream = self.next_stream.fetch_add(1, Ordering::Relaxed) + 1;
        let mut streams = self.lock_streams();
        if streams.len() as u64 >= STREAMS_KEPT {
            streams.retain(|n, s| !s.ended || *n + STREAMS_KEPT > stream);
        }
        streams.insert(stream, StreamState::default());
        stream
    }

    /// Takes `stream` over for a new reader; the reader that held it stops.
    pub(crate) fn claim(&self, stream: u64) -> u64 {
        let reader = {
            let mut streams = self.lock_streams();
            let state = streams.entry(stream).or_default();
            state.reader += 1;
            state.reader
        };
        // The reader replaced may be waiting on a quiet stream: woken, it sees it no longer
        // holds the stream and ends, so a stream has one reader however often it is resumed.
        self.stored.notify_waiters();
        reader
    }

    /// True while `reader` holds `stream`.
    pub(crate) fn holds(&self, stream: u64, reader: u64) -> bool {
        self.lock_streams()
            .get(&stream)
            .is_some_and(|s| s.reader == reader)
    }

    /// True once the session ended here.
    pub(crate) fn is_gone(&self) -> bool {
        self.gone.load(Ordering::Acquire)
    }

    /// True once the session ended everywhere.
    pub(crate) fn has_ended(&self) -> bool {
        self.ended.load(Ordering::Acquire)
    }

    /// The last event number of the GET stream.
    pub(crate) fn get_seq(&self) -> u64 {
        self.get_seq.load(Ordering::Acquire)
    }

    /// The next event number of the GET stream.
    pub(crate) fn next_get_seq(&self) -> u64 {
        self.get_seq.fetch_add(1, Ordering::AcqRel) + 1
    }

    pub(crate) fn end_stream(&self, stream: u64) {
        if let Some(state) = self.lock_streams().get_mut(&stream) {
            state.ended = true;
        }
        // A long call that just ended counts as activity: its client may come back for it.
        self.touch();
        self.stored.notify_waiters();
    }

    /// `Some(ended)` for a stream of this session on this replica; the GET stream never ends.
    pub(crate) fn stream_state(&self, stream: u64) -> Option<bool> {
        if stream == self.get_stream {
            return Some(false);
        }
        self.lock_streams().get(&stream).map(|s| s.ended)
    }

    fn lock_streams(&self) -> std::sync::MutexGuard<'_, HashMap<u64, StreamState>> {
        self.streams.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn touch(&self) {
        self.touch_at(Instant::now());
    }

    fn touch_at(&self, now: Instant) {
        *self.last_seen.lock().unwrap_or_else(|e| e.into_inner()) = now;
    }

    fn idle_for(&self, now: Instant) -> Duration {
        now.saturating_duration_since(*self.last_seen.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Idle at `now`: nothing running, no GET stream, and no request for `limit`.
    fn expired(&self, limit: Duration, now: Instant) -> bool {
        self.session.running() == 0
            && self.listening.load(Ordering::Relaxed) == 0
            && self.idle_for(now) >= limit
    }
}

/// Why a session was not found for a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Lookup {
    /// No such id (never issued, deleted, or expired), or another principal's: 404 either way,
    /// so that an id reveals nothing to whoever did not open it.
    NotFound,
    /// The shared store of sessions did not answer: refused, never served from memory.
    Store(StoreError),
    /// A session another replica opened, which this one has no room to serve now.
    Full,
}

/// The table of sessions, and the store of their streams' events (forgotten with them).
pub(crate) struct Sessions {
    limits: SessionLimits,
    table: Mutex<HashMap<String, Arc<Entry>>>,
    store: Arc<dyn EventStore>,
    /// When the table was last swept of idle sessions (under the table's lock).
    swept: Mutex<Option<Instant>>,
    /// Where the sessions are shared with other replicas, if they are.
    share: Option<Arc<dyn SessionShare>>,
    /// Shared sessions that ended everywhere lately (see [`Sessions::remember_ended`]).
    ended: Mutex<Ended>,
}

/// How a session ends on this replica.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ending {
    /// Only this replica's copy of a shared session: it lives on in the store.
    Copy,
    /// Everywhere, its events forgotten elsewhere (or by the store's expiry).
    Everywhere,
    /// Everywhere, its events forgotten here.
    Forget,
}

/// How long, and how many, ids of sessions that ended everywhere are remembered.
const ENDED_FOR: Duration = Duration::from_secs(60);
const ENDED_KEPT: usize = 4096;

/// Ids of shared sessions that ended everywhere lately, oldest first.
#[derive(Default)]
struct Ended {
    ids: HashMap<String, Instant>,
    order: std::collections::VecDeque<(Instant, String)>,
}

impl Ended {
    fn contains(&self, id: &str) -> bool {
        self.ids.contains_key(id)
    }

    fn len(&self) -> usize {
        self.ids.len()
    }

    fn insert(&mut self, id: String, at: Instant) {
        if self.ids.insert(id.clone(), at).is_none() {
            self.order.push_back((at, id));
        }
    }

    fn pop_oldest(&mut self) {
        if let Some((_, id)) = self.order.pop_front() {
            self.ids.remove(&id);
        }
    }

    fn forget_before(&mut self, cutoff: Instant) {
        while self.order.front().is_some_and(|(at, _)| *at < cutoff) {
            self.pop_oldest();
        }
    }
}

/// How often a lookup sweeps the table of idle sessions (an open always does).
const SWEEP_EVERY: Duration = Duration::from_secs(1);

impl Sessions {
    pub(crate) fn new(limits: SessionLimits, store: Arc<dyn EventStore>) -> Self {
        Sessions {
            limits,
            table: Mutex::new(HashMap::new()),
            store,
            swept: Mutex::new(None),
            share: None,
            ended: Mutex::new(Ended::default()),
        }
    }

    /// The same, sharing its sessions with other replicas through `share`.
    pub(crate) fn shared(mut self, share: Arc<dyn SessionShare>) -> Self {
        self.share = Some(share);
        self
    }

    /// Where the sessions are shared, if they are.
    pub(crate) fn share(&self) -> Option<&Arc<dyn SessionShare>> {
        self.share.as_ref()
    }

    /// How long a session lives without a request.
    pub(crate) fn idle(&self) -> Duration {
        self.limits.idle
    }

    /// The most sessions one principal may hold.
    pub(crate) fn most_per_principal(&self) -> usize {
        self.limits.share()
    }

    /// Ends every idle session, so that one nobody names again does not keep its events until
    /// the table fills; at most once per [`SWEEP_EVERY`] unless `always`.
    fn sweep(&self, table: &mut HashMap<String, Arc<Entry>>, now: Instant, always: bool) {
        {
            let mut swept = self.swept.lock().unwrap_or_else(|e| e.into_inner());
            if !always && swept.is_some_and(|at| now.saturating_duration_since(at) < SWEEP_EVERY) {
                return;
            }
            *swept = Some(now);
        }
        let idle = self.limits.idle;
        let expired: Vec<String> = table
            .iter()
            .filter(|(_, e)| e.expired(idle, now))
            .map(|(id, _)| id.clone())
            .collect();
        for id in expired {
            if let Some(entry) = table.remove(&id) {
                self.end(&entry, self.expiry());
            }
        }
    }

    /// The end of a session here, however it ends: its requests are cancelled and its streams
    /// end. `how` says whether it ended everywhere, and whether its events are forgotten here.
    fn end(&self, entry: &Entry, how: Ending) {
        entry.gone.store(true, Ordering::Release);
        if how != Ending::Copy {
            entry.ended.store(true, Ordering::Release);
        }
        // The clock stops here, not when the last request holding the entry ends.
        entry.timer.lock().unwrap_or_else(|e| e.into_inner()).take();
        entry.session.end();
        entry.session.cancel_all();
        if how != Ending::Forget {
            entry.stored.notify_waiters();
            return;
        }
        match self.store.forget(&entry.id).into_ready() {
            Ok(result) => forgotten(result),
            // A store over a network forgets in the background (a session may end in a sweep
            // under the table's lock): `keep` forgets again an event stored meanwhile.
            Err(later) => match tokio::runtime::Handle::try_current() {
                Ok(runtime) => {
                    runtime.spawn(async move { forgotten(later.await) });
                }
                Err(_) => tracing::warn!(
                    "a session ended outside the runtime: its events are left to the store's expiry"
                ),
            },
        }
        entry.stored.notify_waiters();
    }

    /// How a session that expired here ends: everywhere, its events with it, unless sessions
    /// are shared (then only this copy: the store keeps the session while it is used elsewhere).
    fn expiry(&self) -> Ending {
        if self.share.is_some() {
            Ending::Copy
        } else {
            Ending::Forget
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Entry>>> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Opens a session for `principal`; `None` at the bound, or when the principal holds its
    /// share (`share`: its share key; `None` for one that tells no caller apart, held to the
    /// bound alone), after dropping expired ones. Existing sessions are untouched either way.
    pub(crate) fn open(
        &self,
        session: Session,
        principal: Option<[u8; 32]>,
        share: Option<u64>,
    ) -> Option<Arc<Entry>> {
        self.open_at(session, principal, share, Instant::now())
    }

    /// [`open`](Self::open) at `now` (the tests' clock: no test waits for idleness).
    fn open_at(
        &self,
        session: Session,
        principal: Option<[u8; 32]>,
        share: Option<u64>,
        now: Instant,
    ) -> Option<Arc<Entry>> {
        let mut table = self.lock();
        self.sweep(&mut table, now, true);
        if table.len() >= self.limits.max {
            return None;
        }
        // A scan of at most `max` sessions, once per `initialize`.
        if share.is_some()
            && table.values().filter(|e| e.share == share).count() >= self.limits.share()
        {
            return None;
        }
        let id = new_id();
        let base = if self.share.is_some() {
            stream_base()
        } else {
            0
        };
        let entry = Arc::new(Entry::new(id.clone(), session, principal, share, now, base));
        table.insert(id, Arc::clone(&entry));
        Some(entry)
    }

    /// The session `id` of `principal`, where sessions are shared: the store is asked first
    /// (the session's expiry moves on, and one ended elsewhere is not served from memory); one
    /// this replica does not serve yet is taken up (`adopt` makes its `Session`). Without a
    /// share, [`find`](Self::find).
    pub(crate) async fn find_shared(
        &self,
        id: &str,
        principal: Option<[u8; 32]>,
        server: &Server,
    ) -> Result<Arc<Entry>, Lookup> {
        let Some(share) = &self.share else {
            return self.find(id, principal);
        };
        // Only an id this server could have issued is looked up in the store.
        if id.len() != 64 || !id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            return Err(Lookup::NotFound);
        }
        let record = share
            .touch(id, self.limits.idle)
            .await
            .map_err(Lookup::Store)?;
        let Some(record) = record else {
            // Ended elsewhere, or expired: a copy here goes too (its events went, or go, with
            // the store's record).
            if let Some(entry) = self.lock().remove(id) {
                self.end(&entry, Ending::Everywhere);
            }
            return Err(Lookup::NotFound);
        };
        if record.principal != principal {
            return Err(Lookup::NotFound);
        }
        let now = Instant::now();
        let mut table = self.lock();
        self.sweep(&mut table, now, false);
        if let Some(entry) = table.get(id) {
            entry.touch_at(now);
            // What the record says holds: another replica may have changed it.
            if let Some(level) = record.log_level {
                entry.session.set_log_level(level);
            }
            entry.session.set_subscriptions(record.subscriptions);
            return Ok(Arc::clone(entry));
        }
        // Ended elsewhere while the store was asked: the relay came before this copy.
        if self.lock_ended().contains(id) {
            return Err(Lookup::NotFound);
        }
        if table.len() >= self.limits.max && !self.let_go_of_one(&mut table) {
            return Err(Lookup::Full);
        }
        let base = stream_base();
        // Its requests to the client are numbered apart from other replicas' (below 2^53, the
        // largest integer every client reads exactly).
        let session = adopt(Session::numbered_after(base), &record, server);
        let entry = Arc::new(Entry::new(
            id.to_owned(),
            session,
            principal,
            record.share,
            now,
            base,
        ));
        table.insert(id.to_owned(), Arc::clone(&entry));
        Ok(entry)
    }

    /// The session `id`, if it exists, has not expired, and belongs to `principal`.
    pub(crate) fn find(&self, id: &str, principal: Option<[u8; 32]>) -> Result<Arc<Entry>, Lookup> {
        self.find_at(id, principal, Instant::now())
    }

    /// [`find`](Self::find) at `now`.
    fn find_at(
        &self,
        id: &str,
        principal: Option<[u8; 32]>,
        now: Instant,
    ) -> Result<Arc<Entry>, Lookup> {
        let mut table = self.lock();
        self.sweep(&mut table, now, false);
        let Some(entry) = table.get(id) else {
            return Err(Lookup::NotFound);
        };
        if entry.expired(self.limits.idle, now) {
            if let Some(entry) = table.remove(id) {
                self.end(&entry, self.expiry());
            }
            return Err(Lookup::NotFound);
        }
        if entry.principal != principal {
            return Err(Lookup::NotFound);
        }
        entry.touch_at(now);
        Ok(Arc::clone(entry))
    }

    /// Ends a session: its running requests are cancelled and its id forgotten.
    pub(crate) fn remove(&self, id: &str) -> Option<Arc<Entry>> {
        let entry = self.lock().remove(id)?;
        if self.share.is_some() {
            self.remember_ended(id);
        }
        self.end(&entry, Ending::Forget);
        Some(entry)
    }

    /// Ends every session here (the endpoint shut down): what they still run is cancelled.
    /// Shared sessions live on in the store, for the other replicas to serve.
    pub(crate) fn end_all(&self) {
        // Taken out first: ending one wakes its tasks, which may look the table up.
        let ended: Vec<Arc<Entry>> = self.lock().drain().map(|(_, entry)| entry).collect();
        for entry in ended {
            self.end(&entry, self.expiry());
        }
    }

    /// Where sessions are shared and the table is full: lets go of the copy of a session
    /// another replica may serve that has been idle here longest (nothing running, no GET
    /// stream). False when every copy is busy.
    fn let_go_of_one(&self, table: &mut HashMap<String, Arc<Entry>>) -> bool {
        let now = Instant::now();
        let idlest = table
            .iter()
            .filter(|(_, e)| e.session.running() == 0 && e.listening.load(Ordering::Relaxed) == 0)
            .max_by_key(|(_, e)| e.idle_for(now))
            .map(|(id, _)| id.clone());
        let Some(entry) = idlest.and_then(|id| table.remove(&id)) else {
            return false;
        };
        self.end(&entry, Ending::Copy);
        true
    }

    /// Notes that session `id` ended everywhere, so that a copy is not taken up again from a
    /// record read just before it went. Kept for a minute, at most [`ENDED_KEPT`] ids.
    fn remember_ended(&self, id: &str) {
        let mut ended = self.lock_ended();
        let now = Instant::now();
        ended.forget_before(now.checked_sub(ENDED_FOR).unwrap_or(now));
        if ended.len() >= ENDED_KEPT {
            ended.pop_oldest();
        }
        ended.insert(id.to_owned(), now);
    }

    fn lock_ended(&self) -> std::sync::MutexGuard<'_, Ended> {
        self.ended.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many sessions are open.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.lock().len()
    }
}

impl SessionRelayed for Sessions {
    fn relayed(&self, id: &str, relay: SessionRelay) {
        if matches!(relay, SessionRelay::Ended) {
            self.remember_ended(id);
            if let Some(entry) = self.lock().remove(id) {
                // The replica that ended it forgot its events.
                self.end(&entry, Ending::Everywhere);
            }
            return;
        }
        let Some(entry) = self.lock().get(id).cloned() else {
            return;
        };
        let session = &entry.session;
        match relay {
            SessionRelay::Response(mut message) => {
                if let Some(request) = message.remove("id") {
                    let (result, error) = (message.get("result"), message.get("error"));
                    session.client_requests().answer(&request, result, error);
                }
            }
            SessionRelay::Cancelled(params) => {
                if let Some(request) = params.get("requestId") {
                    session.cancel(request);
                }
            }
            SessionRelay::LogLevel(level) => session.set_log_level(level),
            SessionRelay::Subscribed(uri, on) => {
                let _ = session.subscribe(&uri, on);
            }
            // Another replica serves the session's GET stream now: this one's ends.
            SessionRelay::Listening => {
                entry.claim(entry.get_stream);
                // A GET waiting here on a quiet stream wakes, sees it lost it, and ends.
                session.unsolicited().nudge();
            }
            SessionRelay::Ended => {}
        }
    }
}

/// The record of a session opened here, for the other replicas.
pub(crate) fn record(entry: &Entry) -> SharedSession {
    let mut hello = serde_json::Map::new();
    if let Some(said) = entry.session.hello() {
        if let Some(version) = said.version {
            hello.insert("protocolVersion".into(), version.as_str().into());
        }
        if let Some(info) = &said.info {
            hello.insert("clientInfo".into(), info.clone());
        }
        if let Some(capabilities) = &said.capabilities {
            hello.insert("capabilities".into(), capabilities.clone().into());
        }
    }
    SharedSession {
        id: entry.id.clone(),
        principal: entry.principal,
        share: entry.share,
        hello,
        log_level: entry.session.log_level_set(),
        subscriptions: entry.session.subscriptions(),
    }
}

/// `session` as the replica that opened it left it: initialized, with what its `initialize`
/// settled, following the live catalog, at its log level with its subscriptions.
fn adopt(session: Session, record: &SharedSession, server: &Server) -> Session {
    session.mark_initialized();
    if let Some(live) = server.live() {
        session.follow(live);
    }
    session.set_hello(Hello {
        version: record
            .hello
            .get("protocolVersion")
            .and_then(serde_json::Value::as_str)
            .and_then(Revision::parse),
        info: record.hello.get("clientInfo").cloned(),
        capabilities: record
            .hello
            .get("capabilities")
            .and_then(serde_json::Value::as_object)
            .cloned(),
    });
    if let Some(level) = record.log_level {
        session.set_log_level(level);
    }
    session.set_subscriptions(record.subscriptions.clone());
    session
}

/// A random base for one replica's stream numbers (and its requests' ids) in a shared session:
/// 1 to 2^20 - 1, shifted past 32 bits, so that what follows it stays below 2^53.
fn stream_base() -> u64 {
    let mut bytes = [0u8; 4];
    getrandom::fill(&mut bytes).expect("the operating system's random source");
    let salt = u64::from(u32::from_le_bytes(bytes) & 0x000f_ffff).max(1);
    salt << 32
}

/// 32 random bytes as 64 hex digits: visible ASCII, unguessable.
pub(super) fn new_id() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the operating system's random source");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::super::events::{MemoryEventStore, StoredEvent};
    use super::*;

    #[test]
    fn sessions_are_bounded_bound_to_their_principal_and_expire_when_idle() {
        let store = Arc::new(MemoryEventStore::default());
        let sessions = Sessions::new(
            SessionLimits {
                max: 2,
                idle: Duration::from_millis(50),
                ..SessionLimits::default()
            },
            store.clone(),
        );
        // An injected clock, as in `limit.rs`: preemption cannot age a session here.
        let t0 = Instant::now();
        let at = |ms| t0 + Duration::from_millis(ms);
        let a = sessions
            .open_at(Session::new(), Some([1; 32]), None, t0)
            .unwrap();
        let b = sessions.open_at(Session::new(), None, None, t0).unwrap();
        assert_eq!(a.id.len(), 64);
        assert!(a.id.bytes().all(|c| (0x21..=0x7e).contains(&c)));
        assert_ne!(a.id, b.id);
        // At the bound, with both fresh: refused, and both untouched.
        assert!(sessions.open_at(Session::new(), None, None, t0).is_none());
        assert_eq!(sessions.len(), 2);
        assert!(sessions.find_at(&a.id, Some([1; 32]), t0).is_ok());
        assert_eq!(
            sessions.find_at(&a.id, Some([2; 32]), t0).err(),
            Some(Lookup::NotFound)
        );
        assert_eq!(
            sessions.find_at(&a.id, None, t0).err(),
            Some(Lookup::NotFound)
        );
        // Just short of the limit, neither is idle yet.
        assert!(
            sessions
                .open_at(Session::new(), None, None, at(49))
                .is_none()
        );
        // Idle past the limit: the bound makes room, and the old id is gone.
        let c = sessions
            .open_at(Session::new(), None, None, at(80))
            .unwrap();
        assert!(sessions.find_at(&c.id, None, at(80)).is_ok());
        assert_eq!(
            sessions.find_at(&a.id, Some([1; 32]), at(80)).err(),
            Some(Lookup::NotFound)
        );
        // The events of a session go with it, however it ends.
        let event = |seq| StoredEvent {
            stream: 1,
            seq,
            data: "x".into(),
        };
        store.store(&c.id, event(1));
        assert!(sessions.remove(&c.id).is_some());
        assert!(c.is_gone());
        assert_eq!(
            sessions.find_at(&c.id, None, at(80)).err(),
            Some(Lookup::NotFound)
        );
        assert!(store.after(&c.id, 1, 0).is_err(), "forgotten");
        assert!(a.is_gone(), "expired, then ended");
    }

    /// An idle session nobody names again ends (its events with it) at the next open, or at
    /// a lookup of any session once a second, not only when the table is full. (Before, it
    /// was reaped only when looked up itself or at the bound.)
    #[test]
    fn idle_sessions_are_swept_though_nobody_names_them() {
        let store = Arc::new(MemoryEventStore::default());
        let sessions = Sessions::new(
            SessionLimits {
                max: 100,
                idle: Duration::from_secs(60),
                ..SessionLimits::default()
            },
            store.clone(),
        );
        let t0 = Instant::now();
        let at = |s| t0 + Duration::from_secs(s);
        let old = sessions.open_at(Session::new(), None, None, t0).unwrap();
        store.store(
            &old.id,
            StoredEvent {
                stream: 1,
                seq: 1,
                data: "x".into(),
            },
        );
        let kept = sessions
            .open_at(Session::new(), None, None, at(30))
            .unwrap();
        assert_eq!(sessions.len(), 2, "neither is idle yet");
        let _new = sessions
            .open_at(Session::new(), None, None, at(61))
            .unwrap();
        assert!(old.is_gone(), "idle past the limit at an open");
        assert_eq!(sessions.len(), 2);
        assert!(
            store.after(&old.id, 1, 0).is_err(),
            "its events went with it"
        );
        // A lookup of another session sweeps too.
        let late = sessions
            .open_at(Session::new(), None, None, at(70))
            .unwrap();
        assert!(!kept.is_gone());
        assert!(sessions.find_at(&late.id, None, at(100)).is_ok());
        assert!(kept.is_gone(), "swept at another session's lookup");
    }

    #[test]
    fn a_principal_holds_at_most_its_share_of_the_sessions() {
        let sessions = Sessions::new(
            SessionLimits {
                max: 4,
                share: Some(2),
                ..SessionLimits::default()
            },
            Arc::new(MemoryEventStore::default()),
        );
        let (alice, bob, anonymous) = (Some([1; 32]), Some([2; 32]), Some([0; 32]));
        let _a1 = sessions.open(Session::new(), alice, Some(1)).unwrap();
        let _a2 = sessions.open(Session::new(), alice, Some(1)).unwrap();
        assert!(
            sessions.open(Session::new(), alice, Some(1)).is_none(),
            "share"
        );
        let _b1 = sessions.open(Session::new(), bob, Some(2)).unwrap();
        // The anonymous principal has no share: it is held to the bound alone.
        let _n1 = sessions.open(Session::new(), anonymous, None).unwrap();
        assert!(
            sessions.open(Session::new(), anonymous, None).is_none(),
            "bound"
        );
        assert!(
            sessions.open(Session::new(), bob, Some(2)).is_none(),
            "bound"
        );
    }
}
