//! The server the official conformance suite is run against (`conformance/run.sh`): every
//! fixture it names, with the exact names of `../shared/reference/conformance-suite.md`, served
//! over Streamable HTTP at `http://127.0.0.1:$PORT/mcp`.
//!
//! The catalog is live (list changes reach `subscriptions/listen` streams). Fixtures for
//! features beam-mcp does not have are absent; the scenarios that need them are recorded, each
//! with its reason, in `conformance/not-scored.md`.

mod asks;
mod legacy;
mod prompts;
mod resources;
mod tasks;
mod tools;

use beam_mcp::transport::http::{self, Http, Origins};

fn main() -> std::process::ExitCode {
    let port = std::env::var("PORT").unwrap_or_else(|_| "3000".into());
    let (builder, catalog) = beam_mcp::Server::builder()
        .name("beam-mcp-conformance-harness")
        .version(env!("CARGO_PKG_VERSION"))
        .crate_items(module_path!())
        .tool(tools::JSON_SCHEMA_2020_12)
        .live();
    let mut builder = builder.state(catalog);
    // Replicas behind a balancer share the key that seals `requestState` (tests/balancer).
    if let Ok(key) = std::env::var("MCP_REQUEST_STATE_KEY") {
        builder = builder.request_state_key(key);
    }
    // With the `redis` feature and BEAM_MCP_REDIS_URL set, a list change made on one replica
    // reaches the listen streams of every replica, tasks and 2025-11-25 sessions (with their
    // streams' events) are shared, and the rate limit is counted in Redis.
    #[cfg(feature = "redis")]
    let mut shared_sessions = None;
    #[cfg(feature = "redis")]
    if std::env::var_os("BEAM_MCP_REDIS_URL").is_some() {
        use beam_mcp::redis::{Redis, RedisOptions};
        let connected = RedisOptions::from_env()
            .and_then(|options| Redis::connect_blocking("beam-mcp-conformance-harness", options));
        match connected {
            // A limit no conformance scenario reaches, so that every call asks the shared store
            // (tests/balancer/outage.py stops it under load).
            Ok(redis) => {
                builder = builder
                    .fanout(redis.fanout())
                    .task_share(redis.tasks())
                    .rate_limit(redis.rate_limit_per_second(1_000_000));
                shared_sessions = Some(redis);
            }
            Err(e) => {
                eprintln!("conformance-harness: {e}");
                return std::process::ExitCode::from(2);
            }
        }
    }
    http::main(&format!("127.0.0.1:{port}"), builder, move |server| {
        let endpoint = Http::builder(server)
            .authorize(|_| Ok(()))
            .allowed_origins(Origins::Loopback);
        #[cfg(feature = "redis")]
        if let Some(redis) = &shared_sessions {
            return endpoint
                .session_share(redis.sessions())
                .event_store(redis.event_store());
        }
        endpoint
    })
}
