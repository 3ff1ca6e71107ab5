//! OpenTelemetry by the semantic conventions for MCP (`docs/gen-ai/mcp.md` of
//! open-telemetry/semantic-conventions-genai): one `SERVER` span per request or notification,
//! parented by the W3C trace context in `params._meta` (SEP-414), with the HTTP request's own
//! trace context as a link; the histograms `mcp.server.operation.duration` and
//! `mcp.server.session.duration`; and, for a shared store that reports through it (the Redis
//! engine's `Redis::report_to`), `db.client.operation.duration`.
//!
//! The host builds its providers (its exporter, its resource, its sampler) and hands them to
//! [`Telemetry::new`]; nothing global is read or set. Enabled by the `otel` feature.
//!
//! ```
//! use opentelemetry::metrics::noop::NoopMeterProvider;
//! use opentelemetry::trace::noop::NoopTracerProvider;
//! use beam_mcp::telemetry::Telemetry;
//!
//! // A host passes its SDK providers (with an OTLP exporter, say); no-ops here.
//! let telemetry = Telemetry::new(&NoopTracerProvider::new(), &NoopMeterProvider::new());
//! let server = beam_mcp::Server::builder().telemetry(telemetry).build().unwrap();
//! # let _ = server;
//! ```

mod traceparent;

use std::sync::Arc;
use std::time::Instant;

use opentelemetry::context::FutureExt as _;
use opentelemetry::global::BoxedTracer;
use opentelemetry::metrics::{Histogram, MeterProvider};
use opentelemetry::trace::{
    Link, SpanKind, Status, TraceContextExt as _, Tracer as _, TracerProvider,
};
use opentelemetry::{Context, InstrumentationScope, KeyValue};
use serde_json::{Map, Value};

use crate::error::ProtocolError;
use crate::middleware::{BoxFuture, Call, ItemKind, Middleware, Next, Outcome, Transport, Via};
use crate::revision::Revision;

/// The buckets the conventions advise for both durations, in seconds.
const BUCKETS: [f64; 14] = [
    0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
];

/// The instrumentation a server reports through: a tracer and the two duration histograms.
///
/// Register it with [`ServerBuilder::telemetry`](crate::ServerBuilder::telemetry). It runs as
/// the outermost middleware, so its span covers the host's middleware and the method; host code
/// that reads [`opentelemetry::Context::current`] sees the server span as the active one.
#[derive(Clone)]
pub struct Telemetry {
    inner: Arc<Inner>,
}

struct Inner {
    tracer: BoxedTracer,
    operation: Histogram<f64>,
    #[cfg_attr(
        not(any(feature = "stdio", feature = "http")),
        allow(dead_code, reason = "the transports time their sessions")
    )]
    session: Histogram<f64>,
    /// A shared store's commands (the database conventions' client histogram).
    #[cfg_attr(
        not(feature = "redis"),
        allow(dead_code, reason = "the Redis engine reports through it")
    )]
    store: Histogram<f64>,
}

/// The buckets the database conventions advise for `db.client.operation.duration`, in seconds.
const STORE_BUCKETS: [f64; 9] = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0];

impl std::fmt::Debug for Telemetry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Telemetry(..)")
    }
}

impl Telemetry {
    /// Instruments from the host's providers, under the instrumentation scope `beam-mcp` at this
    /// crate's version.
    ///
    /// ```
    /// use opentelemetry::metrics::noop::NoopMeterProvider;
    /// use opentelemetry::trace::noop::NoopTracerProvider;
    ///
    /// let telemetry =
    ///     beam_mcp::telemetry::Telemetry::new(&NoopTracerProvider::new(), &NoopMeterProvider::new());
    /// # let _ = telemetry;
    /// ```
    pub fn new<T, M>(tracers: &T, meters: &M) -> Telemetry
    where
        T: TracerProvider,
        T::Tracer: Send + Sync + 'static,
        <T::Tracer as opentelemetry::trace::Tracer>::Span: Send + Sync + 'static,
        M: MeterProvider + ?Sized,
    {
        let scope = InstrumentationScope::builder("beam-mcp")
            .with_version(env!("CARGO_PKG_VERSION"))
            .build();
        let tracer = BoxedTracer::new(Box::new(tracers.tracer_with_scope(scope.clone())));
        let meter = meters.meter_with_scope(scope);
        let operation = meter
            .f64_histogram("mcp.server.operation.duration")
            .with_unit("s")
            .with_description(
                "MCP request or notification duration as observed on the receiver from the \
                 time it was received until the result or ack is sent.",
            )
            .with_boundaries(BUCKETS.to_vec())
            .build();
        let session = meter
            .f64_histogram("mcp.server.session.duration")
            .with_unit("s")
            .with_description("The duration of the MCP session as observed on the MCP server.")
            .with_boundaries(BUCKETS.to_vec())
            .build();
        let store = meter
            .f64_histogram("db.client.operation.duration")
            .with_unit("s")
            .with_description("Duration of database client operations.")
            .with_boundaries(STORE_BUCKETS.to_vec())
            .build();
        Telemetry {
            inner: Arc::new(Inner {
                tracer,
                operation,
                session,
                store,
            }),
        }
    }

    /// Records one command of a shared store: `db.system.name`, `db.operation.name` (the
    /// command), `db.stored_procedure.name` (the script it ran, if any) and, when it failed,
    /// `error.type`.
    #[cfg_attr(
        not(feature = "redis"),
        allow(dead_code, reason = "the Redis engine reports through it")
    )]
    pub(crate) fn store_operation(
        &self,
        operation: &StoreOperation,
        seconds: f64,
        error: Option<&'static str>,
    ) {
        let mut attributes = vec![
            KeyValue::new("db.system.name", operation.system),
            KeyValue::new("db.operation.name", operation.command),
        ];
        if let Some(script) = operation.script {
            attributes.push(KeyValue::new("db.stored_procedure.name", script));
        }
        if let Some(error) = error {
            attributes.push(KeyValue::new("error.type", error));
        }
        self.inner.store.record(seconds, &attributes);
    }

    /// Starts the span of one operation, under the parent `_meta` names (or none).
    fn start(&self, operation: &Operation, meta: Option<&Map<String, Value>>) -> Context {
        let parent = meta
            .and_then(|m| {
                let text = |key| m.get(key).and_then(Value::as_str);
                traceparent::remote(text("traceparent")?, text("tracestate"))
            })
            .map(|remote| Context::new().with_remote_span_context(remote))
            .unwrap_or_default();
        let links = operation
            .via
            .trace_headers
            .as_ref()
            .and_then(|(parent, state)| traceparent::remote(parent, state.as_deref()))
            .map(|http| vec![Link::with_context(http)])
            .unwrap_or_default();
        let span = self
            .inner
            .tracer
            .span_builder(operation.span_name())
            .with_kind(SpanKind::Server)
            .with_attributes(operation.span_attributes())
            .with_links(links)
            .start_with_context(&self.inner.tracer, &parent);
        parent.with_span(span)
    }

    /// Ends the span of `cx` and records the operation's duration.
    fn finish(&self, cx: &Context, operation: &Operation, ending: Ending, started: Instant) {
        let span = cx.span();
        let mut metric = operation.metric_attributes();
        match ending {
            Ending::Ok => {}
            Ending::ToolError => {
                span.set_attribute(KeyValue::new("error.type", "tool_error"));
                metric.push(KeyValue::new("error.type", "tool_error"));
                span.set_status(Status::error("tool_error"));
            }
            Ending::Error { code, message } => {
                let code = code.to_string();
                for attribute in [
                    KeyValue::new("error.type", code.clone()),
                    KeyValue::new("rpc.response.status_code", code),
                ] {
                    span.set_attribute(attribute.clone());
                    metric.push(attribute);
                }
                span.set_status(Status::error(message));
            }
        }
        span.end();
        self.inner
            .operation
            .record(started.elapsed().as_secs_f64(), &metric);
    }

    /// A notification's span, ended (and its duration recorded) when the guard drops.
    pub(crate) fn notification(
        &self,
        method: &str,
        meta: SentMeta<'_>,
        via: Via,
        session_revision: Option<Revision>,
    ) -> NotificationSpan {
        let started = Instant::now();
        let operation = Operation::unread(method, None, meta.version, via, session_revision);
        let cx = self.start(&operation, meta.rest);
        NotificationSpan {
            telemetry: self.clone(),
            cx,
            operation,
            started,
        }
    }

    /// The span of a message the core refused before the seam (a bad envelope or `_meta`, a
    /// header that contradicts the body), ended at once with the refusal's code.
    pub(crate) fn refused(
        &self,
        method: &str,
        id: Option<&Value>,
        meta: SentMeta<'_>,
        via: Via,
        session_revision: Option<Revision>,
        error: &ProtocolError,
    ) {
        let started = Instant::now();
        let operation = Operation::unread(method, id, meta.version, via, session_revision);
        let cx = self.start(&operation, meta.rest);
        let ending = Ending::Error {
            code: error.code_at(operation.protocol.filter(|r| r.is_stateless())),
            message: error.to_string(),
        };
        self.finish(&cx, &operation, ending, started);
    }

    /// Times a session (a stdio connection, a 2025-11-25 HTTP session) until the timer drops.
    #[cfg_attr(
        not(any(feature = "stdio", feature = "http")),
        allow(dead_code, reason = "the transports time their sessions")
    )]
    ///
    /// `revision` reads, when the session ends, the revision its `initialize` agreed.
    pub(crate) fn session(&self, revision: SessionRevision, via: Via) -> SessionTimer {
        SessionTimer {
            telemetry: self.clone(),
            revision,
            via,
            started: Instant::now(),
        }
    }
}

impl Middleware for Telemetry {
    fn handle<'a>(&'a self, call: Call, next: Next) -> BoxFuture<'a, Outcome> {
        Box::pin(async move {
            let started = Instant::now();
            let operation = Operation::of(&call);
            let cx = self.start(&operation, Some(call.meta()));
            let outcome = next.run(call).with_context(cx.clone()).await;
            let ending = match &outcome {
                Ok(result) if operation.method == "tools/call" && is_tool_error(result) => {
                    Ending::ToolError
                }
                Ok(_) => Ending::Ok,
                Err(error) => Ending::Error {
                    code: error.code_at(operation.protocol.filter(|r| r.is_stateless())),
                    message: error.to_string(),
                },
            };
            self.finish(&cx, &operation, ending, started);
            outcome
        })
    }
}

fn is_tool_error(result: &Value) -> bool {
    result.get("isError").and_then(Value::as_bool) == Some(true)
}

/// How an operation ended, as the conventions' `error.type` tells it.
enum Ending {
    Ok,
    /// A `CallToolResult` with `isError: true`.
    ToolError,
    /// A JSON-RPC error.
    Error {
        code: i64,
        message: String,
    },
}

/// One kind of command a shared store runs, as `db.client.operation.duration` names it.
#[cfg_attr(
    not(feature = "redis"),
    allow(dead_code, reason = "the Redis engine reports through it")
)]
#[derive(Debug, Clone, Copy)]
pub(crate) struct StoreOperation {
    /// `db.system.name` (`redis`).
    pub(crate) system: &'static str,
    /// `db.operation.name`: the command (`EVALSHA`, `PUBLISH`, ...).
    pub(crate) command: &'static str,
    /// `db.stored_procedure.name`: the script, named by what it does (`rate_limit`, ...).
    pub(crate) script: Option<&'static str>,
}

/// What the span and the histogram say of one request or notification.
struct Operation {
    method: String,
    /// `gen_ai.tool.name`, `gen_ai.prompt.name` or `mcp.resource.uri`, and the name.
    target: Option<(&'static str, Arc<str>)>,
    id: Option<String>,
    protocol: Option<Revision>,
    via: Via,
}

/// What the telemetry reads of the `_meta` of a message that did not reach the seam, as the
/// core took it apart: the members kept as sent (a trace context among them) and the protocol
/// version it names.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct SentMeta<'m> {
    pub(crate) rest: Option<&'m Map<String, Value>>,
    pub(crate) version: Option<&'m str>,
}

impl Operation {
    /// A message that did not reach the seam (a notification, a refused request): what its
    /// envelope says and the protocol version its `_meta` names, if any. The revision is that
    /// one, else the session's.
    fn unread(
        method: &str,
        id: Option<&Value>,
        version: Option<&str>,
        via: Via,
        session_revision: Option<Revision>,
    ) -> Operation {
        let named = version.and_then(Revision::parse);
        Operation {
            method: method.to_owned(),
            target: None,
            id: id.and_then(id_text),
            protocol: named.or(session_revision),
            via,
        }
    }

    fn of(call: &Call) -> Operation {
        let target = call.item().map(|item| {
            let key = match item.kind() {
                ItemKind::Tool => "gen_ai.tool.name",
                ItemKind::Prompt => "gen_ai.prompt.name",
                _ => "mcp.resource.uri",
            };
            (key, Arc::clone(&item.name))
        });
        // A resource read names its URI as asked, also when a template matched it.
        let target = match (call.method(), call.params().get("uri")) {
            (
                "resources/read" | "resources/subscribe" | "resources/unsubscribe",
                Some(Value::String(uri)),
            ) => Some(("mcp.resource.uri", Arc::from(uri.as_str()))),
            _ => target,
        };
        Operation {
            method: call.method().to_owned(),
            target,
            id: id_text(call.id()),
            protocol: call.protocol_version(),
            via: call.via.clone(),
        }
    }

    /// `{mcp.method.name} {target}` for a tool or a prompt; the method alone otherwise (a URI
    /// is no low-cardinality target).
    fn span_name(&self) -> String {
        match &self.target {
            Some((key, name)) if *key != "mcp.resource.uri" => format!("{} {name}", self.method),
            _ => self.method.clone(),
        }
    }

    /// The attributes the span and the histogram share.
    fn metric_attributes(&self) -> Vec<KeyValue> {
        let mut attributes = vec![KeyValue::new("mcp.method.name", self.method.clone())];
        if let Some((key, name)) = &self.target
            && *key != "mcp.resource.uri"
        {
            attributes.push(KeyValue::new(*key, name.to_string()));
        }
        if self.method == "tools/call" {
            attributes.push(KeyValue::new("gen_ai.operation.name", "execute_tool"));
        }
        if let Some(revision) = self.protocol {
            attributes.push(KeyValue::new("mcp.protocol.version", revision.as_str()));
        }
        attributes.extend(network(&self.via));
        attributes
    }

    fn span_attributes(&self) -> Vec<KeyValue> {
        let mut attributes = self.metric_attributes();
        if let Some(id) = &self.id {
            attributes.push(KeyValue::new("jsonrpc.request.id", id.clone()));
        }
        if let Some(("mcp.resource.uri", uri)) = &self.target {
            attributes.push(KeyValue::new("mcp.resource.uri", uri.to_string()));
        }
        if let Some(session) = &self.via.session_id {
            attributes.push(KeyValue::new("mcp.session.id", session.to_string()));
        }
        if let Some(peer) = self.via.peer {
            attributes.push(KeyValue::new("client.address", peer.ip().to_string()));
            attributes.push(KeyValue::new("client.port", i64::from(peer.port())));
        }
        attributes
    }
}

/// `jsonrpc.request.id`: a string id as it is, a number as its digits.
fn id_text(id: &Value) -> Option<String> {
    match id {
        Value::String(id) => Some(id.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}

/// `network.transport` (`pipe` for stdio, `tcp` for HTTP) and, for HTTP, the protocol's name and
/// version.
fn network(via: &Via) -> Vec<KeyValue> {
    match via.transport {
        Transport::Stdio => vec![KeyValue::new("network.transport", "pipe")],
        Transport::Http => {
            let mut attributes = vec![
                KeyValue::new("network.transport", "tcp"),
                KeyValue::new("network.protocol.name", "http"),
            ];
            if let Some(version) = via.http_version {
                attributes.push(KeyValue::new("network.protocol.version", version));
            }
            attributes
        }
    }
}

/// A notification's span: ended, and its duration recorded, on drop (once the core has acted
/// on it).
pub(crate) struct NotificationSpan {
    telemetry: Telemetry,
    cx: Context,
    operation: Operation,
    started: Instant,
}

impl Drop for NotificationSpan {
    fn drop(&mut self) {
        self.telemetry
            .finish(&self.cx, &self.operation, Ending::Ok, self.started);
    }
}

/// Reads the revision a session agreed at `initialize` (none before it).
pub(crate) type SessionRevision = Box<dyn Fn() -> Option<Revision> + Send + Sync>;

/// A session's clock: `mcp.server.session.duration` is recorded when it drops.
#[cfg_attr(
    not(any(feature = "stdio", feature = "http")),
    allow(dead_code, reason = "the transports time their sessions")
)]
pub(crate) struct SessionTimer {
    telemetry: Telemetry,
    revision: SessionRevision,
    via: Via,
    started: Instant,
}

impl Drop for SessionTimer {
    fn drop(&mut self) {
        let mut attributes = network(&self.via);
        if let Some(revision) = (self.revision)() {
            attributes.push(KeyValue::new("mcp.protocol.version", revision.as_str()));
        }
        self.telemetry
            .inner
            .session
            .record(self.started.elapsed().as_secs_f64(), &attributes);
    }
}
