//! `Context::client_renders_views` reads the client's MCP Apps declaration
//! (`capabilities.extensions["io.modelcontextprotocol/ui"].mimeTypes`): from each request's
//! `_meta` at 2026-07-28, from `initialize` on a 2025-11-25 session.

use beam_mcp::app::{AppView, MIME_TYPE};
use beam_mcp::protocol::{Outbound, Reply, Session};
use beam_mcp::testing::TestClient;
use beam_mcp::{Context, Server};
use serde_json::{Value, json};

/// Says whether the caller renders views.
#[beam_mcp::tool(ui = "ui://demo/card")]
fn renders(ctx: Context) -> String {
    ctx.client_renders_views().to_string()
}

/// A card.
#[beam_mcp::resource("ui://demo/card", app(prefers_border))]
fn card() -> String {
    "<!doctype html><p>card</p>".into()
}

/// A view whose reader says its content is plain HTML: not the extension's type.
#[beam_mcp::resource("ui://demo/mistyped")]
fn mistyped() -> beam_mcp::resource::ResourceContents {
    beam_mcp::resource::ResourceContents::text("<!doctype html><p>x</p>")
        .with_mime_type("text/html")
}

/// A view embedded from a file named from this file's folder (`./`), which the compiler may
/// name relative to its working directory.
#[beam_mcp::resource("ui://demo/embedded", app(html = "./data/app_card.html"))]
fn embedded() {}

fn server() -> Server {
    Server::builder()
        .tool(renders::DEF)
        .resource(card::DEF)
        .resource(mistyped::DEF)
        .resource(embedded::DEF)
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_view_is_read_with_the_extensions_type_or_not_at_all() {
    let mut client = TestClient::new(server());
    let read = client.read_resource("ui://demo/embedded").await.unwrap();
    assert_eq!(read[0]["text"], include_str!("data/app_card.html"));
    assert_eq!(read[0]["mimeType"], MIME_TYPE);
    assert_eq!(read[0]["_meta"], json!({ "ui": {} }));
    let refused = client
        .read_resource("ui://demo/mistyped")
        .await
        .unwrap_err();
    assert!(
        matches!(
            refused,
            beam_mcp::testing::TestError::Protocol { code: -32603, .. }
        ),
        "{refused:?}"
    );
}

async fn asked(client: &mut TestClient, capabilities: Value) -> String {
    let result = client
        .request(
            "tools/call",
            json!({ "name": "renders", "arguments": {},
                    "_meta": { "io.modelcontextprotocol/clientCapabilities": capabilities } }),
        )
        .await
        .unwrap();
    result["content"][0]["text"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_2026_07_28_request_says_on_each_call_whether_its_client_renders_views() {
    let mut client = TestClient::new(server());
    let ui = |types: Value| json!({ "extensions": { "io.modelcontextprotocol/ui": { "mimeTypes": types } } });
    assert_eq!(asked(&mut client, ui(json!([MIME_TYPE]))).await, "true");
    assert_eq!(asked(&mut client, ui(json!(["text/html"]))).await, "false");
    assert_eq!(
        asked(&mut client, ui(json!("text/html;profile=mcp-app"))).await,
        "false"
    );
    assert_eq!(asked(&mut client, json!({})).await, "false");
    // The view's _meta is the builder's.
    assert_eq!(card::DEF.app, Some(AppView::NONE.with_prefers_border(true)));
}

/// The answer to one message.
async fn answered(reply: Reply) -> Value {
    match reply {
        Reply::Ready(response) => response.to_value(),
        Reply::Pending(mut exchange) => loop {
            match exchange.next().await.expect("an answer") {
                Outbound::Response(response) => break response.to_value(),
                Outbound::Notification(_) => {}
            }
        },
        Reply::Silent => panic!("no answer"),
    }
}

#[tokio::test]
async fn a_2025_11_25_session_says_what_its_initialize_declared() {
    let server = server();
    let declared =
        json!({ "extensions": { "io.modelcontextprotocol/ui": { "mimeTypes": [MIME_TYPE] } } });
    for (capabilities, expected) in [(declared, "true"), (json!({}), "false")] {
        let session = Session::new();
        let hello = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": capabilities,
            "clientInfo": { "name": "t", "version": "1" } } });
        let greeted = answered(server.handle_value(&session, hello)).await;
        assert_eq!(
            greeted["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/ui"],
            json!({})
        );
        let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
        assert!(matches!(
            server.handle_value(&session, initialized),
            Reply::Silent
        ));
        let call = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
                           "params": { "name": "renders", "arguments": {} } });
        let result = answered(server.handle_value(&session, call)).await;
        assert_eq!(result["result"]["content"][0]["text"], expected, "{result}");
    }
}

#[test]
fn a_live_catalog_keeps_every_link_served() {
    let (builder, live) = Server::builder()
        .resource(card::DEF)
        .tool(renders::DEF)
        .live();
    let _server = builder.build().unwrap();
    // The view a tool links to cannot go while the tool stays; the catalog is unchanged.
    assert_eq!(
        live.remove_resource("ui://demo/card")
            .unwrap_err()
            .to_string(),
        "tool \"renders\": its view \"ui://demo/card\" is not a resource of this server; declare it with #[resource(\"ui://demo/card\", app(...))]"
    );
    // A tool linked to a view nobody serves cannot come.
    let stray = renders::DEF
        .with_name("stray")
        .with_ui(beam_mcp::app::ToolUi::new("ui://demo/none"));
    assert!(live.add_tool(stray).is_err());
    // The tool first, then its view: both go.
    live.remove_tool("renders").unwrap();
    live.remove_resource("ui://demo/card").unwrap();
}
