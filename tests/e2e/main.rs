//! End-to-end tests: the built example binary, driven through real pipes; and the OAuth 2.1
//! resource server in process over a real socket (`oauth`).

// beam-mcp's own helper that serves an endpoint on 127.0.0.1, shared rather than copied.
#[path = "../../beam-mcp/tests/loopback/mod.rs"]
mod loopback;

mod apps;
mod client;
mod closed_world;
mod connectome;
mod conversation;
mod display;
mod https;
mod logged;
mod memory;
mod middleware;
mod oauth;
mod proxy;
mod schema_check;
mod scopes;
mod shapes;
mod shutdown;
mod skills;
#[cfg(unix)]
mod stdio_descriptors;
mod stdio_weather;
mod subscriptions;
mod telemetry;
