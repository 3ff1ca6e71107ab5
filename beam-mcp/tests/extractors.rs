//! One extractor mechanism: `#[extract]` host extractors beside `State<T>` and `Context`, in
//! tools, readers and prompts; extractors stay out of the input schema; a failing extractor is
//! an internal fault, and the server keeps serving.

use beam_mcp::testing::{TestClient, TestError};
use beam_mcp::{Extract, Rejection, RequestParts, Server, State};
use serde_json::json;

/// A host extractor: the tenant named in the request's `_meta`, or a refusal.
struct Tenant(String);

impl Extract for Tenant {
    fn extract(parts: &RequestParts<'_>) -> Result<Self, Rejection> {
        match parts.context().meta().get("example.com/tenant") {
            Some(serde_json::Value::String(name)) => Ok(Tenant(format!("{name}@{}", parts.item()))),
            _ => Err(Rejection::new("no tenant in _meta")),
        }
    }
}

#[derive(Clone)]
struct Greeting(&'static str);

/// Greets someone on behalf of the tenant.
#[beam_mcp::tool]
fn greet(#[extract] tenant: Tenant, name: String, State(greeting): State<Greeting>) -> String {
    format!("{} {name}, from {}", greeting.0, tenant.0)
}

/// The tenant's page.
#[beam_mcp::resource("tenant://page")]
fn page(#[extract] tenant: Tenant) -> String {
    format!("page of {}", tenant.0)
}

/// A prompt for the tenant.
#[beam_mcp::prompt]
fn intro(#[extract] tenant: Tenant, topic: String) -> String {
    format!("{} asks about {topic}", tenant.0)
}

/// Greets without reading the request: host state alone.
#[beam_mcp::tool]
fn plain(name: String, State(greeting): State<Greeting>) -> String {
    format!("{} {name}", greeting.0)
}

fn server() -> Server {
    Server::builder()
        .tool(greet::DEF)
        .resource(page::DEF)
        .prompt(intro::DEF)
        .state(Greeting("Hello"))
        .build()
        .unwrap()
}

fn with_tenant(params: serde_json::Value) -> serde_json::Value {
    let mut params = params;
    params["_meta"] = json!({ "example.com/tenant": "acme" });
    params
}

#[test]
fn extractors_are_not_arguments() {
    let schema = (greet::DEF.input_schema)();
    assert_eq!(schema["required"], json!(["name"]));
    assert_eq!(
        schema["properties"].as_object().unwrap().len(),
        1,
        "{schema}"
    );
    assert!(intro::DEF.arguments.iter().all(|a| a.name == "topic"));
    let takes_context = [greet::DEF.takes_context, page::DEF.takes_context];
    assert_eq!(
        takes_context,
        [true, true],
        "a host extractor may read the context"
    );
    // What the core may skip making for a call: only a tool that reads no context at all.
    let reads_request = [greet::DEF.reads_request, plain::DEF.reads_request];
    assert_eq!(
        reads_request,
        [true, false],
        "an extractor reads the request; host state is not the request"
    );
}

#[tokio::test]
async fn a_host_extractor_reads_the_request_in_every_kind_of_item() {
    let mut client = TestClient::new(server());
    let call = json!({ "name": "greet", "arguments": { "name": "Ada" } });
    let result = client
        .request("tools/call", with_tenant(call))
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "Hello Ada, from acme@greet");
    let read = client
        .request(
            "resources/read",
            with_tenant(json!({ "uri": "tenant://page" })),
        )
        .await
        .unwrap();
    assert_eq!(read["contents"][0]["text"], "page of acme@tenant://page");
    let prompt = json!({ "name": "intro", "arguments": { "topic": "billing" } });
    let got = client
        .request("prompts/get", with_tenant(prompt))
        .await
        .unwrap();
    assert_eq!(
        got["messages"][0]["content"]["text"],
        "acme@intro asks about billing"
    );
}

#[tokio::test]
async fn a_rejecting_extractor_is_an_internal_fault_and_the_server_goes_on() {
    let mut client = TestClient::new(server());
    for outcome in [
        client
            .call_tool("greet", json!({ "name": "Ada" }))
            .await
            .map(|_| ()),
        client.read_resource("tenant://page").await.map(|_| ()),
        client
            .get_prompt("intro", [("topic", "x")])
            .await
            .map(|_| ()),
    ] {
        match outcome {
            Err(TestError::Protocol { code, message, .. }) => {
                assert_eq!(code, -32603);
                assert!(
                    !message.contains("tenant"),
                    "the reason is logged, not sent: {message}"
                );
            }
            other => panic!("expected an internal error, got {other:?}"),
        }
    }
    let call = json!({ "name": "greet", "arguments": { "name": "Bo" } });
    let result = client
        .request("tools/call", with_tenant(call))
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "Hello Bo, from acme@greet");
}
