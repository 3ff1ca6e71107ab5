//! What the core's two benchmarks serve and send: the tools, the requests, and the driver
//! that turns a request's bytes into its answer's bytes through the core. The criterion bench
//! (`benches/tools_call.rs`) times it; the `callcount` binary (`src/bin/callcount.rs`) is what
//! `bench/callcount.sh` counts under callgrind for the gate's guard.
//!
//! A package of its own, outside beam-mcp's dev-dependencies, so that the counted and timed
//! build is a host's: beam-mcp with its default features, and criterion's dependencies kept out
//! of beam-mcp's tests.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use beam_mcp::Server;
use beam_mcp::protocol::{Reply, Session};

/// Echoes the text.
#[beam_mcp::tool(read_only)]
fn echo(text: String) -> String {
    text
}

/// Adds two integers, as structured output.
#[beam_mcp::tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// A shape: an internally tagged enum of three variants.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Shape {
    /// A circle.
    Circle {
        /// Its radius.
        r: f64,
    },
    /// A square.
    Square {
        /// Its side.
        side: f64,
    },
    /// A rectangle.
    Rectangle {
        /// Its width.
        width: f64,
        /// Its height.
        height: f64,
    },
}

/// The area of a shape (a tagged enum's schema: `oneOf` of three objects).
#[beam_mcp::tool]
fn area(shape: Shape) -> String {
    let area = match shape {
        Shape::Circle { r } => std::f64::consts::PI * r * r,
        Shape::Square { side } => side * side,
        Shape::Rectangle { width, height } => width * height,
    };
    format!("{area:.1}")
}

/// A tree of named nodes (a recursive type's schema: `$defs` and `$ref`).
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Tree {
    name: String,
    children: Vec<Tree>,
}

impl Tree {
    /// Named nodes (every node of the bench's tree has a name).
    fn count(&self) -> usize {
        usize::from(!self.name.is_empty()) + self.children.iter().map(Tree::count).sum::<usize>()
    }
}

/// Counts a tree's nodes.
#[beam_mcp::tool]
fn nodes(tree: Tree) -> String {
    format!("{} nodes", tree.count())
}

/// A legacy text call of the tool taking a tagged enum (its third variant).
pub const TAGGED: &[u8] = br#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"area","arguments":{"shape":{"kind":"rectangle","width":3,"height":2.5}}}}"#;

/// A legacy text call of the tool taking a tree 4 deep (7 nodes).
pub const TREE: &[u8] = br#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"nodes","arguments":{"tree":{"name":"a","children":[{"name":"b","children":[{"name":"c","children":[{"name":"d","children":[]}]}]},{"name":"e","children":[{"name":"f","children":[]},{"name":"g","children":[]}]}]}}}}"#;

/// A legacy (no `_meta`) text call of the synchronous tool.
pub const LEGACY: &[u8] = br#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello world"}}}"#;

/// A 2026-07-28 structured call of the async tool.
pub const MODERN: &[u8] = br#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"add","arguments":{"a":40,"b":2},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;

/// The server of the two tools.
pub fn server() -> Server {
    Server::builder()
        .crate_items(module_path!())
        .build()
        .expect("valid catalog")
}

/// The same server with one middleware that only calls `next`: the seam's own cost.
pub fn middleware_server() -> Server {
    Server::builder()
        .crate_items(module_path!())
        .middleware(beam_mcp::middleware::from_fn(|call, next| next.run(call)))
        .build()
        .expect("valid catalog")
}

/// The same server reporting through OpenTelemetry: the SDK's providers, spans recorded (always
/// sampled) and the histograms aggregated, with no exporter (export runs on the SDK's own
/// threads, not on the request's path).
#[cfg(feature = "otel")]
pub fn telemetry_server() -> Server {
    let tracers = opentelemetry_sdk::trace::SdkTracerProvider::builder().build();
    // The default period (60 s): no export falls inside a counted run.
    let reader = opentelemetry_sdk::metrics::PeriodicReader::builder(Discard).build();
    let meters = opentelemetry_sdk::metrics::SdkMeterProvider::builder()
        .with_reader(reader)
        .build();
    Server::builder()
        .crate_items(module_path!())
        .telemetry(beam_mcp::telemetry::Telemetry::new(&tracers, &meters))
        .build()
        .expect("valid catalog")
}

/// A metric exporter that drops what it is given.
#[cfg(feature = "otel")]
struct Discard;

#[cfg(feature = "otel")]
impl opentelemetry_sdk::metrics::exporter::PushMetricExporter for Discard {
    async fn export(
        &self,
        _: &opentelemetry_sdk::metrics::data::ResourceMetrics,
    ) -> opentelemetry_sdk::error::OTelSdkResult {
        Ok(())
    }

    fn force_flush(&self) -> opentelemetry_sdk::error::OTelSdkResult {
        Ok(())
    }

    fn shutdown_with_timeout(
        &self,
        _: std::time::Duration,
    ) -> opentelemetry_sdk::error::OTelSdkResult {
        Ok(())
    }

    fn temporality(&self) -> opentelemetry_sdk::metrics::Temporality {
        opentelemetry_sdk::metrics::Temporality::Cumulative
    }
}

/// The same server with a started observer: every call counted in the observed connectome.
pub fn observed_server() -> Server {
    let observer = beam_mcp::connectome::Observer::new();
    let server = Server::builder()
        .crate_items(module_path!())
        .observer(observer.clone())
        .build()
        .expect("valid catalog");
    observer.start();
    server
}

/// Drives a reply to its bytes; the tools here finish on their first poll.
pub fn answer(server: &Server, session: &Session, input: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let response = match server.handle(session, input) {
        Reply::Silent => return,
        Reply::Ready(response) => response,
        Reply::Pending(mut exchange) => {
            let mut next = pin!(exchange.next());
            match next.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
                Poll::Ready(Some(message)) => return message.write_to(out),
                Poll::Ready(None) => unreachable!("the benchmark requests are never cancelled"),
                Poll::Pending => unreachable!("the benchmark tools never wait"),
            }
        }
    };
    response.write_to(out);
}

/// A `redis-server` of a bench's own (Debian's package) on a free loopback port, without
/// persistence, killed when dropped: the Redis benches' store.
#[cfg(feature = "redis")]
pub struct RedisServer {
    child: std::process::Child,
    /// The port it listens on, on 127.0.0.1.
    pub port: u16,
}

#[cfg(feature = "redis")]
impl RedisServer {
    /// Starts one and waits (at most 10 s) until it takes connections.
    pub fn start() -> RedisServer {
        use std::time::{Duration, Instant};
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = std::process::Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("redis-server (apt-get install redis-server)");
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        RedisServer { child, port }
    }

    /// The Redis engine of server `bench`, connected to this one.
    pub fn connect(&self) -> beam_mcp::redis::Redis {
        let url = format!("redis://127.0.0.1:{}/0", self.port);
        beam_mcp::redis::Redis::connect_blocking("bench", beam_mcp::redis::RedisOptions::new(url))
            .expect("connects")
    }
}

#[cfg(feature = "redis")]
impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
