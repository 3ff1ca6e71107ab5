//! `prompts/list` and `prompts/get` through the core, on both revisions, every answer checked
//! against the official schema.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use beam_mcp::prompt::{GetPromptResult, PromptMessage};

use beam_mcp::{Content, Server, State};
use common::{bare, error, modern, result};
use serde_json::{Value, json};

/// How many times host code ran, per server (tests run in parallel), to prove refusals
/// happen before it.
#[derive(Clone, Default)]
struct Renders(Arc<AtomicUsize>);

/// A simple prompt without arguments.
#[beam_mcp::prompt]
fn test_simple_prompt(State(runs): State<Renders>) -> &'static str {
    runs.0.fetch_add(1, Ordering::SeqCst);
    "This is a simple prompt for testing."
}

/// A prompt with arguments.
#[beam_mcp::prompt(title = "With arguments")]
fn test_prompt_with_arguments(
    State(runs): State<Renders>,
    /// First test argument.
    arg1: String,
    /// Second test argument.
    arg2: Option<String>,
) -> String {
    runs.0.fetch_add(1, Ordering::SeqCst);
    format!(
        "Prompt with arguments: arg1='{arg1}', arg2='{}'",
        arg2.as_deref().unwrap_or("-")
    )
}

/// A prompt with an embedded resource and an image.
#[beam_mcp::prompt(name = "rich")]
async fn rich_prompt(resource_uri: String) -> GetPromptResult {
    GetPromptResult::new(vec![
        PromptMessage::user(Content::embedded_text(
            resource_uri,
            "text/plain",
            "Embedded resource content for testing.",
        )),
        PromptMessage::user(Content::image(b"\x89PNG", "image/png")),
        PromptMessage::assistant("Please process the embedded resource above."),
    ])
    .with_description("rich, rendered")
}

/// Refuses some topics.
#[beam_mcp::prompt]
fn picky(topic: String) -> Result<PromptMessage, String> {
    if topic == "secrets" {
        return Err("that topic cannot be discussed".into());
    }
    Ok(PromptMessage::user(format!("Tell me about {topic}")))
}

#[derive(Clone)]
struct Persona(&'static str);

/// Speaks as the configured persona.
#[beam_mcp::prompt]
fn persona(State(p): State<Persona>) -> Vec<PromptMessage> {
    vec![PromptMessage::assistant(format!("I am {}.", p.0))]
}

/// Panics.
#[beam_mcp::prompt]
fn broken() -> String {
    panic!("prompt bug holding a secret")
}

fn server() -> Server {
    server_counting(Renders::default())
}

fn server_counting(runs: Renders) -> Server {
    Server::builder()
        .name("prompts")
        .version("1")
        .crate_items(module_path!())
        .state(Persona("a pirate"))
        .state(runs)
        .build()
        .expect("a valid catalog")
}

fn get(id: i64, name: &str, arguments: Value) -> Value {
    modern(
        id,
        "prompts/get",
        json!({ "name": name, "arguments": arguments }),
    )
}

#[test]
fn prompts_are_listed_sorted_with_arguments_only_when_declared() {
    let s = server();
    let r = result(&s, modern(1, "prompts/list", json!({})));
    let names: Vec<&str> = r["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "broken",
            "persona",
            "picky",
            "rich",
            "test_prompt_with_arguments",
            "test_simple_prompt"
        ]
    );
    assert_eq!(
        r["prompts"][5],
        json!({ "name": "test_simple_prompt", "description": "A simple prompt without arguments." })
    );
    assert_eq!(
        r["prompts"][4],
        json!({
            "name": "test_prompt_with_arguments", "title": "With arguments",
            "description": "A prompt with arguments.",
            "arguments": [
                { "name": "arg1", "description": "First test argument.", "required": true },
                { "name": "arg2", "description": "Second test argument.", "required": false },
            ]
        })
    );
    assert_eq!(
        (r["ttlMs"].clone(), r["cacheScope"].clone()),
        (json!(0), json!("private"))
    );
    let legacy = result(&s, bare(2, "prompts/list", json!({})));
    assert_eq!(legacy["prompts"], r["prompts"]);
}

#[test]
fn prompts_render_text_images_and_embedded_resources() {
    let s = server();
    assert_eq!(
        result(&s, get(1, "test_simple_prompt", json!({})))["messages"],
        json!([{ "role": "user", "content": { "type": "text", "text": "This is a simple prompt for testing." } }])
    );
    let with_args = result(
        &s,
        get(
            2,
            "test_prompt_with_arguments",
            json!({ "arg1": "hello", "arg2": "world" }),
        ),
    );
    assert_eq!(
        with_args["messages"][0]["content"]["text"],
        "Prompt with arguments: arg1='hello', arg2='world'"
    );
    let optional_absent = result(
        &s,
        get(3, "test_prompt_with_arguments", json!({ "arg1": "hello" })),
    );
    assert_eq!(
        optional_absent["messages"][0]["content"]["text"],
        "Prompt with arguments: arg1='hello', arg2='-'"
    );
    let rich = result(&s, get(4, "rich", json!({ "resource_uri": "test://x" })));
    assert_eq!(rich["description"], "rich, rendered");
    assert_eq!(
        rich["messages"],
        json!([
            { "role": "user", "content": { "type": "resource", "resource": {
                "uri": "test://x", "mimeType": "text/plain", "text": "Embedded resource content for testing." } } },
            { "role": "user", "content": { "type": "image", "data": "iVBORw==", "mimeType": "image/png" } },
            { "role": "assistant", "content": { "type": "text", "text": "Please process the embedded resource above." } },
        ])
    );
    assert_eq!(
        result(&s, get(5, "persona", json!({})))["messages"][0]["content"]["text"],
        "I am a pirate."
    );
    // Legacy: no arguments member at all is an empty object.
    let legacy = result(
        &s,
        bare(6, "prompts/get", json!({ "name": "test_simple_prompt" })),
    );
    assert!(legacy.get("resultType").is_none());
}

#[test]
fn names_and_arguments_are_checked_before_the_prompt_runs() {
    let runs = Renders::default();
    let s = server_counting(runs.clone());
    for params in [json!({}), json!({ "name": 3 })] {
        assert_eq!(
            error(&s, modern(1, "prompts/get", params)),
            json!({ "code": -32602, "message": "Invalid params: prompts/get requires a string name" })
        );
    }
    assert_eq!(
        error(&s, get(2, "nope", json!({}))),
        json!({ "code": -32602, "message": "Invalid params: unknown prompt", "data": { "name": "nope" } })
    );
    for (arguments, reason) in [
        (json!({}), "missing required property: arg1"),
        (json!({ "arg1": 1 }), "arg1 must be of type string"),
        (
            json!({ "arg1": "a", "extra": "b" }),
            "unknown property: extra",
        ),
        (
            json!({ "arg1": "a", "arg2": null }),
            "arg2 must be of type string",
        ),
        (json!([1]), "arguments must be an object"),
    ] {
        assert_eq!(
            error(&s, get(3, "test_prompt_with_arguments", arguments)),
            json!({
                "code": -32602,
                "message": "Invalid params: invalid arguments",
                "data": { "name": "test_prompt_with_arguments", "reason": reason },
            })
        );
    }
    assert_eq!(runs.0.load(Ordering::SeqCst), 0, "no prompt ran");
}

#[test]
fn a_refusal_is_32602_and_a_panic_is_32603() {
    let s = server();
    assert_eq!(
        error(&s, get(1, "picky", json!({ "topic": "secrets" }))),
        json!({
            "code": -32602, "message": "Invalid params: the prompt cannot be rendered",
            "data": { "name": "picky", "reason": "that topic cannot be discussed" }
        })
    );
    assert_eq!(
        error(&s, get(2, "broken", json!({}))),
        json!({ "code": -32603, "message": "Internal error" })
    );
    result(&s, get(3, "picky", json!({ "topic": "boats" })));
}

#[test]
fn a_server_without_prompts_does_not_serve_prompt_methods() {
    let s = Server::builder().build().unwrap();
    for method in ["prompts/list", "prompts/get"] {
        assert_eq!(
            error(&s, modern(1, method, json!({ "name": "x" })))["code"],
            -32601
        );
    }
    let d = result(&server(), modern(2, "server/discover", json!({})));
    assert_eq!(
        d["capabilities"]["prompts"],
        json!({ "listChanged": false })
    );
}
