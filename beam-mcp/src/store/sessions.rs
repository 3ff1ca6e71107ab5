//! 2025-11-25 sessions shared across replicas: the replica that answers `initialize` keeps the
//! session's record in a shared store; any other replica that a request of the session reaches
//! reads it there and serves the session as its own. What happens on one replica that another
//! must know (a client's response to a server's request, a cancellation, a new log level or
//! resource subscription, the end of the session) is relayed.

use std::sync::{Arc, Weak};
use std::time::Duration;

use serde_json::{Map, Value};

use super::{StoreError, StoreFuture};
use crate::level::LogLevel;

/// A session as every replica reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct SharedSession {
    /// The `Mcp-Session-Id`.
    pub id: String,
    /// The digest of the principal that opened it: only requests of the same principal are
    /// served on it (any other is answered 404, as for an unknown id).
    pub principal: Option<[u8; 32]>,
    /// That principal's share key (`None`: one that tells no caller apart).
    pub share: Option<u64>,
    /// What `initialize` settled: `protocolVersion` (the version agreed), `clientInfo`,
    /// `capabilities`.
    pub hello: Map<String, Value>,
    /// The level `logging/setLevel` set (`None`: every level, the default).
    pub log_level: Option<LogLevel>,
    /// The resources the session subscribed to.
    pub subscriptions: Vec<String>,
}

/// What one replica tells the others of a session.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SessionRelay {
    /// The client's response to a request the server sent (the whole message, with its `id`),
    /// for the replica that waits for it.
    Response(Map<String, Value>),
    /// `notifications/cancelled`'s params, for the replica that runs the request.
    Cancelled(Map<String, Value>),
    /// `logging/setLevel`.
    LogLevel(LogLevel),
    /// `resources/subscribe` (`true`) or `resources/unsubscribe` (`false`) of a URI.
    Subscribed(String, bool),
    /// A GET stream of the session opened on the replica that relays this: one held elsewhere
    /// ends, as a second GET on one replica takes the stream over.
    Listening,
    /// The session ended (DELETE): its requests are cancelled and its streams end everywhere.
    Ended,
}

/// Where 2025-11-25 sessions are shared between the replicas of one HTTP endpoint. The Redis
/// engine implements it (`redis::Redis::sessions`, feature `redis`); give it to
/// `HttpBuilder::session_share`.
///
/// ```
/// use beam_mcp::store::{SessionDelivery, SessionRelay, SessionShare, SharedSession, StoreError, StoreFuture};
/// use std::collections::HashMap;
/// use std::sync::Mutex;
/// use std::time::Duration;
///
/// /// One process's map, standing in for a shared store (nothing to relay: one replica).
/// #[derive(Default)]
/// struct InProcess(Mutex<HashMap<String, SharedSession>>);
///
/// impl SessionShare for InProcess {
///     fn open(&self, session: SharedSession, _idle: Duration, most: usize) -> StoreFuture<Result<bool, StoreError>> {
///         let mut map = self.0.lock().unwrap();
///         let held = map.values().filter(|s| session.share.is_some() && s.share == session.share).count();
///         if held >= most {
///             return StoreFuture::ready(Ok(false));
///         }
///         map.insert(session.id.clone(), session);
///         StoreFuture::ready(Ok(true))
///     }
///     fn touch(&self, id: &str, _idle: Duration) -> StoreFuture<Result<Option<SharedSession>, StoreError>> {
///         StoreFuture::ready(Ok(self.0.lock().unwrap().get(id).cloned()))
///     }
///     fn change(&self, id: &str, change: SessionRelay) -> StoreFuture<Result<(), StoreError>> {
///         let mut map = self.0.lock().unwrap();
///         match change {
///             SessionRelay::Ended => drop(map.remove(id)),
///             SessionRelay::LogLevel(level) => map.get_mut(id).into_iter().for_each(|s| s.log_level = Some(level)),
///             SessionRelay::Subscribed(uri, on) => map.get_mut(id).into_iter().for_each(|s| {
///                 s.subscriptions.retain(|u| *u != uri);
///                 if on { s.subscriptions.push(uri.clone()) }
///             }),
///             _ => {}
///         }
///         StoreFuture::ready(Ok(()))
///     }
///     fn deliver_to(&self, _delivery: SessionDelivery) {}
/// }
///
/// let store = InProcess::default();
/// let session = SharedSession {
///     id: "s1".into(),
///     principal: None,
///     share: None,
///     hello: Default::default(),
///     log_level: None,
///     subscriptions: vec![],
/// };
/// let idle = Duration::from_secs(1800);
/// assert!(store.open(session, idle, 250).into_ready().unwrap().unwrap());
/// store.change("s1", SessionRelay::Subscribed("file:///a".into(), true)).into_ready().unwrap().unwrap();
/// let held = store.touch("s1", idle).into_ready().unwrap().unwrap().unwrap();
/// assert_eq!(held.subscriptions, ["file:///a"]);
/// ```
pub trait SessionShare: Send + Sync + 'static {
    /// Keeps a new session's record, to expire after `idle` without a request; unless its
    /// principal (`session.share`, when set) holds `most` sessions already, across every
    /// replica: then `false`, and nothing is kept. A principal that tells no caller apart
    /// (`share` unset) is held to each replica's bound alone.
    fn open(
        &self,
        session: SharedSession,
        idle: Duration,
        most: usize,
    ) -> StoreFuture<Result<bool, StoreError>>;

    /// The session `id`, if the store still holds it, its expiry pushed `idle` on: every request
    /// of a session touches it, on whichever replica.
    fn touch(
        &self,
        id: &str,
        idle: Duration,
    ) -> StoreFuture<Result<Option<SharedSession>, StoreError>>;

    /// Applies `change` to the record (a log level, a subscription, or its end: the record is
    /// deleted) and relays it to the other replicas; a response or a cancellation is only
    /// relayed.
    fn change(&self, id: &str, change: SessionRelay) -> StoreFuture<Result<(), StoreError>>;

    /// From now on, hands what other replicas relay to `delivery`. Called once, when the
    /// endpoint is built.
    fn deliver_to(&self, delivery: SessionDelivery);
}

impl<T: SessionShare + ?Sized> SessionShare for Arc<T> {
    fn open(
        &self,
        session: SharedSession,
        idle: Duration,
        most: usize,
    ) -> StoreFuture<Result<bool, StoreError>> {
        (**self).open(session, idle, most)
    }

    fn touch(
        &self,
        id: &str,
        idle: Duration,
    ) -> StoreFuture<Result<Option<SharedSession>, StoreError>> {
        (**self).touch(id, idle)
    }

    fn change(&self, id: &str, change: SessionRelay) -> StoreFuture<Result<(), StoreError>> {
        (**self).change(id, change)
    }

    fn deliver_to(&self, delivery: SessionDelivery) {
        (**self).deliver_to(delivery)
    }
}

/// What applies another replica's relays: this replica's sessions.
pub(crate) trait SessionRelayed: Send + Sync + 'static {
    /// Applies `relay` to session `id` if this replica serves it; anything else is ignored.
    fn relayed(&self, id: &str, relay: SessionRelay);
}

/// Where a [`SessionShare`] hands what other replicas relayed: this replica's sessions, held
/// weakly, so a store that outlives its endpoint delivers to no one.
#[derive(Clone)]
pub struct SessionDelivery {
    sessions: Weak<dyn SessionRelayed>,
}

impl SessionDelivery {
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "sessions are the HTTP transport's")
    )]
    pub(crate) fn new<R: SessionRelayed>(sessions: &Arc<R>) -> SessionDelivery {
        let sessions: Weak<dyn SessionRelayed> =
            Arc::downgrade(sessions) as Weak<dyn SessionRelayed>;
        SessionDelivery { sessions }
    }

    /// Applies `relay` to session `id` if this replica serves it (the relaying replica checked
    /// its principal); anything else is ignored.
    pub fn deliver(&self, id: &str, relay: SessionRelay) {
        if let Some(sessions) = self.sessions.upgrade() {
            sessions.relayed(id, relay);
        }
    }
}

impl std::fmt::Debug for SessionDelivery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionDelivery")
            .field("endpoint_alive", &(self.sessions.strong_count() > 0))
            .finish()
    }
}
