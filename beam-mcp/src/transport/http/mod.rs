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
//! | core | -32601 / a missing `_meta` field (-32602), -32020, -32021, -32022 / -31429 / a shared store that could not answer (-32603) / any other error, a result / notification | 404 / 400 / 429 / 503 + `Retry-After: 1` / 200 / 202 | kept |
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
mod builder;
mod card;
mod events;
mod guard;
mod handler;
pub(crate) mod headers;
mod health;
mod hooks;
mod legacy;
mod load;
#[cfg(feature = "oauth")]
mod oauth;
mod refusal;
mod serve;
mod sessions;
mod signals;
mod sse;
mod stall;
mod status;
mod stream_lease;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response as HttpResponse;
use serde_json::Value;

pub use builder::{HttpBuilder, HttpError};
pub use events::{EventStore, MemoryEventStore, ResumeError, StoredEvent};
pub use guard::{Hosts, Origins};
pub use hooks::Refusal;
#[cfg(feature = "oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub use oauth::{OAuth, OAuthError, OAuthPrincipal};
pub use serve::{serve, serve_until};
pub use stall::WriteDeadline;

use handler::endpoint;
use hooks::{Authorize, AuthorizeBody};
use legacy::Legacy;
use refusal::HttpRefusal;

use crate::Server;
use crate::context::CancelFlag;
use crate::protocol::Response;

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
    /// Where each principal's streams are counted across replicas too.
    stream_share: Option<Arc<dyn crate::store::StreamShare>>,
    max_connections: usize,
    shutdown_grace: Duration,
    health_route: Option<String>,
    /// The Server Card served at `<endpoint>/server-card`, as its bytes.
    server_card: Option<hyper::body::Bytes>,
    /// A shared store the health route asks too.
    health_probe: Option<Arc<dyn crate::store::Probe>>,
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
            session_share: None,
            stream_share: None,
            stateless_legacy: false,
            max_connections: 1024,
            max_in_flight_requests: 256,
            max_in_flight_per_principal: None,
            max_streams_per_principal: None,
            shutdown_grace: Duration::from_secs(10),
            health_route: None,
            health_probe: None,
            server_card: None,
            #[cfg(feature = "oauth")]
            oauth: None,
            host_authorize: false,
        }
    }

    /// The endpoint as a `Router` answering at its root (and its Server Card at `/server-card`,
    /// when it has one): nest it where it belongs
    /// (`Router::new().nest("/mcp", http.router())`). It must not sit behind a body-reading
    /// layer: it reads the body itself, under its own bounds. On a server of your own, the
    /// connection bound and `TCP_NODELAY` are that server's to set, as [`serve`] sets them:
    /// without `TCP_NODELAY`, every streamed answer on a kept-alive connection waits about 40 ms
    /// for the client's delayed ACK.
    pub fn router(&self) -> Router {
        self.router_at("/")
    }

    /// The endpoint answering at `path` itself: no prefix to strip from each request's URI,
    /// as nesting at `path` would (what [`serve`] answers at `/mcp`).
    pub(crate) fn router_at(&self, path: &str) -> Router {
        let router = Router::new()
            .route(path, axum::routing::any(endpoint))
            .with_state(Arc::clone(&self.inner));
        match &self.inner.server_card {
            Some(card) => router.merge(card::router(&card::path(path), card.clone())),
            None => router,
        }
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

/// The endpoint's own answer: `error` (its own refusal, or a core error it answers with) as a
/// JSON-RPC error response with `status`; `close` ends the connection after it.
fn reply(
    status: u16,
    id: Option<Value>,
    error: impl Into<HttpRefusal>,
    close: bool,
) -> HttpResponse {
    bytes_response(status, error.into().response(id.as_ref()), close)
}

/// `response` as JSON, its body made by `body` from the bytes (see [`load::Slot::body`]).
fn json_response(
    status: u16,
    response: &Response,
    close: bool,
    body: impl FnOnce(Vec<u8>) -> Body,
) -> HttpResponse {
    let mut bytes = Vec::with_capacity(256);
    response.write_to(&mut bytes);
    bytes_response_with(status, body(bytes), close)
}

fn bytes_response(status: u16, bytes: Vec<u8>, close: bool) -> HttpResponse {
    bytes_response_with(status, Body::from(bytes), close)
}

fn bytes_response_with(status: u16, body: Body, close: bool) -> HttpResponse {
    let mut out = HttpResponse::new(body);
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
        // The one line a supervisor (or a test) reads to find the port, in one write: a reader
        // never sees it in part (`eprintln!` writes its pieces one by one).
        let line = format!("beam_mcp: listening on http://{local}/mcp\n");
        let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
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
