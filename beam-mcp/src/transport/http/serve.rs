//! The accept loop of [`serve`] and [`serve_until`]: the connection bound, the deadlines of each
//! connection, and the graceful shutdown.
//!
//! A shutdown, in order: the listener is closed (a new connection is refused by the operating
//! system), the endpoint stops ([`Http::shutdown`]: the health route answers 503, listen
//! streams end with their result), and each connection is told to finish (hyper's graceful
//! shutdown): one that has read nothing since its last answer closes at once, one whose request
//! has begun is answered and then closed (no keep-alive). Whatever is still open
//! `shutdown_grace` later is dropped (its running request is cancelled), and the 2025-11-25
//! sessions end.

use std::future::Future;
use std::io;
use std::sync::Arc;

use axum::Router;
use hyper::body::Incoming;
use hyper::service::Service as _;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

use super::signals::Signals;
use super::{Endpoint, Http, WriteDeadline, health, legacy::Legacy};

/// Serves `http` at `/mcp` on `listener` until SIGTERM or SIGINT (ctrl-c); what
/// `serve!(http, ..)` runs. See [`serve_until`] for the shutdown; a second signal ends its
/// grace at once.
///
/// Each connection is HTTP/1.1 with a header deadline equal to the body deadline
/// (`read_timeout`): a client that sends its headers slowly, or holds an idle keep-alive
/// connection, is disconnected at the deadline. A connection whose writes are accepted by
/// nobody for `write_timeout` (a client that stopped reading) is closed too
/// ([`WriteDeadline`]). At most [`max_connections`](super::HttpBuilder::max_connections) are
/// open at once: past it a new connection is closed as soon as it is accepted.
///
/// The signal handlers are installed when this is first polled and stay installed (tokio
/// never removes one).
///
/// ```no_run
/// # async fn demo(http: beam_mcp::transport::http::Http) -> std::io::Result<()> {
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
/// beam_mcp::transport::http::serve(listener, http).await
/// # }
/// ```
pub async fn serve(listener: TcpListener, http: Http) -> io::Result<()> {
    let signals = Signals::install();
    run(listener, http, signals.nth(1), signals.nth(2)).await
}

/// [`serve`], stopping when `shutdown` completes instead of at a signal.
///
/// Then new connections are refused, the requests in flight are answered within
/// [`shutdown_grace`](super::HttpBuilder::shutdown_grace) (default 10 s), listen streams
/// (`subscriptions/listen`, 2025-11-25 GET streams) end with their result, and the health
/// route answers 503; it returns once every connection has ended, or at the end of the grace,
/// dropping those still open (which cancels what they run).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> std::io::Result<()> {
/// use beam_mcp::transport::http::{Http, Origins, serve_until};
///
/// let server = beam_mcp::Server::builder().build().unwrap();
/// let http = Http::builder(server)
///     .authorize(|_| Ok(()))
///     .allowed_origins(Origins::Loopback)
///     .build()
///     .unwrap();
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
/// let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
/// let serving = tokio::spawn(serve_until(listener, http, async {
///     let _ = stopped.await;
/// }));
/// stop.send(()).unwrap();
/// serving.await.unwrap()?;
/// # Ok(())
/// # }
/// ```
pub async fn serve_until(
    listener: TcpListener,
    http: Http,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    run(listener, http, shutdown, std::future::pending()).await
}

/// The accept loop until `stop`, then the drain until every connection ended, the grace
/// passed, or `hurry` completed.
pub(super) async fn run(
    listener: TcpListener,
    http: Http,
    stop: impl Future<Output = ()>,
    hurry: impl Future<Output = ()>,
) -> io::Result<()> {
    let endpoint = Arc::clone(&http.inner);
    let app = app(&http);
    let mut connections = JoinSet::new();
    let mut at_bound = false;
    tokio::pin!(stop, hurry);
    loop {
        let stream = tokio::select! {
            biased;
            () = &mut stop => break,
            Some(ended) = connections.join_next(), if !connections.is_empty() => {
                log_panic(ended);
                continue;
            }
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(error) => {
                    // Out of descriptors, or a connection reset before accept: keep serving.
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        while let Some(ended) = connections.try_join_next() {
            log_panic(ended);
        }
        if connections.len() >= endpoint.max_connections {
            // Closed before anything is read or written: at the bound the server spends
            // nothing more on a connection. Logged once per stretch at the bound.
            if !at_bound {
                tracing::warn!(
                    max_connections = endpoint.max_connections,
                    "the connection bound is reached: new connections are closed at once"
                );
                at_bound = true;
            }
            drop(stream);
            continue;
        }
        at_bound = false;
        connections.spawn(connection(stream, app.clone(), Arc::clone(&endpoint)));
    }
    // Closed first: from here the operating system refuses new connections, and those
    // waiting in the backlog are reset rather than left to be answered by nobody.
    drop(listener);
    tracing::info!(
        open = connections.len(),
        grace = ?endpoint.shutdown_grace,
        "shutting down: new connections are refused, requests in flight are finished"
    );
    http.shutdown();
    let drained = async {
        while let Some(ended) = connections.join_next().await {
            log_panic(ended);
        }
    };
    let finished = tokio::select! {
        finished = tokio::time::timeout(endpoint.shutdown_grace, drained) => finished.is_ok(),
        () = &mut hurry => false,
    };
    if !finished {
        tracing::warn!(
            open = connections.len(),
            grace = ?endpoint.shutdown_grace,
            "connections still open at the end of the shutdown grace are dropped"
        );
        // Aborting a connection drops its request, which cancels what it runs.
        connections.shutdown().await;
    }
    // 2025-11-25 requests whose client went away run on, kept for a resumption that can no
    // longer come: they end with their sessions.
    if let Some(Legacy::Sessions { sessions, .. }) = &endpoint.legacy {
        sessions.end_all();
    }
    Ok(())
}

/// What `serve` answers: the endpoint at `/mcp`, and the health route when one is set.
fn app(http: &Http) -> Router {
    let app = http.router_at("/mcp");
    #[cfg(feature = "oauth")]
    let app = match http.oauth_metadata_router() {
        Some(metadata) => app.merge(metadata),
        None => app,
    };
    match &http.inner.health_route {
        Some(path) => app.merge(health::router(
            path,
            Arc::clone(&http.inner.stopping),
            http.inner.health_probe.clone(),
        )),
        None => app,
    }
}

/// One connection: HTTP/1.1 under the header and write deadlines, finished gracefully once the
/// endpoint stops.
async fn connection(stream: TcpStream, app: Router, endpoint: Arc<Endpoint>) {
    // Every write goes out at once: with Nagle's algorithm a streamed answer's second write
    // waited for the client's delayed ACK, 40 ms on every event stream of a kept-alive
    // connection (measured: p50 0.09 ms for a JSON answer, 44 ms for the same call streamed).
    if let Err(error) = stream.set_nodelay(true) {
        tracing::debug!(%error, "TCP_NODELAY could not be set");
    }
    // The peer, as axum's own `ConnectInfo` (what a host's router would see with
    // `into_make_service_with_connect_info`): telemetry's `client.address` and `client.port`.
    // Put in each request here rather than by a router layer, which would wrap every route
    // again and clone it, boxed, on each request.
    let peer = stream.peer_addr().ok();
    let router = hyper_util::service::TowerToHyperService::new(app);
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        if let Some(peer) = peer {
            request
                .extensions_mut()
                .insert(axum::extract::ConnectInfo(peer));
        }
        router.call(request)
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(endpoint.read_timeout);
    let io = hyper_util::rt::TokioIo::new(WriteDeadline::new(stream, endpoint.write_timeout));
    let conn = builder.serve_connection(io, service);
    tokio::pin!(conn);
    let served = tokio::select! {
        served = conn.as_mut() => Some(served),
        () = endpoint.stopping.cancelled() => None,
    };
    let served = match served {
        Some(served) => served,
        None => {
            // Idle: closed now. Busy: the answer being written is finished, with no
            // keep-alive after it.
            conn.as_mut().graceful_shutdown();
            conn.await
        }
    };
    if let Err(error) = served {
        tracing::debug!(%error, "connection ended");
    }
}

fn log_panic(ended: Result<(), tokio::task::JoinError>) {
    if let Err(error) = ended
        && error.is_panic()
    {
        tracing::error!(%error, "a connection task panicked");
    }
}
