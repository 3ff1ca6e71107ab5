//! Streamable HTTP (2026-07-28, stateless) on axum: one POST endpoint, every request checked
//! at the door, then handed to the core.
//!
//! The order of the checks, and the status of each refusal:
//!
//! | step | refusal | status | connection |
//! | --- | --- | --- | --- |
//! | `Origin` (every value) | not allowed | 403 | closed |
//! | `Host` (every value) | not served | 403 (400 when absent) | closed |
//! | method | not POST | 405 + `Allow: POST` | closed |
//! | framing | any `transfer-encoding` | 411 | closed |
//! | `authorize` | refused / unauthenticated / panicked | 403 / 401 + `WWW-Authenticate` / 500 | closed |
//! | `content-length` | over 1 MiB | 413 | closed |
//! | body | over 1 MiB / past the deadline / broken | 413 / 408 / 400 | closed |
//! | `authorize_body` | refused / panicked | 403 / 500 | kept |
//! | decode | empty, not JSON, too deep, duplicate keys, not one request | 400 | kept |
//! | headers | `MCP-Protocol-Version`, `_meta`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*` | 400 | kept |
//! | in flight | a request handed to host code past `max_in_flight_requests` (256) | 503 + `Retry-After: 1` | kept |
//! | core | -32601 / a missing `_meta` field (-32602), -32020, -32021, -32022 / -31429 / any other error, a result / notification | 404 / 400 / 429 / 200 / 202 | kept |
//! | core, streaming | a request with `progressToken` or `logLevel` for an item that can emit | 200 `text/event-stream`: notifications, then the response | kept |
//!
//! A refusal before the body is read closes the connection, because the unread body would
//! otherwise be parsed as the next request. Refusal reasons from the host's hooks go to the
//! log, never to the caller. A connection whose writes make no progress for `write_timeout`
//! (a client that stopped reading) is closed by [`serve`].
//!
//! [`serve`] also bounds the connections open at once (`max_connections`, 1024: past it a new
//! one is closed as soon as it is accepted), serves the optional health route beside `/mcp`
//! (`health_route`, which none of the checks above apply to; with the `oauth` feature, the RFC
//! 9728 metadata of `HttpBuilder::oauth` too), and stops gracefully at SIGTERM
//! or ctrl-c: new connections refused, requests in flight answered within `shutdown_grace`
//! (10 s), listen streams ended with their result (see [`serve_until`]).

mod body;
mod events;
mod guard;
pub(crate) mod headers;
mod health;
mod legacy;
mod load;
#[cfg(feature = "oauth")]
mod oauth;
mod serve;
mod sessions;
mod signals;
mod sse;
mod stall;
mod status;

use std::net::SocketAddr;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response as HttpResponse;
use serde_json::Value;
use tokio::sync::Semaphore;

pub use events::{EventStore, MemoryEventStore, ResumeError, StoredEvent};
pub use guard::{Hosts, Origins};
#[cfg(feature = "oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub use oauth::{OAuth, OAuthError, OAuthPrincipal};
pub use serve::{serve, serve_until};
pub use stall::WriteDeadline;

use legacy::Legacy;
use sessions::{SessionLimits, Sessions};
use status::Wire;

use crate::Server;
use crate::context::{CancelFlag, Principal};
use crate::json::{self, MAX_MESSAGE_BYTES};
use crate::protocol::{
    Logged, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, ProtocolError, Reply, Response,
    Revision, Session,
};
use crate::tool::BoxFuture;

/// Why a host's `authorize` or `authorize_body` refused a request. The reason goes to the
/// log; the caller sees only 403 "Forbidden".
///
/// ```
/// use beam_mcp::transport::http::Refusal;
/// let r = Refusal::new("token expired");
/// assert_eq!(r.reason(), "token expired");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    reason: String,
    challenge: Option<String>,
    /// 403 even with a challenge (`insufficient_scope`).
    forbidden: bool,
}

impl Refusal {
    /// A refusal with a reason for the log: 403 "Forbidden".
    pub fn new(reason: impl Into<String>) -> Self {
        Refusal {
            reason: reason.into(),
            challenge: None,
            forbidden: false,
        }
    }

    /// "Authenticate first": 401 "Unauthorized" with `WWW-Authenticate: <challenge>` (for
    /// example `Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource"`).
    ///
    /// ```
    /// use beam_mcp::transport::http::Refusal;
    /// let r = Refusal::unauthorized("no token", r#"Bearer realm="mcp""#);
    /// assert_eq!(r.challenge(), Some(r#"Bearer realm="mcp""#));
    /// ```
    pub fn unauthorized(reason: impl Into<String>, challenge: impl Into<String>) -> Self {
        Refusal {
            reason: reason.into(),
            challenge: Some(challenge.into()),
            forbidden: false,
        }
    }

    /// "Authenticated, but not allowed": 403 "Forbidden" with `WWW-Authenticate: <challenge>`
    /// (for example `Bearer error="insufficient_scope", scope="mcp:tools"`).
    ///
    /// ```
    /// use beam_mcp::transport::http::Refusal;
    /// let r = Refusal::insufficient_scope("no mcp:tools", r#"Bearer error="insufficient_scope""#);
    /// assert_eq!(r.challenge(), Some(r#"Bearer error="insufficient_scope""#));
    /// ```
    pub fn insufficient_scope(reason: impl Into<String>, challenge: impl Into<String>) -> Self {
        Refusal {
            reason: reason.into(),
            challenge: Some(challenge.into()),
            forbidden: true,
        }
    }

    /// The reason.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The `WWW-Authenticate` challenge of a 401, if any.
    pub fn challenge(&self) -> Option<&str> {
        self.challenge.as_deref()
    }
}

/// What `authorize` decides: the caller's identity, or a refusal.
type Decision = Result<Principal, Refusal>;

/// An `authorize` that decides later.
type DecideLater = dyn Fn(&Parts) -> BoxFuture<Decision> + Send + Sync;

/// The host's `authorize` hook, as written: it decides now, or later (it awaits a token check).
#[derive(Clone)]
enum Authorize {
    Now(Arc<dyn Fn(&Parts) -> Decision + Send + Sync>),
    Later(Arc<DecideLater>),
}
type AuthorizeBody = Arc<dyn Fn(&Parts, &[u8]) -> Result<(), Refusal> + Send + Sync>;

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
    server: Server,
    authorize: Option<Authorize>,
    authorize_body: Option<AuthorizeBody>,
    origins: Option<Origins>,
    hosts: Hosts,
    read_timeout: Duration,
    write_timeout: Duration,
    sessions: Option<SessionLimits>,
    event_store: Option<Arc<dyn EventStore>>,
    stateless_legacy: bool,
    max_connections: usize,
    max_in_flight_requests: usize,
    max_in_flight_per_principal: Option<usize>,
    max_streams_per_principal: Option<usize>,
    shutdown_grace: Duration,
    health_route: Option<String>,
    #[cfg(feature = "oauth")]
    oauth: Option<OAuth>,
    #[cfg_attr(
        not(feature = "oauth"),
        allow(dead_code, reason = "read when OAuth is built in")
    )]
    /// The host set `authorize` itself: with `oauth` too, the later one would silently
    /// replace the other, so `build` refuses the pair.
    host_authorize: bool,
}

impl HttpBuilder {
    /// Makes the endpoint an OAuth 2.1 resource server: `authorize` checks the bearer token
    /// (host code reads an [`OAuthPrincipal`]), and [`serve`] serves the RFC 9728 metadata
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
    /// [`serve`] closes the connection: a client that sends requests but never reads its
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

    /// The most connections [`serve`] keeps open at once (default 1024). Past it a new
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

    /// How long [`serve`] lets the requests in flight finish once asked to stop (SIGTERM,
    /// ctrl-c, or [`serve_until`]'s future), default 10 s. New connections are refused from
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

    /// Serves a health route for load balancers at `path` (off unless set): `GET` (and
    /// `HEAD`) answers 200 `ok`, or 503 `shutting down` once the endpoint stops; other methods
    /// 405. Only for that exact path and method, none of the endpoint's checks run (`Origin`,
    /// `Host`, `authorize`, the in-flight bound): a balancer probes by address without
    /// credentials, and the answer says nothing but that the process serves. [`serve`] serves
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

    /// Checks the configuration.
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
                    Legacy::Sessions {
                        sessions: Sessions::new(limits, Arc::clone(&store)),
                        store,
                    }
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
                max_connections: self.max_connections,
                shutdown_grace: self.shutdown_grace,
                health_route: self.health_route,
                #[cfg(feature = "oauth")]
                oauth: self.oauth,
                stopping: Arc::new(CancelFlag::default()),
            }),
        })
    }
}

struct Endpoint {
    server: Server,
    /// How 2025-11-25 clients are served, when the server serves that era.
    legacy: Option<Legacy>,
    authorize: Authorize,
    authorize_body: Option<AuthorizeBody>,
    origins: Origins,
    hosts: Hosts,
    read_timeout: Duration,
    write_timeout: Duration,
    /// A place per request being processed (`max_in_flight_requests`), at most
    /// `max_in_flight_per_principal` to one principal.
    in_flight: load::Places,
    /// A place per listen stream open (`max_connections` in all), at most
    /// `max_streams_per_principal` to one principal.
    streams: load::Places,
    max_connections: usize,
    shutdown_grace: Duration,
    health_route: Option<String>,
    /// The resource server whose metadata `serve` serves.
    #[cfg(feature = "oauth")]
    oauth: Option<OAuth>,
    /// Set once the endpoint stops: the health route turns 503, GET streams end, and `serve`'s
    /// connections finish.
    stopping: Arc<CancelFlag>,
}

/// A checked HTTP endpoint; [`router`](Http::router) gives the axum `Router` to nest.
#[derive(Clone)]
pub struct Http {
    inner: Arc<Endpoint>,
}

impl std::fmt::Debug for Http {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Http")
            .field("origins", &self.inner.origins)
            .field("hosts", &self.inner.hosts)
            .field("read_timeout", &self.inner.read_timeout)
            .field("write_timeout", &self.inner.write_timeout)
            .field("max_connections", &self.inner.max_connections)
            .field("shutdown_grace", &self.inner.shutdown_grace)
            .field("health_route", &self.inner.health_route)
            .finish_non_exhaustive()
    }
}

impl Http {
    /// A builder for serving `server` over HTTP.
    pub fn builder(server: Server) -> HttpBuilder {
        HttpBuilder {
            server,
            authorize: None,
            authorize_body: None,
            origins: None,
            hosts: Hosts::default(),
            read_timeout: Duration::from_secs(15),
            write_timeout: Duration::from_secs(30),
            sessions: None,
            event_store: None,
            stateless_legacy: false,
            max_connections: 1024,
            max_in_flight_requests: 256,
            max_in_flight_per_principal: None,
            max_streams_per_principal: None,
            shutdown_grace: Duration::from_secs(10),
            health_route: None,
            #[cfg(feature = "oauth")]
            oauth: None,
            host_authorize: false,
        }
    }

    /// The endpoint as a `Router` answering at its root: nest it where it belongs
    /// (`Router::new().nest("/mcp", http.router())`). It must not sit behind a body-reading
    /// layer: it reads the body itself, under its own bounds. On a server of your own, the
    /// connection bound and `TCP_NODELAY` are that server's to set, as [`serve`] sets them:
    /// without `TCP_NODELAY`, every streamed answer on a kept-alive connection waits about 40 ms
    /// for the client's delayed ACK.
    pub fn router(&self) -> Router {
        Router::new()
            .route("/", axum::routing::any(endpoint))
            .with_state(Arc::clone(&self.inner))
    }

    /// The RFC 9728 metadata routes of the endpoint's [`OAuth`], if any, for a host serving
    /// [`router`](Self::router) itself (merge it at the root); [`serve`] merges it.
    #[cfg(feature = "oauth")]
    #[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
    pub fn oauth_metadata_router(&self) -> Option<Router> {
        self.inner.oauth.as_ref().map(OAuth::metadata_router)
    }

    /// Starts the endpoint's shutdown, which [`serve`] does at a signal: the health route
    /// answers 503, and listen streams (`subscriptions/listen`, 2025-11-25 GET streams) end
    /// with their result, as at the end of stdio input. Requests running go on. A host that
    /// serves [`router`](Self::router) on its own server calls it when its graceful shutdown
    /// starts, so that the listen streams do not hold that shutdown up. It cannot be undone.
    ///
    /// ```
    /// use beam_mcp::transport::http::{Http, Origins};
    ///
    /// # let server = beam_mcp::Server::builder().build().unwrap();
    /// let endpoint = Http::builder(server)
    ///     .authorize(|_| Ok(()))
    ///     .allowed_origins(Origins::Loopback)
    ///     .build()
    ///     .unwrap();
    /// endpoint.shutdown();
    /// ```
    pub fn shutdown(&self) {
        self.inner.stopping.cancel();
        self.inner.server.close_subscriptions();
    }
}

async fn endpoint(State(endpoint): State<Arc<Endpoint>>, request: Request) -> HttpResponse {
    let (parts, body) = request.into_parts();
    let sessions = matches!(endpoint.legacy, Some(Legacy::Sessions { .. }));
    if let Err(early) = guard::check(&parts, &endpoint.origins, &endpoint.hosts, sessions) {
        tracing::info!(status = early.status, reason = %Logged(&early.error.to_string()), "refused before the body");
        let mut response = reply(early.status, None, early.error, true);
        if early.allow {
            let allow = if sessions {
                "GET, POST, DELETE"
            } else {
                "POST"
            };
            response
                .headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static(allow));
        }
        return response;
    }
    admitted(&endpoint, parts, body).await
}

/// A request past the door's checks. It takes an in-flight slot only when the core hands it to
/// host code (see [`load`]); a listen stream (`subscriptions/listen`) takes none, since it waits
/// without working and holds a connection, which `max_connections` bounds.
async fn admitted(endpoint: &Endpoint, parts: Parts, body: Body) -> HttpResponse {
    let decided = match &endpoint.authorize {
        Authorize::Now(authorize) => hook(|| authorize(&parts)),
        Authorize::Later(authorize) => {
            hook_later(|| authorize(&parts), endpoint.read_timeout).await
        }
    };
    let principal = match decided {
        Ok(principal) => principal,
        Err(refused) => return refused.response(true),
    };
    // The guard let GET and DELETE through only with a session id, to a session endpoint.
    if let Some(legacy) = &endpoint.legacy {
        if parts.method == axum::http::Method::GET {
            return legacy::get(legacy, &parts, &principal, endpoint);
        }
        if parts.method == axum::http::Method::DELETE {
            return legacy::delete(legacy, &parts, &principal);
        }
    }
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_MESSAGE_BYTES as u64) {
        return reply(413, None, ProtocolError::TooLarge, true);
    }
    let bytes = match body::read(body, endpoint.read_timeout).await {
        Ok(bytes) => bytes,
        Err(error) => {
            let (status, error) = error.status_and_error(endpoint.read_timeout);
            tracing::info!(status, reason = %Logged(&error.to_string()), "body refused");
            return reply(status, None, error, true);
        }
    };
    if let Some(authorize_body) = &endpoint.authorize_body
        && let Err(refused) = hook(|| authorize_body(&parts, &bytes))
    {
        return refused.response(false);
    }
    if bytes.is_empty() {
        return reply(400, None, ProtocolError::EmptyBody, false);
    }
    let message = match json::read(&bytes) {
        Ok(message) => message,
        Err(error) => return reply(400, None, error.into(), false),
    };
    if let Some(legacy) = &endpoint.legacy
        && !is_modern(&parts, &message)
    {
        return legacy::post(endpoint, legacy, &parts, message, principal).await;
    }
    let works = message.get("method").and_then(Value::as_str) != Some("subscriptions/listen");
    let key = principal.share_key();
    let session = Session::single_request().with_principal_arc(principal);
    // Work takes an in-flight place; a listen stream, which waits without working, a place
    // among the streams, in its principal's share.
    let places = if works {
        Places::InFlight(&endpoint.in_flight, key)
    } else {
        Places::Streams(&endpoint.streams, key)
    };
    answer(&endpoint.server, &parts, message, session, places).await
}

/// The era of a POST (DIGEST §0), never by its method: 2026-07-28 when `params._meta` names a
/// protocol version or client capabilities, or else when `MCP-Protocol-Version` names a
/// version that is not of the legacy era; 2025-11-25 otherwise.
fn is_modern(parts: &Parts, message: &Value) -> bool {
    let meta = message.get("params").and_then(|p| p.get("_meta"));
    if meta.is_some_and(|m| {
        m.get(META_PROTOCOL_VERSION).is_some() || m.get(META_CLIENT_CAPABILITIES).is_some()
    }) {
        return true;
    }
    parts
        .headers
        .get("mcp-protocol-version")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            !matches!(
                v.trim(),
                "2024-11-05" | "2025-03-26" | "2025-06-18" | "2025-11-25"
            )
        })
}

/// What a host hook decided against the request.
enum Refused {
    /// 403, or 401 with this challenge (403 with it when `forbidden`).
    Refusal(Option<String>, bool),
    /// The hook panicked: 500.
    Fault,
}

impl Refused {
    fn response(self, close: bool) -> HttpResponse {
        match self {
            Refused::Refusal(None, _) => reply(403, None, ProtocolError::Forbidden, close),
            Refused::Refusal(Some(challenge), forbidden) => {
                let mut response = if forbidden {
                    reply(403, None, ProtocolError::Forbidden, close)
                } else {
                    reply(401, None, ProtocolError::Unauthorized, close)
                };
                match HeaderValue::from_str(&challenge) {
                    Ok(value) => {
                        response
                            .headers_mut()
                            .insert(header::WWW_AUTHENTICATE, value);
                    }
                    Err(_) => tracing::error!("a WWW-Authenticate challenge is not a header value"),
                }
                response
            }
            Refused::Fault => reply(500, None, ProtocolError::Internal, close),
        }
    }
}

/// Runs a host hook that decides later, under `deadline`: what it allowed, or its refusal, or
/// its fault (a panic, or no decision in time).
async fn hook_later<T>(
    start: impl FnOnce() -> BoxFuture<Result<T, Refusal>>,
    deadline: Duration,
) -> Result<T, Refused> {
    let running = match crate::panic::CatchUnwind::start(start) {
        Ok(running) => running,
        Err(_) => {
            tracing::error!("an authorization hook panicked");
            return Err(Refused::Fault);
        }
    };
    match tokio::time::timeout(deadline, running).await {
        Ok(Ok(decided)) => hook(|| decided),
        Ok(Err(_)) => {
            tracing::error!("an authorization hook panicked");
            Err(Refused::Fault)
        }
        Err(_) => {
            tracing::error!(
                ?deadline,
                "an authorization hook did not decide within the deadline"
            );
            Err(Refused::Fault)
        }
    }
}

/// Runs a host hook: what it allowed, or its refusal (logged with the reason) or its fault.
fn hook<T>(f: impl FnOnce() -> Result<T, Refusal>) -> Result<T, Refused> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(allowed)) => Ok(allowed),
        Ok(Err(refusal)) => {
            tracing::info!(reason = %Logged(&refusal.reason), "request refused by the host");
            Err(Refused::Refusal(refusal.challenge, refusal.forbidden))
        }
        Err(_) => {
            tracing::error!("an authorization hook panicked");
            Err(Refused::Fault)
        }
    }
}

/// The core answers, calling the header rules at their steps; HTTP adds only the status. A
/// request handed to host code takes a slot of `places`, counted in its principal's share (the
/// key), until its answer is written (503 when none is free).
/// Where a request takes its place, under its principal's key.
enum Places<'e> {
    InFlight(&'e load::Places, Option<u64>),
    Streams(&'e load::Places, Option<u64>),
}

async fn answer(
    server: &Server,
    parts: &Parts,
    message: Value,
    session: Session,
    places: Places<'_>,
) -> HttpResponse {
    let rules = headers::HeaderRules {
        headers: &parts.headers,
        server,
    };
    let id = message.get("id").cloned();
    let exchange = match server.handle_value_through(&session, message, &rules) {
        Reply::Silent => return empty(202),
        Reply::Ready(response) => return status::respond(&response, Wire::Stateless),
        Reply::Pending(exchange) => exchange,
    };
    let slot = match places {
        Places::InFlight(places, key) => places.take(key).map_err(|full| {
            tracing::debug!(?full, "no in-flight place: refused with 503");
            load::busy(id)
        }),
        Places::Streams(places, key) => places.take(key).map_err(|full| {
            tracing::debug!(?full, "no place for a stream: refused with 503");
            load::streams_busy(id)
        }),
    };
    let slot = match slot {
        Ok(slot) => slot,
        Err(refused) => return refused,
    };
    let response = if exchange.streams() {
        sse::response(exchange, Wire::Stateless).await
    } else {
        // Dropped with the connection if the client goes away: that cancels the call.
        match exchange.response().await {
            Some(response) => status::respond(&response, Wire::Stateless),
            None => reply(500, None, ProtocolError::Internal, false),
        }
    };
    // An answer, streamed or not, holds its place until its last byte is written.
    slot.hold_until_sent(response)
}

fn reply(status: u16, id: Option<Value>, error: ProtocolError, close: bool) -> HttpResponse {
    let revision = Some(Revision::V2026_07_28);
    json_response(status, &Response::error(id, error, revision), close)
}

fn json_response(status: u16, response: &Response, close: bool) -> HttpResponse {
    let mut bytes = Vec::with_capacity(256);
    response.write_to(&mut bytes);
    let mut out = HttpResponse::new(Body::from(bytes));
    *out.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    out.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    if close {
        out.headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    out
}

fn empty(status: u16) -> HttpResponse {
    let mut out = HttpResponse::new(Body::empty());
    *out.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::ACCEPTED);
    out
}

/// What `serve!(http, ..)` expands to: build, bind, log the address, serve until SIGTERM or
/// SIGINT (ctrl-c), shut down gracefully (see [`serve_until`]) and exit 0, also when the grace
/// ran out. A refused configuration ends the process with exit code 2 before anything is
/// bound.
#[doc(hidden)]
pub fn main(
    bind: &str,
    server: crate::ServerBuilder,
    endpoint: impl FnOnce(Server) -> HttpBuilder,
) -> std::process::ExitCode {
    use std::process::ExitCode;
    crate::transport::init_logging();
    let refuse = |reason: String| {
        tracing::error!(%reason, "the server refused to start");
        eprintln!("beam_mcp: the server refused to start: {reason}");
        ExitCode::from(2)
    };
    let addr: SocketAddr = match bind.parse() {
        Ok(addr) => addr,
        Err(e) => {
            return refuse(format!(
                "bind = {bind:?} is not an address such as 127.0.0.1:8080: {e}"
            ));
        }
    };
    let server = match server.build() {
        Ok(server) => server,
        Err(e) => return refuse(e.to_string()),
    };
    let http = match endpoint(server).build() {
        Ok(http) => http,
        Err(e) => return refuse(e.to_string()),
    };
    if !addr.ip().is_loopback() && http.inner.hosts == Hosts::Loopback {
        return refuse(format!(
            "it binds {addr}, which is not loopback, but serves only loopback Host values; set .allowed_hosts(..)"
        ));
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            tracing::error!("no runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(async {
        let listener = match tokio::net::TcpListener::bind(addr).await {
            Ok(listener) => listener,
            Err(e) => {
                tracing::error!("could not bind {addr}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let local = listener.local_addr().map_or(addr, |a| a);
        // Before the line below: a supervisor may signal as soon as it has read it.
        let signals = signals::Signals::install();
        // The one line a supervisor (or a test) reads to find the port.
        eprintln!("beam_mcp: listening on http://{local}/mcp");
        // On a worker, not under `block_on` (as the stdio loop; see docs/architecture.md).
        let serving = serve::run(listener, http, signals.nth(1), signals.nth(2));
        match tokio::spawn(serving).await {
            Ok(Ok(())) => ExitCode::SUCCESS,
            Ok(Err(e)) => {
                tracing::error!("the server stopped: {e}");
                ExitCode::FAILURE
            }
            Err(e) => {
                tracing::error!("the accept loop failed: {e}");
                ExitCode::FAILURE
            }
        }
    });
    // Past the grace, a synchronous tool may still hold a thread of the blocking pool;
    // dropping the runtime would wait for it. Everything that could be answered was.
    runtime.shutdown_background();
    code
}
