//! The observed connectome, through the real core: counts per item written at dispatch, host
//! edges, the "not started" refusal, and nothing counted before the window opens.

use beam_mcp::Server;
use beam_mcp::connectome::{EdgeKind, Identity, ObserveError, Observer, Provenance, Sign};
use beam_mcp::protocol::{Outbound, Reply, Session};
use std::time::Duration;

use serde_json::{Value, json};

/// Answers pong.
#[beam_mcp::tool]
async fn ping() -> String {
    "pong".into()
}

/// Panics: a tool error, and still a call the observer counts.
#[beam_mcp::tool]
fn boom() -> String {
    panic!("boom")
}

/// A note by id.
#[beam_mcp::resource("notes://{id}")]
fn note(id: String) -> String {
    format!("note {id}")
}

/// Greets.
#[beam_mcp::prompt]
fn greet(name: String) -> String {
    format!("Hello {name}")
}

const META: &str = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}"#;

async fn call(server: &Server, method: &str, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = serde_json::from_str(META).unwrap();
    let message = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
    let reply = server.handle(&Session::new(), message.to_string().as_bytes());
    match reply {
        Reply::Ready(response) => response.to_value(),
        Reply::Pending(mut exchange) => loop {
            match exchange.next().await.expect("an answer") {
                Outbound::Response(response) => break response.to_value(),
                Outbound::Notification(_) => continue,
            }
        },
        _ => panic!("no answer to {method}"),
    }
}

fn server(observer: &Observer) -> Server {
    Server::builder()
        .name("obs")
        .crate_items(module_path!())
        .observer(observer.clone())
        .build()
        .unwrap()
}

#[tokio::test]
async fn calls_are_counted_per_item_once_started_and_never_before() {
    let observer = Observer::new();
    let server = server(&observer);
    assert_eq!(observer.graph().unwrap_err(), ObserveError::NotStarted);
    assert_eq!(observer.latency().unwrap_err(), ObserveError::NotStarted);
    // Before the window opens nothing is counted.
    call(&server, "tools/call", json!({ "name": "ping" })).await;
    observer.start();
    for _ in 0..3 {
        let answer = call(&server, "tools/call", json!({ "name": "ping" })).await;
        assert_eq!(answer["result"]["content"][0]["text"], "pong");
    }
    let answer = call(&server, "tools/call", json!({ "name": "boom" })).await;
    assert_eq!(answer["result"]["isError"], true);
    // Two URIs of one template are one edge, to the template.
    call(&server, "resources/read", json!({ "uri": "notes://1" })).await;
    call(&server, "resources/read", json!({ "uri": "notes://2" })).await;
    call(
        &server,
        "prompts/get",
        json!({ "name": "greet", "arguments": { "name": "a" } }),
    )
    .await;
    // Refused before dispatch: not a call, not counted.
    call(
        &server,
        "tools/call",
        json!({ "name": "ping", "arguments": [] }),
    )
    .await;
    call(&server, "tools/call", json!({ "name": "nope" })).await;

    let observed = observer.graph().unwrap();
    let edges: Vec<(String, String, &str, Option<u64>)> = observed
        .graph
        .edges()
        .iter()
        .map(|e| (e.from.clone(), e.to.clone(), e.kind.as_str(), e.weight))
        .collect();
    let expected = [
        ("obs/server", "obs/prompt/greet", "invoke", Some(1)),
        (
            "obs/server",
            "obs/resource/notes:%2F%2F{id}",
            "read",
            Some(2),
        ),
        ("obs/server", "obs/tool/boom", "invoke", Some(1)),
        ("obs/server", "obs/tool/ping", "invoke", Some(3)),
    ];
    let expected: Vec<_> = expected
        .iter()
        .map(|(f, t, k, w)| (f.to_string(), t.to_string(), *k, *w))
        .collect();
    assert_eq!(edges, expected);
    for edge in observed.graph.edges() {
        assert_eq!(edge.provenance, Provenance::Observed);
        assert_eq!(edge.sign, Sign::Unset);
    }
    assert!(observed.graph.nodes().iter().all(|n| n.labels().is_empty()));
    assert_eq!(observed.graph.nodes().len(), 5);
    assert!(observed.window.started_at <= observed.window.ended_at);
    let latency = observer.latency().unwrap();
    assert_eq!(latency.len(), 4);
    assert_eq!(latency[3].count, 3);
    assert!(latency.iter().all(|l| l.mean_us <= l.max_us));
}

#[tokio::test]
async fn host_edges_are_recorded_by_identity_and_bounded() {
    let observer = Observer::new();
    let _server = server(&observer);
    let tool = Identity::Tool {
        server: "obs".into(),
        name: "ping".into(),
    };
    let worker = Identity::Process {
        server: "obs".into(),
        name: "worker".into(),
    };
    assert_eq!(
        observer.observe(&tool, &worker, EdgeKind::Message),
        Err(ObserveError::NotStarted)
    );
    observer.start();
    observer.observe(&tool, &worker, EdgeKind::Message).unwrap();
    observer.observe(&tool, &worker, EdgeKind::Message).unwrap();
    let graph = observer.graph().unwrap().graph;
    assert_eq!(graph.edges().len(), 1);
    assert_eq!(graph.edges()[0].to, "obs/process/worker");
    assert_eq!(graph.edges()[0].weight, Some(2));
    for i in 1..beam_mcp::connectome::MAX_HOST_EDGES {
        let to = Identity::Process {
            server: "obs".into(),
            name: format!("w{i}"),
        };
        observer.observe(&tool, &to, EdgeKind::Message).unwrap();
    }
    let one_more = Identity::Process {
        server: "obs".into(),
        name: "over".into(),
    };
    assert_eq!(
        observer.observe(&tool, &one_more, EdgeKind::Message),
        Err(ObserveError::TooManyEdges)
    );
    // A known edge still counts past the bound.
    observer.observe(&tool, &worker, EdgeKind::Message).unwrap();
    let graph = observer.graph().unwrap().graph;
    let counted = graph
        .edges()
        .iter()
        .find(|e| e.to == "obs/process/worker")
        .unwrap();
    assert_eq!(counted.weight, Some(3));
    assert_eq!(graph.edges().len(), beam_mcp::connectome::MAX_HOST_EDGES);
}

#[tokio::test]
async fn a_host_edge_the_dispatch_also_counts_is_one_edge() {
    let observer = Observer::new();
    let server = server(&observer);
    observer.start();
    let server_node = Identity::Server {
        server: "obs".into(),
    };
    let ping = Identity::Tool {
        server: "obs".into(),
        name: "ping".into(),
    };
    // Longer than the real call below takes on any machine, so the maximum stays the host's.
    observer
        .observe_timed(
            &server_node,
            &ping,
            EdgeKind::Invoke,
            Duration::from_secs(60),
        )
        .unwrap();
    call(&server, "tools/call", json!({ "name": "ping" })).await;
    let graph = observer.graph().unwrap().graph;
    assert_eq!(graph.edges().len(), 1);
    assert_eq!(graph.edges()[0].weight, Some(2));
    let latency = observer.latency().unwrap();
    assert_eq!((latency[0].count, latency[0].max_us), (2, 60_000_000));
}

/// Waits until cancelled.
#[beam_mcp::tool]
async fn stall(ctx: beam_mcp::Context) -> String {
    ctx.cancelled().await;
    "cancelled".into()
}

#[tokio::test]
async fn a_cancelled_call_is_counted_when_it_is_dropped() {
    let observer = Observer::new();
    let server = server(&observer);
    observer.start();
    let session = Session::new();
    let message = json!({ "jsonrpc": "2.0", "id": "s", "method": "tools/call", "params": { "name": "stall" } });
    let Reply::Pending(mut exchange) = server.handle(&session, message.to_string().as_bytes())
    else {
        panic!("host code runs later")
    };
    // Poll once so the tool runs, then cancel it as a client would.
    let first = tokio::time::timeout(Duration::from_millis(50), exchange.next()).await;
    assert!(first.is_err(), "the tool waits");
    let cancel = json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": "s" } });
    assert!(matches!(
        server.handle(&session, cancel.to_string().as_bytes()),
        Reply::Silent
    ));
    assert!(exchange.next().await.is_none(), "never answered");
    drop(exchange);
    let graph = observer.graph().unwrap().graph;
    let stalled = graph
        .edges()
        .iter()
        .find(|e| e.to == "obs/tool/stall")
        .unwrap();
    assert_eq!(stalled.weight, Some(1));
}

#[test]
fn one_observer_for_two_servers_is_refused() {
    let observer = Observer::new();
    let _first = server(&observer);
    let second = Server::builder()
        .name("other")
        .tool(ping::DEF)
        .observer(observer.clone())
        .build();
    let Err(refused) = second else {
        panic!("built")
    };
    assert!(refused.to_string().contains("\"obs\""), "{refused}");
    assert_eq!(observer.server(), Some("obs"));
    // The same name again is the same server rebuilt: allowed.
    server(&observer);
}

#[tokio::test]
async fn a_rebuilt_live_catalog_keeps_its_items_counts() {
    let observer = Observer::new();
    let (builder, live) = Server::builder()
        .name("obs")
        .tool(ping::DEF)
        .observer(observer.clone())
        .live();
    let server = builder.build().unwrap();
    observer.start();
    call(&server, "tools/call", json!({ "name": "ping" })).await;
    live.add_tool(boom::DEF).unwrap();
    call(&server, "tools/call", json!({ "name": "ping" })).await;
    let graph = observer.graph().unwrap().graph;
    let ping = graph
        .edges()
        .iter()
        .find(|e| e.to == "obs/tool/ping")
        .unwrap();
    assert_eq!(ping.weight, Some(2));
}

#[test]
fn an_observer_of_no_server_has_no_graph() {
    let observer = Observer::new();
    observer.start();
    assert_eq!(observer.graph().unwrap_err(), ObserveError::NoServer);
}
