//! `completion/complete` through the core: prompt arguments and template variables, both
//! completer shapes, the 100-value bound, and every refusal.

mod common;

use beam_mcp::Server;
use beam_mcp::completion::{Completion, CompletionRequest};
use beam_mcp::protocol::Session;
use common::{bare, modern, send};
use serde_json::{Value, json};

const CITIES: [&str; 4] = ["Lisbon", "London", "Oslo", "Paris"];

fn cities(prefix: &str) -> Vec<String> {
    CITIES
        .iter()
        .filter(|c| c.to_lowercase().starts_with(&prefix.to_lowercase()))
        .map(|c| (*c).to_owned())
        .collect()
}

/// Streets of the city chosen before (from `context.arguments`).
fn streets(request: &CompletionRequest) -> Completion {
    let city = request.resolved("city").unwrap_or("nowhere");
    [
        format!("{city} High Street"),
        format!("{city} {}", request.value()),
    ]
    .into_iter()
    .collect()
}

fn many(_: &str) -> Vec<String> {
    (0..250).map(|i| format!("v{i:03}")).collect()
}

fn explodes(_: &str) -> Vec<String> {
    panic!("completer bug")
}

/// Directions to a street.
#[beam_mcp::prompt(complete(city = cities, street = streets))]
fn directions(city: String, street: String, mode: Option<String>) -> String {
    format!("{city} {street} {mode:?}")
}

/// A big list.
#[beam_mcp::prompt(complete(item = many, bad = explodes))]
fn big(item: String, bad: Option<String>) -> String {
    format!("{item}{bad:?}")
}

/// Weather by city.
#[beam_mcp::resource("weather://{city}/now", complete(city = cities))]
fn now(city: String) -> String {
    city
}

fn server() -> Server {
    Server::builder()
        .crate_items(module_path!())
        .build()
        .expect("a valid catalog")
}

fn complete(reference: Value, name: &str, value: &str) -> Value {
    modern(
        1,
        "completion/complete",
        json!({ "ref": reference, "argument": { "name": name, "value": value } }),
    )
}

fn answer(server: &Server, message: Value) -> Value {
    send(server, &Session::new(), message).expect("an answer")
}

#[test]
fn prompt_arguments_and_template_variables_complete() {
    let s = server();
    let prompt = json!({ "type": "ref/prompt", "name": "directions" });
    let r = answer(&s, complete(prompt.clone(), "city", "lo"));
    assert_eq!(r["result"]["completion"], json!({ "values": ["London"] }));
    assert_eq!(r["result"]["resultType"], "complete");
    let template = json!({ "type": "ref/resource", "uri": "weather://{city}/now" });
    let r = answer(&s, complete(template, "city", "L"));
    assert_eq!(
        r["result"]["completion"]["values"],
        json!(["Lisbon", "London"])
    );
    // The request shape: context arguments reach the completer.
    let mut with_context = complete(prompt.clone(), "street", "Ro");
    with_context["params"]["context"] = json!({ "arguments": { "city": "Oslo" } });
    assert_eq!(
        answer(&s, with_context)["result"]["completion"]["values"],
        json!(["Oslo High Street", "Oslo Ro"])
    );
    // A declared argument without a completer has no suggestions.
    assert_eq!(
        answer(&s, complete(prompt, "mode", "w"))["result"]["completion"],
        json!({ "values": [] })
    );
    // Legacy too.
    let legacy = bare(
        2,
        "completion/complete",
        json!({ "ref": { "type": "ref/prompt", "name": "directions" }, "argument": { "name": "city", "value": "p" } }),
    );
    assert_eq!(
        answer(&s, legacy)["result"],
        json!({ "completion": { "values": ["Paris"] } })
    );
}

#[test]
fn at_most_100_values_are_sent_with_the_total_and_has_more() {
    let r = answer(
        &server(),
        complete(json!({ "type": "ref/prompt", "name": "big" }), "item", ""),
    );
    let c = &r["result"]["completion"];
    assert_eq!(c["values"].as_array().unwrap().len(), 100);
    assert_eq!(c["values"][99], "v099");
    assert_eq!(
        (c["total"].clone(), c["hasMore"].clone()),
        (json!(250), json!(true))
    );
}

#[test]
fn refusals_name_what_is_wrong() {
    let s = server();
    let malformed = "Invalid params: completion/complete requires ref {type: \"ref/prompt\", name} or {type: \"ref/resource\", uri} and argument {name, value} with string values";
    for params in [
        json!({}),
        json!({ "ref": { "type": "ref/prompt", "name": "directions" } }),
        json!({ "ref": { "type": "ref/prompt", "name": "directions" }, "argument": { "name": "city" } }),
        json!({ "ref": { "type": "ref/tool", "name": "x" }, "argument": { "name": "city", "value": "" } }),
        json!({ "ref": { "type": "ref/prompt" }, "argument": { "name": "city", "value": "" } }),
        json!({ "ref": { "type": "ref/prompt", "name": "directions" }, "argument": { "name": "city", "value": "" }, "context": { "arguments": [] } }),
    ] {
        assert_eq!(
            answer(&s, modern(1, "completion/complete", params.clone()))["error"],
            json!({ "code": -32602, "message": malformed }),
            "{params}"
        );
    }
    assert_eq!(
        answer(
            &s,
            complete(json!({ "type": "ref/prompt", "name": "nope" }), "city", "")
        )["error"],
        json!({ "code": -32602, "message": "Invalid params: unknown prompt", "data": { "name": "nope" } })
    );
    assert_eq!(
        answer(
            &s,
            complete(
                json!({ "type": "ref/resource", "uri": "weather://x/now" }),
                "city",
                ""
            )
        )["error"],
        json!({ "code": -32602, "message": "Invalid params: unknown resource template", "data": { "uri": "weather://x/now" } })
    );
    assert_eq!(
        answer(
            &s,
            complete(
                json!({ "type": "ref/prompt", "name": "directions" }),
                "zip",
                ""
            )
        )["error"],
        json!({ "code": -32602, "message": "Invalid params: unknown argument", "data": { "item": "directions", "argument": "zip" } })
    );
    assert_eq!(
        answer(
            &s,
            complete(json!({ "type": "ref/prompt", "name": "big" }), "bad", "")
        )["error"],
        json!({ "code": -32603, "message": "Internal error" })
    );
}

#[test]
fn the_capability_is_advertised_exactly_when_some_item_has_a_completer() {
    let with = answer(&server(), modern(1, "server/discover", json!({})));
    assert_eq!(with["result"]["capabilities"]["completions"], json!({}));
    let without = Server::builder().prompt(bare_prompt::DEF).build().unwrap();
    let d = answer(&without, modern(1, "server/discover", json!({})));
    assert!(d["result"]["capabilities"].get("completions").is_none());
    assert_eq!(
        answer(
            &without,
            complete(
                json!({ "type": "ref/prompt", "name": "bare_prompt" }),
                "x",
                ""
            )
        )["error"]["code"],
        -32601
    );
}

/// No completer here.
#[beam_mcp::prompt]
fn bare_prompt(x: String) -> String {
    x
}
