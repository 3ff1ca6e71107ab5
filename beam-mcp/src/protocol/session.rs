//! What one connection (a stdio process: a legacy session) remembers between messages.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

use crate::ask::ClientRequests;
use crate::context::Context;
use crate::context::{CancelFlag, Hello, LogLevel, Outbox, Principal};
use crate::live::{Filter, Listener, Live, Subscription};

/// Per-connection state: tracked, never enforced (every method works without a handshake).
///
/// A transport makes one per connection (stdio: one per process); the HTTP transport makes
/// one per request, carrying the caller's identity.
///
/// ```
/// let session = beam_mcp::protocol::Session::new().with_principal("alice".to_owned());
/// assert!(!session.is_initialized());
/// assert!(!session.is_closed());
/// ```
///
/// A `Session` is a handle: clones share one connection's state (a request held by middleware
/// keeps its clone while it runs).
#[derive(Default, Clone)]
pub struct Session {
    state: Arc<SessionState>,
    principal: Option<PrincipalBox>,
}

/// What the clones of one [`Session`] share.
#[derive(Default)]
struct SessionState {
    initialized: AtomicBool,
    closed: AtomicBool,
    /// 0: every level (the 2025-11-25 default until `logging/setLevel`); else level + 1.
    log_level: AtomicU8,
    /// What the first `initialize` said of the client (a session negotiates once).
    client: OnceLock<Arc<Hello>>,
    in_flight: Option<InFlight>,
    /// Set when the connection ends: its listen streams end with their result. This and the
    /// two queues below are made on first use: a stateless request's session never uses them.
    ending: OnceLock<Arc<CancelFlag>>,
    /// Unsolicited notifications of a 2025-11-25 session (list changes, resource updates),
    /// for the transport to write; and the session's place in the broadcaster.
    follower: Mutex<Option<Subscription>>,
    unsolicited: OnceLock<Arc<Outbox>>,
    /// Requests to the client waiting for its responses (2025-11-25 asks).
    client_requests: OnceLock<Arc<ClientRequests>>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("initialized", &self.is_initialized())
            .field("closed", &self.is_closed())
            .field("running", &self.running())
            .finish_non_exhaustive()
    }
}

#[derive(Clone)]
struct PrincipalBox(Principal);

impl std::fmt::Debug for PrincipalBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Principal(..)")
    }
}

/// The requests of a connection still running, with their ids, so `notifications/cancelled`
/// finds them. A list: it holds at most the connection's in-flight bound, and a scan of a few
/// dozen entries costs less than hashing an id.
type InFlight = Arc<Mutex<Vec<(Value, Context)>>>;

impl Session {
    /// A fresh connection: it tracks its running requests for `notifications/cancelled`.
    pub fn new() -> Self {
        Session {
            state: Arc::new(SessionState {
                in_flight: Some(InFlight::default()),
                ..SessionState::default()
            }),
            principal: None,
        }
    }

    /// A session another replica opened, served here too: its requests to the client are
    /// numbered after `base`, apart from those of the replicas that serve it too.
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "used by the HTTP transport")
    )]
    pub(crate) fn numbered_after(base: u64) -> Self {
        Session {
            state: Arc::new(SessionState {
                in_flight: Some(InFlight::default()),
                client_requests: OnceLock::from(Arc::new(ClientRequests::numbered_after(base))),
                ..SessionState::default()
            }),
            principal: None,
        }
    }

    /// The connection ends: its `subscriptions/listen` streams end with their result.
    pub fn end(&self) {
        self.ending_flag().cancel();
    }

    pub(crate) fn ending(&self) -> Arc<CancelFlag> {
        Arc::clone(self.ending_flag())
    }

    fn ending_flag(&self) -> &Arc<CancelFlag> {
        self.state.ending.get_or_init(Arc::default)
    }

    fn unsolicited_queue(&self) -> &Arc<Outbox> {
        self.state.unsolicited.get_or_init(Arc::default)
    }

    /// The queue of unsolicited notifications (a 2025-11-25 session of a live server), which
    /// the transport writes as they come.
    #[cfg_attr(
        not(feature = "stdio"),
        allow(dead_code, reason = "used by the stdio transport")
    )]
    pub(crate) fn unsolicited(&self) -> Arc<Outbox> {
        Arc::clone(self.unsolicited_queue())
    }

    /// After `initialize` on a live server: list changes and subscribed resource updates are
    /// sent to this session unsolicited.
    pub(crate) fn follow(&self, live: &Arc<Live>) {
        let filter = Filter {
            tools: true,
            prompts: true,
            resources: true,
            uris: Vec::new(),
        };
        let listener = Listener::new(filter, Arc::clone(self.unsolicited_queue()), None);
        *lock(&self.state.follower) = Some(live.subscribe(listener));
    }

    /// Adds (or removes) a resource subscription.
    pub(crate) fn subscribe(&self, uri: &str, on: bool) -> Result<(), Unsubscribable> {
        let follower = lock(&self.state.follower);
        let Some(subscription) = follower.as_ref() else {
            return Err(Unsubscribable::NotInitialized);
        };
        let mut filter = subscription.listener().filter();
        filter.uris.retain(|u| u != uri);
        if on {
            if filter.uris.len() >= MAX_SUBSCRIPTIONS {
                return Err(Unsubscribable::TooMany);
            }
            filter.uris.push(uri.to_owned());
        }
        Ok(())
    }

    /// The resources this session subscribed to (none before `initialize`).
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "used by the HTTP transport")
    )]
    pub(crate) fn subscriptions(&self) -> Vec<String> {
        lock(&self.state.follower)
            .as_ref()
            .map(|s| s.listener().filter().uris.clone())
            .unwrap_or_default()
    }

    /// Replaces the resources this session subscribed to (a session another replica holds the
    /// record of: what the record says); nothing before `initialize`.
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "used by the HTTP transport")
    )]
    pub(crate) fn set_subscriptions(&self, mut uris: Vec<String>) {
        if let Some(subscription) = lock(&self.state.follower).as_ref() {
            uris.truncate(MAX_SUBSCRIPTIONS);
            subscription.listener().filter().uris = uris;
        }
    }

    /// A session for one stateless request: nothing to cancel by id.
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "used by the HTTP transport")
    )]
    pub(crate) fn single_request() -> Self {
        Self::default()
    }

    /// The same session, carrying the caller's identity (what an `authorize` hook returned);
    /// host code reads it with [`Context::principal`](crate::Context::principal).
    ///
    /// `P: Hash`, because a multi-round-trip `requestState` binds a digest of it: a state
    /// issued to one caller is refused from another.
    pub fn with_principal<P: std::any::Any + Send + Sync + std::hash::Hash>(
        mut self,
        principal: P,
    ) -> Self {
        self.principal = Some(PrincipalBox(Principal::new(principal)));
        self
    }

    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "used by the HTTP transport")
    )]
    pub(crate) fn with_principal_arc(mut self, principal: Principal) -> Self {
        self.principal = Some(PrincipalBox(principal));
        self
    }

    /// This session, for one request made as `principal` (the same caller, by the session's
    /// binding, with what its current credentials say).
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "used by the HTTP transport")
    )]
    pub(crate) fn acting_as(&self, principal: Principal) -> Session {
        Session {
            state: Arc::clone(&self.state),
            principal: Some(PrincipalBox(principal)),
        }
    }

    /// True once `notifications/initialized` (or `initialize`) was seen.
    pub fn is_initialized(&self) -> bool {
        self.state.initialized.load(Ordering::Relaxed)
    }

    /// True after `shutdown` or `exit`: the transport stops reading.
    pub fn is_closed(&self) -> bool {
        self.state.closed.load(Ordering::Relaxed)
    }

    /// How many requests of this connection are still running.
    pub fn running(&self) -> usize {
        self.state.in_flight.as_ref().map_or(0, |m| lock(m).len())
    }

    pub(crate) fn mark_initialized(&self) {
        self.state.initialized.store(true, Ordering::Relaxed);
    }

    pub(crate) fn close(&self) {
        self.state.closed.store(true, Ordering::Relaxed);
    }

    pub(crate) fn client_requests(&self) -> &Arc<ClientRequests> {
        self.state.client_requests.get_or_init(Arc::default)
    }

    pub(crate) fn principal(&self) -> Option<Principal> {
        self.principal.as_ref().map(|p| p.0.clone())
    }

    pub(crate) fn set_hello(&self, hello: Hello) {
        // A second `initialize` in one session does not renegotiate what the first settled.
        let _ = self.state.client.set(Arc::new(hello));
    }

    /// Reads, whenever asked, the revision this session's `initialize` agreed (none before it).
    #[cfg_attr(
        not(any(feature = "stdio", feature = "http")),
        allow(dead_code, reason = "the transports time their sessions")
    )]
    pub(crate) fn agreed_revision(
        &self,
    ) -> impl Fn() -> Option<crate::revision::Revision> + Send + Sync + 'static {
        let state = Arc::clone(&self.state);
        move || state.client.get().and_then(|hello| hello.version)
    }

    pub(crate) fn hello(&self) -> Option<Arc<Hello>> {
        self.state.client.get().cloned()
    }

    /// The lowest level a legacy request of this session is sent logs at.
    pub(crate) fn log_level(&self) -> LogLevel {
        match self.state.log_level.load(Ordering::Relaxed) {
            0 => LogLevel::Debug,
            n => LogLevel::ALL[usize::from(n - 1).min(7)],
        }
    }

    /// The level `logging/setLevel` set, if any.
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "used by the HTTP transport")
    )]
    pub(crate) fn log_level_set(&self) -> Option<LogLevel> {
        match self.state.log_level.load(Ordering::Relaxed) {
            0 => None,
            _ => Some(self.log_level()),
        }
    }

    pub(crate) fn set_log_level(&self, level: LogLevel) {
        let index = LogLevel::ALL.iter().position(|l| *l == level).unwrap_or(0);
        self.state
            .log_level
            .store(index as u8 + 1, Ordering::Relaxed);
    }

    /// Registers a running request under its id; the registration ends when dropped.
    pub(crate) fn register(&self, id: &Value, context: &Context) -> Option<Registration> {
        let map = self.state.in_flight.as_ref()?;
        lock(map).push((id.clone(), context.clone()));
        Some(Registration {
            map: Arc::clone(map),
            context: context.clone(),
        })
    }

    /// Cancels the running requests with this id (`1` and `"1"` differ); an unknown or
    /// finished id is ignored.
    pub(crate) fn cancel(&self, id: &Value) -> bool {
        let Some(map) = &self.state.in_flight else {
            return false;
        };
        let mut found = false;
        for (_, context) in lock(map).iter().filter(|(running, _)| running == id) {
            context.cancel();
            found = true;
        }
        found
    }

    /// Cancels every running request (the connection ends).
    #[cfg_attr(
        not(feature = "stdio"),
        allow(dead_code, reason = "used by the stdio transport")
    )]
    pub(crate) fn cancel_all(&self) {
        if let Some(map) = &self.state.in_flight {
            for (_, context) in lock(map).iter() {
                context.cancel();
            }
        }
    }
}

/// Resource subscriptions one session or one listen stream may hold.
pub(crate) const MAX_SUBSCRIPTIONS: usize = 1000;

/// Why a resource subscription was refused.
pub(crate) enum Unsubscribable {
    /// The session has not initialized.
    NotInitialized,
    /// It holds [`MAX_SUBSCRIPTIONS`] already.
    TooMany,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A running request's place in its session's list; removed when the request ends.
pub(crate) struct Registration {
    map: InFlight,
    context: Context,
}

impl Drop for Registration {
    fn drop(&mut self) {
        let mut map = lock(&self.map);
        if let Some(i) = map.iter().position(|(_, c)| c.same(&self.context)) {
            map.swap_remove(i);
        }
    }
}
