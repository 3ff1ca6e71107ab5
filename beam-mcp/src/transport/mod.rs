//! Transports own bytes and connections; they never decide protocol semantics.

#[cfg(feature = "stdio")]
mod framing;
#[cfg(any(feature = "stdio", feature = "http"))]
mod refusal;
#[cfg(feature = "stdio")]
pub mod stdio;

#[cfg(feature = "http")]
pub mod http;

/// Routes `tracing` to stderr (filtered by `RUST_LOG`, default `warn`), unless the host set
/// up its own subscriber: stdout may be the protocol channel. A panic in host code is logged
/// once, by the dispatch, cut and escaped; the panic hook prints it no more (`crate::panic`).
#[cfg(any(feature = "stdio", feature = "http"))]
pub(crate) fn init_logging() {
    crate::panic::quiet_hook();
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(filter)
        .try_init();
}
