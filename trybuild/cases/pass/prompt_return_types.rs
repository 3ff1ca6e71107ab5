//! Prompts with every return type, optional arguments, state, and completers of both shapes
//! on prompts and on templates.

#[path = "common/mod.rs"]
mod common;

use beam_mcp::completion::{Completion, CompletionRequest};
use beam_mcp::prompt::{GetPromptResult, PromptMessage};
use beam_mcp::{Content, State};
use serde_json::{Value, json};

const LANGUAGES: [&str; 4] = ["rust", "ruby", "python", "go"];

/// Completes by the text typed so far: `fn(&str) -> Vec<String>`.
fn languages(prefix: &str) -> Vec<String> {
    LANGUAGES
        .iter()
        .filter(|l| l.starts_with(prefix))
        .map(|l| (*l).to_owned())
        .collect()
}

/// Completes from the whole request: `fn(&CompletionRequest) -> Completion`.
fn versions(request: &CompletionRequest) -> Completion {
    let language = request.resolved("language").unwrap_or("any");
    let mut completion: Completion = [format!("{language}-{}1", request.value())]
        .into_iter()
        .collect();
    completion.total = Some(10);
    completion.has_more = true;
    completion
}

/// Host state for a prompt.
#[derive(Clone)]
struct Style(&'static str);

/// Returns a String.
#[beam_mcp::prompt(complete(language = languages, version = versions))]
fn explain(language: String, version: Option<String>) -> String {
    match version {
        Some(version) => format!("Explain {language} {version}"),
        None => format!("Explain {language}"),
    }
}

/// Returns one PromptMessage.
#[beam_mcp::prompt]
fn one(
    /// What to ask about.
    topic: String,
) -> PromptMessage {
    PromptMessage::assistant(format!("Ask me about {topic}"))
}

/// Returns several messages, in the style held by the host.
#[beam_mcp::prompt(name = "review.code", title = "Review")]
async fn review(code: String, State(style): State<Style>) -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(format!("Review this, {}:", style.0)),
        PromptMessage::user(Content::embedded_text(
            "code://snippet",
            "text/x-rust",
            code,
        )),
    ]
}

/// Returns a whole GetPromptResult.
#[beam_mcp::prompt]
fn whole(note: Option<String>) -> GetPromptResult {
    GetPromptResult::new(vec![PromptMessage::user("whole")])
        .with_description(note.unwrap_or_else(|| "no note".into()))
}

/// Returns Result<_, String>: an error refuses to render.
#[beam_mcp::prompt]
fn strict(word: String) -> Result<String, String> {
    if word.is_empty() {
        Err("say something".into())
    } else {
        Ok(word)
    }
}

/// A template with a completed variable, by the text typed so far.
#[beam_mcp::resource("langs://{language}/intro", complete(language = languages))]
fn intro(language: String) -> String {
    format!("intro to {language}")
}

fn get(server: &beam_mcp::Server, name: &str, arguments: Value) -> Value {
    common::result(
        server,
        "prompts/get",
        json!({ "name": name, "arguments": arguments }),
    )
}

fn complete(server: &beam_mcp::Server, reference: Value, argument: Value, context: Value) -> Value {
    let params = json!({ "ref": reference, "argument": argument, "context": context });
    common::result(server, "completion/complete", params)["completion"].clone()
}

fn main() {
    let server = common::builder()
        .state(Style("briefly"))
        .build()
        .expect("a valid catalog");
    assert_eq!(
        common::names(&server, "prompts/list", "prompts"),
        ["explain", "one", "review.code", "strict", "whole"]
    );
    let listed = common::result(&server, "prompts/list", json!({}));
    let explain = listed["prompts"]
        .as_array()
        .expect("prompts")
        .iter()
        .find(|p| p["name"] == "explain")
        .expect("explain is listed");
    assert_eq!(
        explain["arguments"],
        json!([
            { "name": "language", "required": true },
            { "name": "version", "required": false },
        ])
    );

    let text =
        |result: &Value, i: usize| common::text(&result["messages"][i]["content"]).to_owned();
    assert_eq!(
        text(&get(&server, "explain", json!({ "language": "rust" })), 0),
        "Explain rust"
    );
    assert_eq!(
        text(
            &get(
                &server,
                "explain",
                json!({ "language": "go", "version": "1.22" })
            ),
            0
        ),
        "Explain go 1.22"
    );
    let one = get(&server, "one", json!({ "topic": "tea" }));
    assert_eq!(one["messages"][0]["role"], "assistant");
    assert_eq!(text(&one, 0), "Ask me about tea");
    let review = get(&server, "review.code", json!({ "code": "fn main() {}" }));
    assert_eq!(text(&review, 0), "Review this, briefly:");
    assert_eq!(review["messages"][1]["content"]["type"], "resource");
    assert_eq!(
        review["messages"][1]["content"]["resource"]["text"],
        "fn main() {}"
    );
    let whole = get(&server, "whole", json!({}));
    assert_eq!(whole["description"], "no note");
    assert_eq!(
        get(&server, "whole", json!({ "note": "n" }))["description"],
        "n"
    );
    assert_eq!(
        text(&get(&server, "strict", json!({ "word": "hi" })), 0),
        "hi"
    );
    let refused = common::response(
        &server,
        "prompts/get",
        json!({ "name": "strict", "arguments": { "word": "" } }),
    );
    assert_eq!(
        refused["error"]["data"]["reason"], "say something",
        "{refused}"
    );

    // Both completer shapes, on a prompt and on a template.
    let prompt = json!({ "type": "ref/prompt", "name": "explain" });
    assert_eq!(
        complete(
            &server,
            prompt.clone(),
            json!({ "name": "language", "value": "r" }),
            json!({})
        ),
        json!({ "values": ["rust", "ruby"] })
    );
    assert_eq!(
        complete(
            &server,
            prompt,
            json!({ "name": "version", "value": "2" }),
            json!({ "arguments": { "language": "ruby" } })
        ),
        json!({ "values": ["ruby-21"], "total": 10, "hasMore": true })
    );
    let template = json!({ "type": "ref/resource", "uri": "langs://{language}/intro" });
    assert_eq!(
        complete(
            &server,
            template,
            json!({ "name": "language", "value": "py" }),
            json!({})
        ),
        json!({ "values": ["python"] })
    );
    let intro = common::result(
        &server,
        "resources/read",
        json!({ "uri": "langs://go/intro" }),
    );
    assert_eq!(intro["contents"][0]["text"], "intro to go");
}
