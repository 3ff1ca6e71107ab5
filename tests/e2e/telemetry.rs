//! OpenTelemetry end to end: the fixture with `BEAM_FIXTURE_OTLP` exports over OTLP
//! HTTP/protobuf (the SDK's batch processor and periodic reader, the OTLP exporter) to a
//! receiver here, which decodes with the official protobuf definitions (`opentelemetry-proto`).
//! Over stdio and HTTP, at both revisions: the span tree under a client's `traceparent`, the
//! conventions' attributes, and a histogram datapoint per method.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use opentelemetry_proto::tonic::collector::metrics::v1::ExportMetricsServiceRequest;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{KeyValue, any_value};
use opentelemetry_proto::tonic::metrics::v1::metric;
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message as _;
use serde_json::{Value, json};

use beam_mcp_tests::http_client::Connection;
use beam_mcp_tests::{HttpServerProcess, ServerProcess, modern_meta, workspace_binary};

/// The client's span, as its `traceparent` names it.
const TRACE_ID: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const CLIENT_SPAN: &str = "00f067aa0ba902b7";
/// The HTTP request's own trace context: a link, not the parent.
const HTTP_TRACE_ID: &str = "0af7651916cd43dd8448eb211c80319c";
const HTTP_SPAN: &str = "b7ad6b7169203331";

fn traceparent() -> String {
    format!("00-{TRACE_ID}-{CLIENT_SPAN}-01")
}

/// What the receiver has decoded so far.
#[derive(Default)]
struct Received {
    spans: Vec<Span>,
    /// (metric name, the attributes of each histogram datapoint).
    histograms: Vec<(String, Vec<HashMap<String, String>>)>,
}

/// An OTLP/HTTP receiver on 127.0.0.1: `POST /v1/traces` and `/v1/metrics`, protobuf bodies.
struct Receiver {
    addr: SocketAddr,
    received: Arc<Mutex<Received>>,
}

impl Receiver {
    fn start() -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let received = Arc::new(Mutex::new(Received::default()));
        let sink = Arc::clone(&received);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let sink = Arc::clone(&sink);
                std::thread::spawn(move || serve_one(stream, &sink));
            }
        });
        Receiver { addr, received }
    }

    fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Waits (at most 15 s) until `ready` holds of what was received.
    fn wait_for<T>(&self, what: &str, mut ready: impl FnMut(&Received) -> Option<T>) -> T {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            if let Some(found) = ready(&self.received.lock().unwrap()) {
                return found;
            }
            if Instant::now() > deadline {
                let received = self.received.lock().unwrap();
                let names: Vec<_> = received.spans.iter().map(|s| s.name.clone()).collect();
                let metrics: Vec<_> = received.histograms.iter().map(|h| h.0.clone()).collect();
                panic!("no {what}: spans {names:?}, histograms {metrics:?}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The server span named `name` whose `jsonrpc.request.id` is `id`.
    fn span(&self, name: &str, id: &str) -> Span {
        self.wait_for(&format!("span {name:?} of request {id}"), |r| {
            r.spans
                .iter()
                .find(|s| {
                    s.name == name
                        && attribute(&s.attributes, "jsonrpc.request.id") == Some(id.into())
                })
                .cloned()
        })
    }

    /// The attributes of the datapoints of histogram `name` for method `method`, once one exists.
    fn datapoints(&self, name: &str, method: &str) -> Vec<HashMap<String, String>> {
        self.wait_for(&format!("{name} datapoint for {method}"), |r| {
            let points: Vec<_> = r
                .histograms
                .iter()
                .filter(|(n, _)| n == name)
                .flat_map(|(_, points)| points.iter())
                .filter(|p| p.get("mcp.method.name").map(String::as_str) == Some(method))
                .cloned()
                .collect();
            (!points.is_empty()).then_some(points)
        })
    }

    /// The attributes of the datapoints of `mcp.server.session.duration`, once one exists.
    fn session_datapoints(&self) -> Vec<HashMap<String, String>> {
        self.wait_for("mcp.server.session.duration datapoint", |r| {
            let points: Vec<_> = r
                .histograms
                .iter()
                .filter(|(n, _)| n == "mcp.server.session.duration")
                .flat_map(|(_, points)| points.iter().cloned())
                .collect();
            (!points.is_empty()).then_some(points)
        })
    }
}

fn serve_one(stream: std::net::TcpStream, sink: &Mutex<Received>) {
    let mut reader = BufReader::new(stream);
    let mut path = String::new();
    let mut length = 0usize;
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let trimmed = line.trim_end();
        if trimmed.is_empty() {
            break;
        }
        if path.is_empty() {
            path = trimmed.split(' ').nth(1).unwrap_or("").to_owned();
        } else if let Some((name, value)) = trimmed.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let mut received = sink.lock().unwrap();
    let ok = match path.as_str() {
        "/v1/traces" => ExportTraceServiceRequest::decode(body.as_slice())
            .map(|request| {
                let spans = request
                    .resource_spans
                    .into_iter()
                    .flat_map(|r| r.scope_spans)
                    .flat_map(|s| s.spans);
                received.spans.extend(spans);
            })
            .is_ok(),
        "/v1/metrics" => ExportMetricsServiceRequest::decode(body.as_slice())
            .map(|request| {
                let metrics = request
                    .resource_metrics
                    .into_iter()
                    .flat_map(|r| r.scope_metrics)
                    .flat_map(|s| s.metrics);
                for m in metrics {
                    if let Some(metric::Data::Histogram(h)) = m.data {
                        let points = h
                            .data_points
                            .iter()
                            .filter(|p| p.count > 0)
                            .map(|p| attributes(&p.attributes))
                            .collect();
                        received.histograms.push((m.name, points));
                    }
                }
            })
            .is_ok(),
        _ => false,
    };
    drop(received);
    let status = if ok { "200 OK" } else { "400 Bad Request" };
    let _ = reader
        .get_mut()
        .write_all(format!("HTTP/1.1 {status}\r\nContent-Length: 0\r\n\r\n").as_bytes());
}

fn value_text(value: &any_value::Value) -> String {
    match value {
        any_value::Value::StringValue(s) => s.clone(),
        any_value::Value::IntValue(i) => i.to_string(),
        any_value::Value::BoolValue(b) => b.to_string(),
        any_value::Value::DoubleValue(d) => d.to_string(),
        other => format!("{other:?}"),
    }
}

fn attributes(list: &[KeyValue]) -> HashMap<String, String> {
    list.iter()
        .filter_map(|kv| {
            let value = kv.value.as_ref()?.value.as_ref()?;
            Some((kv.key.clone(), value_text(value)))
        })
        .collect()
}

fn attribute(list: &[KeyValue], key: &str) -> Option<String> {
    attributes(list).remove(key)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

const SERVER: i32 = 2;

/// The server span of a call under the client's `traceparent`: its parent is the client's span,
/// in the client's trace, and the fixture's middleware span (host code) is its child.
fn assert_tree(receiver: &Receiver, server: &Span) {
    assert_eq!(server.kind, SERVER, "{server:?}");
    assert_eq!(hex(&server.trace_id), TRACE_ID);
    assert_eq!(hex(&server.parent_span_id), CLIENT_SPAN);
    let child = receiver.wait_for("the fixture middleware's span", |r| {
        r.spans
            .iter()
            .find(|s| s.parent_span_id == server.span_id && s.name.starts_with("fixture "))
            .cloned()
    });
    assert_eq!(hex(&child.trace_id), TRACE_ID);
}

fn otlp_env(receiver: &Receiver) -> [(&'static str, String); 1] {
    [("BEAM_FIXTURE_OTLP", receiver.base())]
}

#[test]
fn stdio_spans_and_histograms_follow_the_conventions() {
    let receiver = Receiver::start();
    let env = otlp_env(&receiver);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut server =
        ServerProcess::spawn_with_env(&workspace_binary("beam-mcp-fixture", "fixture"), &env);
    let mut meta = modern_meta();
    meta["traceparent"] = json!(traceparent());
    meta["tracestate"] = json!("rojo=00f067aa0ba902b7");
    let echo = server.request(&json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "echo", "arguments": {"text": "hi"}, "_meta": meta}}));
    assert!(echo.get("result").is_some(), "{echo}");
    let unknown = server.request(
        &json!({"jsonrpc": "2.0", "id": "x-8", "method": "tools/call",
        "params": {"name": "no-such-tool", "arguments": {}, "_meta": modern_meta()}}),
    );
    let code = unknown["error"]["code"].as_i64().expect("an error");
    // Refused before the seam (a revision the server does not serve): spanned all the same,
    // under the client's parent.
    let mut unserved = modern_meta();
    unserved["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    unserved["traceparent"] = json!(traceparent());
    let refused = server.request(
        &json!({"jsonrpc": "2.0", "id": "x-12", "method": "tools/call",
        "params": {"name": "echo", "arguments": {"text": "hi"}, "_meta": unserved}}),
    );
    let refused_code = refused["error"]["code"].as_i64().expect("a refusal");
    // And a request whose params are no object (nothing to read a parent from).
    let bad_params =
        server.request(&json!({"jsonrpc": "2.0", "id": 13, "method": "tools/list", "params": [1]}));
    let bad_params_code = bad_params["error"]["code"].as_i64().expect("a refusal");
    let listed = server.request(&json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list",
        "params": {"_meta": modern_meta()}}));
    assert!(listed.get("result").is_some(), "{listed}");
    // A 2025-11-25 session on the same pipe: its notification is spanned too.
    let hello = server.request(&json!({"jsonrpc": "2.0", "id": 10, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "e2e", "version": "0"}}}));
    assert!(hello.get("result").is_some(), "{hello}");
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let ping = server.request(&json!({"jsonrpc": "2.0", "id": 11, "method": "ping"}));
    assert!(ping.get("result").is_some(), "{ping}");
    assert!(server.finish().success());

    let call = receiver.span("tools/call echo", "7");
    assert_tree(&receiver, &call);
    let attrs = attributes(&call.attributes);
    for (key, value) in [
        ("mcp.method.name", "tools/call"),
        ("gen_ai.tool.name", "echo"),
        ("gen_ai.operation.name", "execute_tool"),
        ("mcp.protocol.version", "2026-07-28"),
        ("network.transport", "pipe"),
    ] {
        assert_eq!(
            attrs.get(key).map(String::as_str),
            Some(value),
            "{key}: {attrs:?}"
        );
    }
    assert!(!attrs.contains_key("error.type"), "{attrs:?}");
    assert!(!attrs.contains_key("mcp.session.id"), "{attrs:?}");
    assert!(
        !attrs.contains_key("client.address"),
        "a pipe has no peer: {attrs:?}"
    );

    // An error: its code is error.type and rpc.response.status_code; the span's status is ERROR.
    let failed = receiver.span("tools/call", "x-8");
    let attrs = attributes(&failed.attributes);
    assert_eq!(
        attrs.get("error.type"),
        Some(&code.to_string()),
        "{attrs:?}"
    );
    assert_eq!(
        attrs.get("rpc.response.status_code"),
        Some(&code.to_string())
    );
    assert_eq!(
        failed.status.as_ref().map(|s| s.code),
        Some(2),
        "{failed:?}"
    );
    assert!(
        failed.parent_span_id.is_empty(),
        "no traceparent, no parent"
    );

    // The refusals before the seam: the method's span, the refusal's code, the client's parent.
    let unserved = receiver.span("tools/call", "x-12");
    assert_eq!(hex(&unserved.trace_id), TRACE_ID, "{unserved:?}");
    assert_eq!(hex(&unserved.parent_span_id), CLIENT_SPAN);
    assert_eq!(unserved.status.as_ref().map(|s| s.code), Some(2));
    let attrs = attributes(&unserved.attributes);
    assert_eq!(attrs.get("error.type"), Some(&refused_code.to_string()));
    assert_eq!(
        attrs.get("gen_ai.tool.name"),
        None,
        "no tool is named by a refused request: {attrs:?}"
    );
    let bad = receiver.span("tools/list", "13");
    assert_eq!(
        attribute(&bad.attributes, "error.type"),
        Some(bad_params_code.to_string())
    );
    assert!(bad.parent_span_id.is_empty());

    // The session's own revision, from its initialize.
    let ping = receiver.span("ping", "11");
    assert_eq!(
        attribute(&ping.attributes, "mcp.protocol.version").as_deref(),
        Some("2025-11-25")
    );
    let initialized = receiver.wait_for("the notification's span", |r| {
        r.spans
            .iter()
            .find(|s| s.name == "notifications/initialized")
            .cloned()
    });
    assert_eq!(initialized.kind, SERVER);
    assert!(attribute(&initialized.attributes, "jsonrpc.request.id").is_none());

    // A datapoint per method, with the metric's attributes (no request id: high cardinality).
    for method in [
        "tools/call",
        "tools/list",
        "initialize",
        "ping",
        "notifications/initialized",
    ] {
        let points = receiver.datapoints("mcp.server.operation.duration", method);
        assert!(
            points.iter().all(|p| !p.contains_key("jsonrpc.request.id")),
            "{points:?}"
        );
    }
    let calls = receiver.datapoints("mcp.server.operation.duration", "tools/call");
    assert!(
        calls.iter().any(
            |p| p.get("gen_ai.tool.name").map(String::as_str) == Some("echo")
                && !p.contains_key("error.type")
        ),
        "{calls:?}"
    );
    assert!(
        calls
            .iter()
            .any(|p| p.get("error.type") == Some(&code.to_string())),
        "{calls:?}"
    );
    let sessions = receiver.session_datapoints();
    assert!(
        sessions.iter().any(
            |p| p.get("network.transport").map(String::as_str) == Some("pipe")
                && p.get("mcp.protocol.version").map(String::as_str) == Some("2025-11-25")
        ),
        "{sessions:?}"
    );
}

/// POSTs one message; gives the answer and the `Mcp-Session-Id` it was given, if any.
fn post(
    server: &HttpServerProcess,
    headers: &[(&str, &str)],
    body: &Value,
) -> (u16, Value, Option<String>) {
    let host = format!("127.0.0.1:{}", server.addr.port());
    let mut all = vec![
        ("host", host.as_str()),
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
    ];
    all.extend_from_slice(headers);
    let response = Connection::open(server.addr).post(&all, body.to_string().as_bytes());
    let session = response.header("mcp-session-id").map(str::to_owned);
    let answer = response.answer();
    (response.status, answer, session)
}

#[test]
fn http_spans_link_the_request_and_name_the_session() {
    let receiver = Receiver::start();
    let env = otlp_env(&receiver);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let server =
        HttpServerProcess::spawn_with_env(&workspace_binary("beam-mcp-fixture", "fixture"), &env);
    let http_parent = format!("00-{HTTP_TRACE_ID}-{HTTP_SPAN}-01");

    // 2026-07-28: the `_meta` traceparent is the parent, the header's the link.
    let mut meta = modern_meta();
    meta["traceparent"] = json!(traceparent());
    let (status, answer, _) = post(
        &server,
        &[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "echo"),
            ("traceparent", &http_parent),
        ],
        &json!({"jsonrpc": "2.0", "id": 21, "method": "tools/call",
            "params": {"name": "echo", "arguments": {"text": "hi"}, "_meta": meta}}),
    );
    assert_eq!(status, 200, "{answer}");
    let call = receiver.span("tools/call echo", "21");
    assert_tree(&receiver, &call);
    let links: Vec<_> = call
        .links
        .iter()
        .map(|l| (hex(&l.trace_id), hex(&l.span_id)))
        .collect();
    assert_eq!(links, [(HTTP_TRACE_ID.to_owned(), HTTP_SPAN.to_owned())]);
    let attrs = attributes(&call.attributes);
    for (key, value) in [
        ("network.transport", "tcp"),
        ("network.protocol.name", "http"),
        ("network.protocol.version", "1.1"),
        ("mcp.protocol.version", "2026-07-28"),
    ] {
        assert_eq!(
            attrs.get(key).map(String::as_str),
            Some(value),
            "{key}: {attrs:?}"
        );
    }
    // The peer, from the connection: this test's own socket on the loopback.
    assert_eq!(
        attrs.get("client.address").map(String::as_str),
        Some("127.0.0.1")
    );
    let port: u16 = attrs["client.port"]
        .parse()
        .expect("client.port is a port number");
    assert!(port > 0 && port != server.addr.port(), "{attrs:?}");

    // A header that contradicts the body is refused before the seam: spanned, with the 400's
    // JSON-RPC code, the `_meta` parent and the header's link.
    let mut meta = modern_meta();
    meta["traceparent"] = json!(traceparent());
    let (status, answer, _) = post(
        &server,
        &[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/list"),
            ("traceparent", &http_parent),
        ],
        &json!({"jsonrpc": "2.0", "id": 22, "method": "tools/call",
            "params": {"name": "echo", "arguments": {"text": "hi"}, "_meta": meta}}),
    );
    assert_eq!(status, 400, "{answer}");
    let code = answer["error"]["code"].as_i64().expect("a JSON-RPC error");
    let refused = receiver.span("tools/call", "22");
    assert_eq!(hex(&refused.parent_span_id), CLIENT_SPAN, "{refused:?}");
    assert_eq!(refused.links.len(), 1, "{refused:?}");
    assert_eq!(
        attribute(&refused.attributes, "error.type"),
        Some(code.to_string())
    );
    assert_eq!(
        attribute(&refused.attributes, "network.transport").as_deref(),
        Some("tcp")
    );

    // 2025-11-25: a session; its requests name it; its end records its duration.
    let (status, hello, session) = post(
        &server,
        &[],
        &json!({"jsonrpc": "2.0", "id": 30, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "e2e", "version": "0"}}}),
    );
    assert_eq!(status, 200, "{hello}");
    let session = session.expect("an Mcp-Session-Id");
    let legacy = [
        ("mcp-protocol-version", "2025-11-25"),
        ("mcp-session-id", session.as_str()),
    ];
    let (status, _, _) = post(
        &server,
        &legacy,
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
    assert_eq!(status, 202);
    let (status, answer, _) = post(
        &server,
        &legacy,
        &json!({"jsonrpc": "2.0", "id": 31, "method": "tools/call",
            "params": {"name": "echo", "arguments": {"text": "hi"},
                "_meta": {"traceparent": traceparent()}}}),
    );
    assert_eq!(status, 200, "{answer}");
    let call = receiver.span("tools/call echo", "31");
    assert_tree(&receiver, &call);
    let attrs = attributes(&call.attributes);
    assert_eq!(attrs.get("mcp.session.id"), Some(&session), "{attrs:?}");
    assert_eq!(
        attrs.get("mcp.protocol.version").map(String::as_str),
        Some("2025-11-25")
    );
    let host = format!("127.0.0.1:{}", server.addr.port());
    let deleted = Connection::open(server.addr).head(
        "DELETE",
        &[
            ("host", &host),
            ("mcp-session-id", &session),
            ("mcp-protocol-version", "2025-11-25"),
        ],
        b"",
    );
    assert!(deleted.status < 300, "DELETE: {}", deleted.status);
    let sessions = receiver.session_datapoints();
    assert!(
        sessions.iter().any(
            |p| p.get("network.transport").map(String::as_str) == Some("tcp")
                && p.get("mcp.protocol.version").map(String::as_str) == Some("2025-11-25")
        ),
        "{sessions:?}"
    );
    for method in ["tools/call", "initialize", "notifications/initialized"] {
        let points = receiver.datapoints("mcp.server.operation.duration", method);
        assert!(
            points
                .iter()
                .all(|p| p.get("network.transport").map(String::as_str) == Some("tcp")),
            "{points:?}"
        );
    }
}
