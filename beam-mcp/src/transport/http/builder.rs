//! The endpoint's builder: the host's hooks, origins and hosts, bounds and timeouts, the
//! 2025-11-25 sessions, and the checks `build` makes.

use std::sync::Arc;
use std::time::Duration;

use axum::http::request::Parts;
use tokio::sync::Semaphore;

use super::hooks::{Authorize, AuthorizeBody, Refusal};
use super::legacy::Legacy;
use super::sessions::{SessionLimits, Sessions};
use super::{Endpoint, EventStore, Hosts, Http, MemoryEventStore, Origins, health, load};
#[cfg(feature = "oauth")]
use super::{OAuth, OAuthError};
use crate::Server;
use crate::context::{CancelFlag, Principal};

/// Why an HTTP endpoint could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HttpError {
    /// No `authorize`: there is no default, so a server is never open by accident.
    #[error(
        "the HTTP endpoint needs .authorize(..): it runs before the body is read; write |_| Ok(()) to serve everyone, on purpose"
    )]
    MissingAuthorize,
    /// No `allowed_origins`: there is no default.
    #[error(
        "the HTTP endpoint needs .allowed_origins(..): Origins::list([..]), Origins::Loopback, or Origins::Any on purpose"
    )]
    MissingAllowedOrigins,
    /// `max_sessions`, `max_sessions_per_principal` or `session_idle_timeout` of zero.
    #[error("max_sessions, max_sessions_per_principal and session_idle_timeout must be above zero")]
    ZeroSessions,
    /// `read_timeout` of zero.
    #[error("read_timeout must be longer than zero")]
    ZeroReadTimeout,
    /// `write_timeout` of zero.
    #[error("write_timeout must be longer than zero")]
    ZeroWriteTimeout,
    /// `max_connections` of zero: nothing could be served.
    #[error("max_connections must be above zero")]
    ZeroMaxConnections,
    /// `max_in_flight_requests` of zero: every request would be refused.
    #[error("max_in_flight_requests must be above zero")]
    ZeroMaxInFlightRequests,
    /// `shutdown_grace` of zero: nothing in flight could finish, not even a listen stream's
    /// last result.
    #[error("shutdown_grace must be longer than zero")]
    ZeroShutdownGrace,
    /// A `health_route` that is not a literal path outside `/mcp` (the path, and why).
    #[error("health_route {0:?} cannot be served: {1}")]
    HealthRoute(String, &'static str),
    /// A `health_probe` without a `health_route`: nothing would ask it.
    #[error("health_probe needs a health_route to be asked from")]
    ProbeWithoutHealthRoute,
    /// A `session_share` with the default in-memory event store (a stream would be resumable
    /// on one replica only) or with `stateless_legacy` (no sessions to share).
    #[error(
        "session_share needs an event_store the replicas share too (the in-memory default is one replica's), and sessions (not stateless_legacy)"
    )]
    SessionShareAlone,
    /// An [`OAuth`] configuration that cannot serve.
    #[cfg(feature = "oauth")]
    #[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
    #[error("OAuth: {0}")]
    OAuth(#[from] OAuthError),
}

/// Builds an [`Http`] endpoint; `authorize` and `allowed_origins` are required.
///
/// ```
/// use beam_mcp::Server;
/// use beam_mcp::transport::http::{Http, Origins, Refusal};
///
/// let server = Server::builder().build().unwrap();
/// let endpoint = Http::builder(server)
///     .authorize(|parts| match parts.headers.get("authorization") {
///         Some(v) if v == "Bearer s3cret" => Ok(()),
///         _ => Err(Refusal::new("no or wrong bearer token")),
///     })
///     .allowed_origins(Origins::list(["https://app.example"]))
///     .build()
///     .unwrap();
/// let app: axum::Router = axum::Router::new().nest("/mcp", endpoint.router());
/// # let _ = app;
/// ```
#[must_use = "a builder does nothing until .build()"]
pub struct HttpBuilder {
    pub(super) server: Server,
    pub(super) authorize: Option<Authorize>,
    pub(super) authorize_body: Option<AuthorizeBody>,
    pub(super) origins: Option<Origins>,
    pub(super) hosts: Hosts,
    pub(super) read_timeout: Duration,
    pub(super) write_timeout: Duration,
    pub(super) sessions: Option<SessionLimits>,
    pub(super) event_store: Option<Arc<dyn EventStore>>,
    pub(super) session_share: Option<Arc<dyn crate::store::SessionShare>>,
    pub(super) stream_share: Option<Arc<dyn crate::store::StreamShare>>,
    pub(super) stateless_legacy: bool,
    pub(super) max_connections: usize,
    pub(super) max_in_flight_requests: usize,
    pub(super) max_in_flight_per_principal: Option<usize>,
    pub(super) max_streams_per_principal: Option<usize>,
    pub(super) shutdown_grace: Duration,
    pub(super) health_route: Option<String>,
    pub(super) health_probe: Option<Arc<dyn crate::store::Probe>>,
    pub(super) server_card: Option<hyper::body::Bytes>,
    #[cfg(feature = "oauth")]
    pub(super) oauth: Option<OAuth>,
    #[cfg_attr(
        not(feature = "oauth"),
        allow(dead_code, reason = "read when OAuth is built in")
    )]
    /// The host set `authorize` itself: with `oauth` too, the later one would silently
    /// replace the other, so `build` refuses the pair.
    pub(super) host_authorize: bool,
}

impl HttpBuilder {
    /// Makes the endpoint an OAuth 2.1 resource server: `authorize` checks the bearer token
    /// (host code reads an [`OAuthPrincipal`](super::OAuthPrincipal)), and [`serve`](super::serve) serves the RFC 9728 metadata
    /// (see [`OAuth`]). With [`authorize`](Self::authorize) or `authorize_async` also set, in
    /// either order, [`build`](Self::build) refuses: one would silently replace the other.
    ///
    /// ```
    /// use beam_mcp::transport::http::{Http, OAuth, Origins};
    ///
    /// # let server = beam_mcp::Server::builder().build().unwrap();
    /// let oauth = OAuth::resource("https://mcp.example.com/mcp")
    ///     .issuer("https://auth.example.com")
    ///     .hmac_secret(b"a shared secret of at least 32 bytes")
    ///     .unwrap();
    /// let endpoint = Http::builder(server)
    ///     .oauth(oauth)
    ///     .allowed_origins(Origins::Loopback)
    ///     .build()
    ///     .unwrap();
    /// let app = axum::Router::new()
    ///     .nest("/mcp", endpoint.router())
    ///     .merge(endpoint.oauth_metadata_router().unwrap());
    /// # let _ = app;
    /// ```
    #[cfg(feature = "oauth")]
    #[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
    pub fn oauth(mut self, oauth: OAuth) -> Self {
        let check = oauth.clone();
        self.oauth = Some(oauth);
        self.authorize = Some(Authorize::Now(Arc::new(move |parts: &Parts| {
            check.authorize(parts).map(Principal::new)
        })));
        self
    }

    /// Decides, from the request line and headers alone, whether to read the body. Required.
    ///
    /// What it returns is the caller's identity (any type: `()`, a user id, a claims struct);
    /// host code reads it with [`Context::principal`](crate::Context::principal). It is `Hash`
    /// because a multi-round-trip `requestState` binds a digest of it.
    pub fn authorize<P: std::any::Any + Send + Sync + std::hash::Hash>(
        mut self,
        f: impl Fn(&Parts) -> Result<P, Refusal> + Send + Sync + 'static,
    ) -> Self {
        self.authorize = Some(Authorize::Now(Arc::new(move |parts: &Parts| {
            f(parts).map(Principal::new)
        })));
        self.host_authorize = true;
        self
    }

    /// [`authorize`](Self::authorize) for a decision that must wait (a token introspection, a
    /// database): the closure reads what it needs from the request head and returns a future.
    /// It runs under the body deadline (`read_timeout`); one that overruns it, or panics, is
    /// answered 500 and logged.
    ///
    /// ```
    /// use beam_mcp::transport::http::{Http, Origins, Refusal};
    ///
    /// # let server = beam_mcp::Server::builder().build().unwrap();
    /// let endpoint = Http::builder(server)
    ///     .authorize_async(|parts| {
    ///         let token = parts.headers.get("authorization").cloned();
    ///         async move {
    ///             match token {
    ///                 Some(t) if t == "Bearer s3cret" => Ok("alice".to_owned()),
    ///                 _ => Err(Refusal::new("no or wrong bearer token")),
    ///             }
    ///         }
    ///     })
    ///     .allowed_origins(Origins::Loopback)
    ///     .build()
    ///     .unwrap();
    /// # let _ = endpoint;
    /// ```
    pub fn authorize_async<P, F>(mut self, f: impl Fn(&Parts) -> F + Send + Sync + 'static) -> Self
    where
        P: std::any::Any + Send + Sync + std::hash::Hash,
        F: std::future::Future<Output = Result<P, Refusal>> + Send + 'static,
    {
        self.host_authorize = true;
        self.authorize = Some(Authorize::Later(Arc::new(move |parts: &Parts| {
            let decided = f(parts);
            Box::pin(async move { decided.await.map(Principal::new) })
        })));
        self
    }

    /// Decides, given the body exactly as received, whether to decode it (for signed bodies).
    pub fn authorize_body(
        mut self,
        f: impl Fn(&Parts, &[u8]) -> Result<(), Refusal> + Send + Sync + 'static,
    ) -> Self {
        self.authorize_body = Some(Arc::new(f));
        self
    }

    /// The `Origin` values served. Required.
    pub fn allowed_origins(mut self, origins: Origins) -> Self {
        self.origins = Some(origins);
        self
    }

    /// The `Host` values served (default [`Hosts::Loopback`]).
    pub fn allowed_hosts(mut self, hosts: Hosts) -> Self {
        self.hosts = hosts;
        self
    }

    /// The deadline for the whole body (default 15 s).
    pub fn read_timeout(mut self, timeout: Duration) -> Self {
        self.read_timeout = timeout;
        self
    }

    /// How long a write may wait for the client to take a single byte (default 30 s) before
    /// [`serve`](super::serve) closes the connection: a client that sends requests but never reads its
    /// answers. A quiet connection is not a stalled one, so an idle listen stream is kept.
    ///
    /// ```
    /// use std::time::Duration;
    /// use beam_mcp::transport::http::{Http, Origins};
    ///
    /// # let server = beam_mcp::Server::builder().build().unwrap();
    /// let endpoint = Http::builder(server)
    ///     .authorize(|_| Ok(()))
    ///     .allowed_origins(Origins::Loopback)
    ///     .write_timeout(Duration::from_secs(10))
    ///     .build()
    ///     .unwrap();
    /// # let _ = endpoint;
    /// ```
    pub fn write_timeout(mut self, timeout: Duration) -> Self {
        self.write_timeout = timeout;
        self
    }

    /// The most 2025-11-25 sessions open at once (default 1000). At the bound an
    /// `initialize` is answered 503 with `Retry-After`, after idle sessions are dropped;
    /// existing sessions are untouched.
    pub fn max_sessions(mut self, sessions: usize) -> Self {
        self.sessions.get_or_insert_with(SessionLimits::default).max = sessions;
        self
    }

    /// The most 2025-11-25 sessions one principal may hold open (default: a quarter of
    /// [`max_sessions`](Self::max_sessions), at least 1); past it its `initialize` is answered
    /// 503 as at the bound, and other principals still open theirs. Principals are what
    /// `authorize` returned, told apart by value; the anonymous `()` tells no caller apart, so
    /// its callers are held to the bound alone.
    ///
    /// ```
    /// # use beam_mcp::transport::http::{Http, Origins};
    /// let endpoint = Http::builder(beam_mcp::Server::builder().build().unwrap())
    ///     .authorize(|_| Ok(()))
    ///     .allowed_origins(Origins::Loopback)
    ///     .max_sessions_per_principal(10)
    ///     .build()
    ///     .unwrap();
    /// # let _ = endpoint;
    /// ```
    pub fn max_sessions_per_principal(mut self, sessions: usize) -> Self {
        self.sessions
            .get_or_insert_with(SessionLimits::default)
            .share = Some(sessions);
        self
    }

    /// How long a 2025-11-25 session may sit idle (nothing running, no GET stream, no request)
    /// before it ends (default 30 minutes); its id then gets 404.
    pub fn session_idle_timeout(mut self, idle: Duration) -> Self {
        self.sessions
            .get_or_insert_with(SessionLimits::default)
            .idle = idle;
        self
    }

    /// Where the events of session streams are kept for `Last-Event-ID` (default: a
    /// [`MemoryEventStore`] holding the newest 1000 events per session, at most 16 MiB per
    /// session, a quarter of the total per principal and 64 MiB in all; past a principal's
    /// share its oldest events go, past the total the heaviest session gives up its oldest
    /// events, and a resumption from before what is kept is refused with 400).
    pub fn event_store(mut self, store: impl EventStore) -> Self {
        self.event_store = Some(Arc::new(store));
        self
    }

    /// Shares the 2025-11-25 sessions with the other replicas of this endpoint through
    /// `share`, so that a balancer may send any request of a session to any replica (the
    /// Redis engine: `redis::Redis::sessions`, feature `redis`). It needs an
    /// [`event_store`](Self::event_store) the replicas share too (`redis::Redis::event_store`).
    ///
    /// The replica that answers `initialize` keeps the session's record in the store; a
    /// request of the session touches it there, wherever it lands (so a session ended or
    /// expired anywhere is not served from memory, and a store that does not answer refuses the
    /// request with 503). A client's response to a request another replica sent it, a
    /// cancellation, a new log level or subscription, a GET stream opened and the session's
    /// end reach the other replicas. A replica that stops leaves its sessions to the others.
    ///
    /// ```
    /// use beam_mcp::store::{SessionDelivery, SessionRelay, SessionShare, SharedSession, StoreError, StoreFuture};
    /// use beam_mcp::transport::http::{Http, HttpError, MemoryEventStore, Origins};
    /// use std::time::Duration;
    ///
    /// struct Nowhere;
    /// impl SessionShare for Nowhere {
    ///     fn open(&self, _: SharedSession, _: Duration, _: usize) -> StoreFuture<Result<bool, StoreError>> {
    ///         StoreFuture::ready(Err(StoreError::unavailable("nowhere")))
    ///     }
    ///     fn touch(&self, _: &str, _: Duration) -> StoreFuture<Result<Option<SharedSession>, StoreError>> {
    ///         StoreFuture::ready(Ok(None))
    ///     }
    ///     fn change(&self, _: &str, _: SessionRelay) -> StoreFuture<Result<(), StoreError>> {
    ///         StoreFuture::ready(Ok(()))
    ///     }
    ///     fn deliver_to(&self, _: SessionDelivery) {}
    /// }
    ///
    /// let server = || beam_mcp::Server::builder().build().unwrap();
    /// // Sessions shared, their streams' events not: refused.
    /// let alone = Http::builder(server())
    ///     .authorize(|_| Ok(()))
    ///     .allowed_origins(Origins::Loopback)
    ///     .session_share(Nowhere)
    ///     .build();
    /// assert!(matches!(alone, Err(HttpError::SessionShareAlone)));
    /// ```
    pub fn session_share(mut self, share: impl crate::store::SessionShare) -> Self {
        self.session_share = Some(Arc::new(share));
        self
    }

    /// Counts each principal's listen streams across the replicas of this endpoint through
    /// `share`, so [`max_streams_per_principal`](Self::max_streams_per_principal) holds for
    /// all of them together, not for each (the Redis engine: `redis::Redis::streams`, feature
    /// `redis`).
    ///
    /// A stream takes this replica's place first, then a lease in the store, renewed every
    /// 20 s while it is open and given back when it ends; a replica that dies holds its
    /// streams' leases for 60 s at most. A store that does not answer refuses the stream with
    /// 503 and `Retry-After` (`-32603`). The anonymous `()` principal is held to each replica's
    /// connection bound alone, and asks the store nothing.
    ///
    /// ```
    /// use beam_mcp::store::{StoreError, StoreFuture, StreamShare};
    /// use beam_mcp::transport::http::{Http, Origins};
    /// use std::time::Duration;
    ///
    /// /// A store that refuses every principal's streams past none at all.
    /// struct Closed;
    /// impl StreamShare for Closed {
    ///     fn open(&self, _: u64, _: &str, _: Duration, _: usize) -> StoreFuture<Result<bool, StoreError>> {
    ///         StoreFuture::ready(Ok(false))
    ///     }
    ///     fn renew(&self, _: u64, _: &str, _: Duration) -> StoreFuture<Result<(), StoreError>> {
    ///         StoreFuture::ready(Ok(()))
    ///     }
    ///     fn close(&self, _: u64, _: &str) -> StoreFuture<Result<(), StoreError>> {
    ///         StoreFuture::ready(Ok(()))
    ///     }
    /// }
    ///
    /// let endpoint = Http::builder(beam_mcp::Server::builder().build().unwrap())
    ///     .authorize(|parts| Ok(parts.headers.get("x-user").map(|v| v.as_bytes().to_vec())))
    ///     .allowed_origins(Origins::Loopback)
    ///     .stream_share(Closed)
    ///     .build()
    ///     .unwrap();
    /// # let _ = endpoint;
    /// ```
    pub fn stream_share(mut self, share: impl crate::store::StreamShare) -> Self {
        self.stream_share = Some(Arc::new(share));
        self
    }

    /// Serves 2025-11-25 clients without sessions: no `Mcp-Session-Id` is issued and each
    /// request stands alone, so any replica behind a balancer can answer it. Asking the client
    /// is then unavailable (`AskError::Unavailable`), and `logging/setLevel` and
    /// `resources/subscribe`/`unsubscribe` are refused (`-32600`).
    pub fn stateless_legacy(mut self) -> Self {
        self.sessions = None;
        self.event_store = None;
        self.stateless_legacy = true;
        self
    }

    /// The most connections [`serve`](super::serve) keeps open at once (default 1024). Past it a new
    /// connection is closed as soon as it is accepted, before anything is read or written
    /// (the client sees the connection end, and may retry); the open ones are untouched.
    ///
    /// ```
    /// use beam_mcp::transport::http::{Http, Origins};
    ///
    /// # let server = beam_mcp::Server::builder().build().unwrap();
    /// let endpoint = Http::builder(server)
    ///     .authorize(|_| Ok(()))
    ///     .allowed_origins(Origins::Loopback)
    ///     .max_connections(64)
    ///     .build()
    ///     .unwrap();
    /// # let _ = endpoint;
    /// ```
    pub fn max_connections(mut self, connections: usize) -> Self {
        self.max_connections = connections;
        self
    }

    /// The most requests the endpoint runs host code for at once (default 256): a request takes
    /// its place when the core hands it to host code and holds it until the last byte of its
    /// answer is written (a streamed answer included). Past it the request is answered 503 with
    /// `Retry-After: 1` and its id; the connection is kept. A response to the server's ask, a
    /// notification and whatever the core answers at once take no place, so an answer always
    /// gets through; a 2025-11-25 call waiting on its client's answer gives its place back
    /// while it waits. A listen stream (`subscriptions/listen`, a 2025-11-25 GET) takes none:
    /// it waits without working, and each holds a connection, which
    /// [`max_connections`](Self::max_connections) bounds, as it bounds what comes before the
    /// body (the `authorize` hooks, a slow body under `read_timeout`).
    ///
    /// ```
    /// use beam_mcp::transport::http::{Http, Origins};
    ///
    /// # let server = beam_mcp::Server::builder().build().unwrap();
    /// let endpoint = Http::builder(server)
    ///     .authorize(|_| Ok(()))
    ///     .allowed_origins(Origins::Loopback)
    ///     .max_in_flight_requests(32)
    ///     .build()
    ///     .unwrap();
    /// # let _ = endpoint;
    /// ```
    pub fn max_in_flight_requests(mut self, requests: usize) -> Self {
        self.max_in_flight_requests = requests;
        self
    }

    /// The most in-flight places one principal holds at once (default: a quarter of
    /// [`max_in_flight_requests`](Self::max_in_flight_requests), at least one), so that one
    /// caller cannot take every place while another waits. Past it that caller's request is
    /// answered 503 with `Retry-After: 1`, as at the bound. Principals are what `authorize`
    /// returned, told apart by value; a server whose `authorize` returns `()` tells no caller
    /// from another, so its callers are held to the bound alone (each 2025-11-25 session to
    /// its own bound of running requests, and a connection carries one request at a time).
    /// Name callers in `authorize` (a token's subject, a client address) to give each a share.
    ///
    /// ```
    /// use beam_mcp::transport::http::{Http, Origins};
    ///
    /// # let server = beam_mcp::Server::builder().build().unwrap();
    /// let endpoint = Http::builder(server)
    ///     .authorize(|parts| Ok(parts.headers.get("x-user").map(|v| v.as_bytes().to_vec())))
    ///     .allowed_origins(Origins::Loopback)
    ///     .max_in_flight_requests(64)
    ///     .max_in_flight_per_principal(8)
    ///     .build()
    ///     .unwrap();
    /// # let _ = endpoint;
    /// ```
    pub fn max_in_flight_per_principal(mut self, requests: usize) -> Self {
        self.max_in_flight_per_principal = Some(requests);
        self
    }

    /// The most listen streams one principal may hold open at once: `subscriptions/listen`
    /// streams and 2025-11-25 GET streams, resumed streams included (default: a quarter of
    /// [`max_connections`](Self::max_connections), at least one). Each holds a connection
    /// without working, so one caller could otherwise take every connection; past its share a
    /// stream is answered 503 with `Retry-After` and `-32600` "Too many streams open: try again
    /// later". The anonymous `()` principal tells no caller apart, so its streams are held to
    /// the connection bound alone.
    ///
    /// ```
    /// # use beam_mcp::transport::http::{Http, Origins};
    /// let endpoint = Http::builder(beam_mcp::Server::builder().build().unwrap())
    ///     .authorize(|_| Ok(()))
    ///     .allowed_origins(Origins::Loopback)
    ///     .max_streams_per_principal(16)
    ///     .build()
    ///     .unwrap();
    /// # let _ = endpoint;
    /// ```
    pub fn max_streams_per_principal(mut self, streams: usize) -> Self {
        self.max_streams_per_principal = Some(streams);
        self
    }

    /// How long [`serve`](super::serve) lets the requests in flight finish once asked to stop (SIGTERM,
    /// ctrl-c, or [`serve_until`](super::serve_until)'s future), default 10 s. New connections are refused from
    /// the start of it; connections still open at its end are dropped, which cancels what
    /// they run.
    ///
    /// ```
    /// use std::time::Duration;
    /// use beam_mcp::transport::http::{Http, Origins};
    ///
    /// # let server = beam_mcp::Server::builder().build().unwrap();
    /// let endpoint = Http::builder(server)
    ///     .authorize(|_| Ok(()))
    ///     .allowed_origins(Origins::Loopback)
    ///     .shutdown_grace(Duration::from_secs(25))
    ///     .build()
    ///     .unwrap();
    /// # let _ = endpoint;
    /// ```
    pub fn shutdown_grace(mut self, grace: Duration) -> Self {
        self.shutdown_grace = grace;
        self
    }

    /// Serves `card` at `<endpoint>/server-card` (`/mcp/server-card` under [`serve`](super::serve);
    /// `/server-card` within [`Http::router`], so nested at `/mcp` it is there too), where the
    /// Server Card draft (SEP-2127) reserves it: `GET` answers it as
    /// `application/mcp-server-card+json` with `Access-Control-Allow-Origin: *` and
    /// `Cache-Control: public, max-age=3600`. None of the endpoint's checks run for it: it is
    /// the public document a client reads before it connects.
    ///
    /// ```
    /// use beam_mcp::transport::http::{Http, Origins};
    /// use beam_mcp::{Server, ServerCard};
    ///
    /// let server = Server::builder().name("w").version("1.0.0").description("Weather.").build()?;
    /// let card = ServerCard::of(&server, "com.example/w", Some("https://w.example.com/mcp"))?;
    /// let endpoint = Http::builder(server)
    ///     .authorize(|_| Ok(()))
    ///     .allowed_origins(Origins::Loopback)
    ///     .server_card(card)
    ///     .build()?;
    /// # let _ = endpoint;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn server_card(mut self, card: crate::ServerCard) -> Self {
        self.server_card = Some(hyper::body::Bytes::copy_from_slice(card.bytes()));
        self
    }

    /// Serves a health route for load balancers at `path` (off unless set): `GET` (and
    /// `HEAD`) answers 200 `ok`, or 503 `shutting down` once the endpoint stops; other methods
    /// 405. Only for that exact path and method, none of the endpoint's checks run (`Origin`,
    /// `Host`, `authorize`, the in-flight bound): a balancer probes by address without
    /// credentials, and the answer says nothing but that the process serves. [`serve`](super::serve) serves
    /// it beside `/mcp`; a host serving [`Http::router`] itself routes its own.
    ///
    /// `path` is literal (ASCII letters, digits, `/`, `-`, `.`, `_`, `~`) and outside `/mcp`;
    /// another is refused at [`build`](Self::build).
    ///
    /// ```
    /// use beam_mcp::transport::http::{Http, HttpError, Origins};
    ///
    /// # let server = || beam_mcp::Server::builder().build().unwrap();
    /// let endpoint = Http::builder(server())
    ///     .authorize(|_| Ok(()))
    ///     .allowed_origins(Origins::Loopback)
    ///     .health_route("/healthz")
    ///     .build()
    ///     .unwrap();
    /// # let _ = endpoint;
    /// let refused = Http::builder(server())
    ///     .authorize(|_| Ok(()))
    ///     .allowed_origins(Origins::Loopback)
    ///     .health_route("/mcp/health")
    ///     .build()
    ///     .unwrap_err();
    /// assert!(matches!(refused, HttpError::HealthRoute(..)));
    /// ```
    pub fn health_route(mut self, path: impl Into<String>) -> Self {
        self.health_route = Some(path.into());
        self
    }

    /// Makes the health route ask a shared store too: while `probe` fails, `GET` answers 503
    /// `store unavailable` (what the store said goes to the log), so a balancer sends the
    /// replica no work its requests would be refused for. The Redis engine is a probe
    /// (`redis::Redis`, feature `redis`).
    ///
    /// ```
    /// use beam_mcp::store::{Probe, StoreError, StoreFuture};
    /// use beam_mcp::transport::http::{Http, Origins};
    ///
    /// struct Gone;
    /// impl Probe for Gone {
    ///     fn probe(&self) -> StoreFuture<Result<(), StoreError>> {
    ///         StoreFuture::ready(Err(StoreError::unavailable("unplugged")))
    ///     }
    /// }
    /// let endpoint = Http::builder(beam_mcp::Server::builder().build().unwrap())
    ///     .authorize(|_| Ok(()))
    ///     .allowed_origins(Origins::Loopback)
    ///     .health_route("/healthz")
    ///     .health_probe(Gone)
    ///     .build()
    ///     .unwrap();
    /// # let _ = endpoint;
    /// ```
    pub fn health_probe(mut self, probe: impl crate::store::Probe) -> Self {
        self.health_probe = Some(Arc::new(probe));
        self
    }

    /// Checks the configuration.
    // `mut` for the OAuth resource server, which learns the catalog's scopes here.
    #[cfg_attr(not(feature = "oauth"), allow(unused_mut))]
    pub fn build(mut self) -> Result<Http, HttpError> {
        #[cfg(feature = "oauth")]
        if let Some(oauth) = self.oauth.take() {
            let scopes = self.server.item_scopes();
            self.oauth = Some(oauth.with_item_scopes(scopes));
        }
        #[cfg(feature = "oauth")]
        if let Some(oauth) = &self.oauth {
            oauth.check()?;
            if self.host_authorize {
                return Err(HttpError::OAuth(
                    crate::transport::http::OAuthError::WithAuthorize,
                ));
            }
        }
        let authorize = self.authorize.ok_or(HttpError::MissingAuthorize)?;
        let origins = self.origins.ok_or(HttpError::MissingAllowedOrigins)?;
        if self.read_timeout.is_zero() {
            return Err(HttpError::ZeroReadTimeout);
        }
        if self.write_timeout.is_zero() {
            return Err(HttpError::ZeroWriteTimeout);
        }
        if self.max_connections == 0 {
            return Err(HttpError::ZeroMaxConnections);
        }
        if self.max_in_flight_requests == 0 {
            return Err(HttpError::ZeroMaxInFlightRequests);
        }
        if self.shutdown_grace.is_zero() {
            return Err(HttpError::ZeroShutdownGrace);
        }
        if let Some(path) = &self.health_route
            && let Some(why) = health::refusal(path)
        {
            return Err(HttpError::HealthRoute(path.clone(), why));
        }
        if self.health_probe.is_some() && self.health_route.is_none() {
            return Err(HttpError::ProbeWithoutHealthRoute);
        }
        // The semaphore's own ceiling; far above any useful bound.
        let max_in_flight_requests = self.max_in_flight_requests.min(Semaphore::MAX_PERMITS);
        // A quarter of the bound by default (at least one), and never more than the bound.
        let per_principal = self
            .max_in_flight_per_principal
            .unwrap_or(max_in_flight_requests / 4)
            .clamp(1, max_in_flight_requests);
        let max_connections = self.max_connections.min(Semaphore::MAX_PERMITS);
        let streams_per_principal = self
            .max_streams_per_principal
            .unwrap_or(max_connections / 4)
            .clamp(1, max_connections);
        let server = self.server;
        let limits = self.sessions.unwrap_or_default();
        if limits.max == 0 || limits.share() == 0 || limits.idle.is_zero() {
            return Err(HttpError::ZeroSessions);
        }
        if self.session_share.is_some() && (self.event_store.is_none() || self.stateless_legacy) {
            return Err(HttpError::SessionShareAlone);
        }
        // Served only when the server serves a revision of that era.
        let legacy = server
            .inner
            .revisions
            .iter()
            .any(|r| !r.is_stateless())
            .then(|| {
                if self.stateless_legacy {
                    Legacy::Stateless
                } else {
                    let store: Arc<dyn EventStore> = self
                        .event_store
                        .unwrap_or_else(|| Arc::new(MemoryEventStore::default()));
                    let mut sessions = Sessions::new(limits, Arc::clone(&store));
                    if let Some(share) = self.session_share {
                        sessions = sessions.shared(share);
                    }
                    let sessions = Arc::new(sessions);
                    if let Some(share) = sessions.share() {
                        share.deliver_to(crate::store::SessionDelivery::new(&sessions));
                    }
                    Legacy::Sessions { sessions, store }
                }
            });
        Ok(Http {
            inner: Arc::new(Endpoint {
                legacy,
                server,
                authorize,
                authorize_body: self.authorize_body,
                origins,
                hosts: self.hosts,
                read_timeout: self.read_timeout,
                write_timeout: self.write_timeout,
                in_flight: load::Places::new(max_in_flight_requests, per_principal),
                streams: load::Places::new(max_connections, streams_per_principal),
                stream_share: self.stream_share,
                max_connections: self.max_connections,
                shutdown_grace: self.shutdown_grace,
                health_route: self.health_route,
                server_card: self.server_card,
                health_probe: self.health_probe,
                #[cfg(feature = "oauth")]
                oauth: self.oauth,
                stopping: Arc::new(CancelFlag::default()),
            }),
        })
    }
}
