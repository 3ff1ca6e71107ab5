//! The lab's one-tool server written with the official Rust SDK (rmcp 3.11).
//!
//! `rmcp_server --stdio` serves newline-delimited JSON-RPC on stdin/stdout;
//! `rmcp_server --http PORT` serves Streamable HTTP at http://127.0.0.1:PORT/mcp
//! (stateless, JSON responses). SIGTERM/SIGINT (and stdin EOF for --stdio)
//! end the process with status 0.

use std::{sync::Arc, time::Duration};

use rmcp::{
    ServerHandler, ServiceExt,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{Implementation, ServerCapabilities, ServerConfig},
    schemars,
    service::ServerInitializeError,
    tool, tool_handler, tool_router,
    transport::{
        stdio_pipes,
        streamable_http_server::{
            StreamableHttpServerConfig, StreamableHttpService,
            session::{SessionManager, local::LocalSessionManager, never::NeverSessionManager},
        },
    },
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct WeatherParams {
    place: String,
}

#[derive(Debug, Clone)]
struct Weather {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Weather {
    fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Read the current weather for a place.")]
    async fn get_weather(
        &self,
        Parameters(WeatherParams { place }): Parameters<WeatherParams>,
    ) -> String {
        format!("{place}: 21C, clear")
    }

    #[tool(description = "The same, two seconds later: the lab's head-of-line probe.")]
    async fn slow_weather(
        &self,
        Parameters(WeatherParams { place }): Parameters<WeatherParams>,
    ) -> String {
        tokio::time::sleep(std::time::Duration::from_secs(2)).await;
        format!("{place}: 21C, clear (slowly)")
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Weather {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new("rmcp-weather", env!("CARGO_PKG_VERSION")),
        )
    }
}

/// Installs the SIGTERM and SIGINT (ctrl-c) handlers right away, so a signal that arrives
/// before the first request is not fatal, and resolves on the first of them.
fn shutdown_signal() -> impl Future<Output = ()> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).expect("install SIGTERM handler");
    let mut int = signal(SignalKind::interrupt()).expect("install SIGINT handler");
    async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
    }
}

async fn serve_stdio() -> Result<(), Box<dyn std::error::Error>> {
    let stop = shutdown_signal();
    let serve = async {
        // rmcp's recommended stdio transport: non-blocking pipes when stdin/stdout are
        // FIFOs, the blocking tokio stdio handles otherwise.
        match Weather::new().serve(stdio_pipes()).await {
            // stdin EOF ends the service loop.
            Ok(service) => service.waiting().await.map(drop).map_err(Into::into),
            // stdin EOF before any request: a clean close too.
            Err(ServerInitializeError::ConnectionClosed(_)) => Ok(()),
            Err(error) => Err(error.into()),
        }
    };
    tokio::select! {
        result = serve => result,
        // A blocking stdin read cannot be cancelled, so runtime shutdown could wait on it:
        // leave right away instead.
        _ = stop => std::process::exit(0),
    }
}

/// `sessions`: 2025-11-25 sessions (`Mcp-Session-Id`, rmcp's in-memory session manager), for
/// the lab's memory-per-session row; otherwise stateless.
async fn serve_http(port: u16, sessions: bool) -> Result<(), Box<dyn std::error::Error>> {
    let config = StreamableHttpServerConfig::default()
        // Without sessions every POST is answered on its own.
        .with_legacy_session_mode(sessions)
        // A plain application/json body instead of an SSE stream.
        .with_json_response(true)
        .with_sse_keep_alive(None)
        // Loopback only (the default list already holds 127.0.0.1 and localhost, any port).
        .with_allowed_hosts([
            "127.0.0.1".to_owned(),
            format!("127.0.0.1:{port}"),
            "localhost".to_owned(),
            format!("localhost:{port}"),
        ]);
    if sessions {
        run_http(port, Arc::new(LocalSessionManager::default()), config).await
    } else {
        run_http(port, Arc::new(NeverSessionManager::default()), config).await
    }
}

async fn run_http<M: SessionManager>(
    port: u16,
    manager: Arc<M>,
    config: StreamableHttpServerConfig,
) -> Result<(), Box<dyn std::error::Error>> {
    let stop = shutdown_signal();
    let service = StreamableHttpService::new(|| Ok(Weather::new()), manager, config);
    let service_ct = service.config.cancellation_token.clone();
    let router = axum::Router::new().route_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;

    let (stop_tx, mut stop_rx) = tokio::sync::watch::channel(false);
    let server = axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            let _ = stop_rx.changed().await;
        })
        .into_future();
    tokio::pin!(server);
    tokio::select! {
        result = &mut server => result?,
        _ = stop => {
            service_ct.cancel();
            let _ = stop_tx.send(true);
            // Give in-flight requests a moment, then return whatever connections remain.
            let _ = tokio::time::timeout(Duration::from_millis(500), server).await;
        }
    }
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["--stdio"] => serve_stdio().await,
        ["--http", port] => serve_http(port.parse()?, false).await,
        ["--http-sessions", port] => serve_http(port.parse()?, true).await,
        _ => {
            eprintln!("usage: rmcp_server --stdio | --http PORT");
            std::process::exit(2);
        }
    }
}
