//! The connectome on the wire: three resources and one tool answering the canonical bytes,
//! byte-identical to the file export; the declared file checked against the server's name;
//! and nothing else on the wire moving when a host adds them (recorded before and after).

use beam_mcp::connectome::{
    Algorithm, Canonical, Edge, EdgeKind, Graph, Identity, Labels, Node, Observer, Provenance,
    canonical,
};
use beam_mcp::protocol::{Outbound, Reply, Session};
use beam_mcp::{BuildError, Server, ServerBuilder};
use serde_json::{Value, json};

/// Answers pong.
#[beam_mcp::tool(read_only)]
async fn ping() -> String {
    "pong".into()
}

/// Answers pang.
#[beam_mcp::tool]
async fn pang() -> String {
    "pang".into()
}

/// A greeting.
#[beam_mcp::prompt]
fn hello() -> String {
    "Hello".into()
}

/// The declared graph of this file's catalog, as a build step would emit it for `srv`.
fn declared_bytes(server: &str, algorithm: Algorithm) -> &'static [u8] {
    let id = |identity: Identity| identity.id();
    let server_node = Identity::Server {
        server: server.into(),
    };
    let tool = |name: &str| Identity::Tool {
        server: server.into(),
        name: name.into(),
    };
    let mut labels = Labels::new();
    labels.insert("read_only".into(), json!(true));
    let nodes = vec![
        Node::new(server_node.clone(), Labels::new()).unwrap(),
        Node::new(tool("ping"), labels).unwrap(),
        Node::new(tool("pang"), Labels::new()).unwrap(),
    ];
    let edges = vec![
        Edge::new(
            id(server_node.clone()),
            id(tool("ping")),
            EdgeKind::Invoke,
            Provenance::Declared,
        ),
        Edge::new(
            id(server_node),
            id(tool("pang")),
            EdgeKind::Invoke,
            Provenance::Declared,
        ),
    ];
    let graph = Graph::new(nodes, edges).unwrap();
    Box::leak(
        canonical::encode(&graph, algorithm)
            .unwrap()
            .into_boxed_slice(),
    )
}

const META: &str = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}"#;

async fn request(server: &Server, method: &str, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = serde_json::from_str(META).unwrap();
    let message = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
    match server.handle(&Session::new(), message.to_string().as_bytes()) {
        Reply::Ready(response) => response.to_value(),
        Reply::Pending(mut exchange) => loop {
            if let Outbound::Response(r) = exchange.next().await.expect("an answer") {
                break r.to_value();
            }
        },
        _ => panic!("no answer to {method}"),
    }
}

fn base() -> ServerBuilder {
    Server::builder()
        .name("srv")
        .tool(ping::DEF)
        .tool(pang::DEF)
        .prompt(hello::DEF)
}

#[test]
fn a_declared_connectome_of_another_server_is_refused_at_build() {
    let refused = base()
        .declared_connectome(declared_bytes("other", Algorithm::Sha256))
        .build()
        .unwrap_err();
    let BuildError::Connectome(error) = &refused else {
        panic!("{refused:?}")
    };
    assert!(error.to_string().contains("\"other/server\""), "{error}");
    let garbage = base()
        .declared_connectome(b"{\"schema_version\":3}")
        .build();
    assert!(matches!(garbage, Err(BuildError::Connectome(_))));
    let fine = base()
        .declared_connectome(declared_bytes("srv", Algorithm::Sha256))
        .build()
        .unwrap();
    assert_eq!(fine.declared_connectome().unwrap().nodes().len(), 3);
    // The served declared graph is the file's, untouched: the linked prompt it lacks is
    // recorded beside it.
    assert_eq!(fine.hand_built_items(), ["srv/prompt/hello"]);
}

#[test]
fn a_declared_item_the_server_does_not_link_is_refused_at_build() {
    let refused = Server::builder()
        .name("srv")
        .tool(ping::DEF)
        .declared_connectome(declared_bytes("srv", Algorithm::Sha256))
        .build()
        .unwrap_err();
    let BuildError::Connectome(error) = &refused else {
        panic!("{refused:?}")
    };
    assert_eq!(
        error.to_string(),
        "the declared connectome declares srv/tool/pang the server does not link (link them, e.g. with crate_items(), or scan the crate the server is built from)"
    );
}

#[tokio::test]
async fn each_resource_and_the_tool_answer_the_file_export_bytes() {
    let declared = declared_bytes("srv", Algorithm::Sha384);
    let observer = Observer::new();
    let server = base()
        .declared_connectome(declared)
        .observer(observer.clone())
        .connectome_resources()
        .connectome_tool()
        .build()
        .unwrap();
    let read = |uri: &'static str| {
        let server = server.clone();
        async move { request(&server, "resources/read", json!({ "uri": uri })).await }
    };
    // Before the observer starts, the observed graph and the diff are refused with the reason.
    let refused = read("connectome://observed").await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert!(refused.to_string().contains("has not started"), "{refused}");
    let answer = read("connectome://declared").await;
    let contents = &answer["result"]["contents"][0];
    assert_eq!(contents["mimeType"], "application/json");
    assert_eq!(contents["text"].as_str().unwrap().as_bytes(), declared);

    observer.start();
    request(&server, "tools/call", json!({ "name": "ping" })).await;
    let observed = observer.graph().unwrap();
    let answer = read("connectome://observed").await;
    let text = answer["result"]["contents"][0]["text"]
        .as_str()
        .unwrap()
        .to_owned();
    let expected = Canonical::of(&observed.graph, Algorithm::Sha384).unwrap();
    assert_eq!(text.as_bytes(), expected.bytes());

    let answer = read("connectome://diff").await;
    let text = answer["result"]["contents"][0]["text"]
        .as_str()
        .unwrap()
        .to_owned();
    let record: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(record["algorithm"], "sha384");
    let classes = &record["classes"];
    let to = |class: &str| -> Vec<String> {
        classes[class]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["to"].as_str().unwrap().to_owned())
            .collect()
    };
    // The read of connectome://observed itself was observed: the surface's own items are
    // hand-built (the build step cannot see them), recorded as such, and their calls are not
    // drift; nor are those of the prompt this file links without declaring it.
    assert_eq!(
        to("declared_and_observed"),
        ["srv/resource/connectome:%2F%2Fobserved", "srv/tool/ping"]
    );
    assert!(to("observed_but_undeclared").is_empty(), "{record}");
    assert!(to("declared_never_observed").contains(&"srv/tool/pang".to_owned()));
    assert_eq!(
        server.hand_built_items(),
        [
            "srv/prompt/hello",
            "srv/resource/connectome:%2F%2Fdeclared",
            "srv/resource/connectome:%2F%2Fdiff",
            "srv/resource/connectome:%2F%2Fobserved",
            "srv/tool/connectome",
        ]
    );
    let coverage = &record["coverage"];
    assert_eq!(
        (
            coverage["declared_edges"].as_u64(),
            coverage["observed_edges"].as_u64()
        ),
        (Some(7), Some(2))
    );
    assert_eq!(coverage["declared_and_observed"], 2);
    assert!(
        record["window"]["started_at"].as_str().unwrap()
            <= record["window"]["ended_at"].as_str().unwrap()
    );
    // The record re-derives from its own parts.
    let again = canonical::encode_value(&record).unwrap();
    assert_eq!(again, text.as_bytes());

    let answer = request(
        &server,
        "tools/call",
        json!({ "name": "connectome", "arguments": { "graph": "declared" } }),
    )
    .await;
    let structured = &answer["result"]["structuredContent"];
    assert_eq!(structured["graph"], "declared");
    assert_eq!(structured["bytes"].as_str().unwrap().as_bytes(), declared);
    assert_eq!(
        structured["sha384"],
        canonical::hash_hex(declared, Algorithm::Sha384)
    );
    let unknown = request(
        &server,
        "tools/call",
        json!({ "name": "connectome", "arguments": { "graph": "other" } }),
    )
    .await;
    assert_eq!(unknown["result"]["isError"], true, "{unknown}");
}

/// What the advertising methods answer, on both revisions.
async fn advertised(server: &Server) -> Vec<Value> {
    let mut out = Vec::new();
    for method in [
        "server/discover",
        "tools/list",
        "resources/list",
        "resources/templates/list",
        "prompts/list",
    ] {
        out.push(request(server, method, json!({})).await);
    }
    let session = Session::new();
    let hello = json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } } });
    let Reply::Ready(response) = server.handle_value(&session, hello) else {
        panic!()
    };
    out.push(response.to_value());
    out
}

#[tokio::test]
async fn adding_the_surface_moves_nothing_else_on_the_wire() {
    let declared = declared_bytes("srv", Algorithm::Sha256);
    let before = advertised(&base().declared_connectome(declared).build().unwrap()).await;
    let with = base()
        .declared_connectome(declared)
        .connectome_resources()
        .connectome_tool()
        .build()
        .unwrap();
    let mut after = advertised(&with).await;
    // Take out exactly what the surface adds; the rest must be equal.
    let tools = after[1]["result"]["tools"].as_array_mut().unwrap();
    let at = tools
        .iter()
        .position(|t| t["name"] == "connectome")
        .unwrap();
    let tool = tools.remove(at);
    assert_eq!(tool["annotations"], json!({ "readOnlyHint": true }));
    let resources = after[2]["result"]["resources"].take();
    let uris: Vec<&str> = resources
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        uris,
        [
            "connectome://declared",
            "connectome://diff",
            "connectome://observed"
        ]
    );
    assert_eq!(before[2]["error"]["code"], -32601, "no resources before");
    assert_eq!(after[3]["result"]["resourceTemplates"], json!([]));
    for (i, capabilities) in [(0, "/result/capabilities"), (5, "/result/capabilities")] {
        let added = after[i]
            .pointer_mut(capabilities)
            .unwrap()
            .as_object_mut()
            .unwrap()
            .remove("resources");
        assert_eq!(
            added,
            Some(json!({ "listChanged": false, "subscribe": false }))
        );
    }
    assert_eq!(after[0], before[0]);
    assert_eq!(after[1], before[1]);
    assert_eq!(after[4], before[4]);
    assert_eq!(after[5], before[5]);
}
