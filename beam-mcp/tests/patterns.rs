//! `pattern` through the server: a pattern the linear-time engine cannot match is refused at
//! `ServerBuilder::build`, naming the tool, the pattern and the feature; a pattern that would
//! backtrack exponentially elsewhere answers a call on a long argument at once.

mod common;

use beam_mcp::protocol::Session;
use beam_mcp::{CatalogError, Server, ServerBuilder, ToolDef};
use common::{modern, send};
use serde_json::{Value, json};

/// Echoes the text.
#[beam_mcp::tool]
fn echo(text: String) -> String {
    text
}

/// An input schema (a `fn`, as `ToolDef` takes it) whose string `text` has `$pattern`.
macro_rules! with_pattern {
    ($pattern:literal) => {
        || {
            json!({
                "type": "object",
                "properties": {"text": {"type": "string", "pattern": $pattern}}
            })
        }
    };
}

/// `echo` with a hand-written input schema.
fn echo_with(schema: fn() -> Value) -> ToolDef {
    echo::DEF.with_input_schema(schema)
}

fn refusal(builder: ServerBuilder) -> CatalogError {
    match builder.build() {
        Ok(_) => panic!("the catalog should be refused"),
        Err(beam_mcp::BuildError::Catalog(error)) => error,
        Err(other) => panic!("refused for another reason: {other}"),
    }
}

#[test]
fn lookaround_and_backreferences_are_refused_at_build_naming_tool_pattern_and_feature() {
    type SchemaFn = fn() -> Value;
    let cases: [(SchemaFn, &str, &str, usize); 5] = [
        (
            with_pattern!("^(?=.*[0-9]).+$"),
            "^(?=.*[0-9]).+$",
            "lookahead",
            2,
        ),
        (with_pattern!("^(?!x)"), "^(?!x)", "negative lookahead", 2),
        (with_pattern!("(?<=@)\\w+"), "(?<=@)\\w+", "lookbehind", 1),
        (
            with_pattern!("(?<!-)1"),
            "(?<!-)1",
            "negative lookbehind",
            1,
        ),
        (with_pattern!("^(.)\\1$"), "^(.)\\1$", "backreferences", 5),
    ];
    for (schema, pattern, feature, at) in cases {
        let error = refusal(Server::builder().tool(echo_with(schema)));
        let CatalogError::Schema { item, reason } = &error else {
            panic!("not a schema refusal: {error}");
        };
        assert_eq!(item, "tool \"echo\"");
        assert_eq!(
            reason,
            &format!(
                "the schema, property text: pattern {pattern:?} uses {feature} \
                 (at character {at}), which this server does not enforce: patterns are matched \
                 in linear time, without lookaround, backreferences or inline modifiers"
            )
        );
        assert!(
            error
                .to_string()
                .starts_with("tool \"echo\": the schema, property text: pattern"),
            "{error}"
        );
    }
}

#[test]
fn a_pattern_too_large_is_refused_at_build() {
    let schema: fn() -> Value = with_pattern!("^(a{1000}){1000}$");
    let error = refusal(Server::builder().tool(echo_with(schema)));
    assert!(
        error.to_string().starts_with(
            "tool \"echo\": the schema, property text: pattern \"^(a{1000}){1000}$\" is too large"
        ),
        "{error}"
    );
}

#[test]
fn a_catastrophic_pattern_answers_a_long_argument_at_once() {
    let schema: fn() -> Value = || {
        json!({
            "type": "object",
            "properties": {"text": {"type": "string", "pattern": "^(a+)+$"}},
            "required": ["text"]
        })
    };
    let server = Server::builder()
        .name("patterns")
        .version("1.0.0")
        .tool(echo_with(schema))
        .build()
        .expect("a linear pattern is accepted");
    let call = |text: &str| {
        let response = send(
            &server,
            &Session::new(),
            modern(
                1,
                "tools/call",
                json!({"name": "echo", "arguments": {"text": text}}),
            ),
        )
        .expect("an answer");
        response["result"].clone()
    };
    let long = "a".repeat(100_000);
    // Exponential for a backtracking engine; one pass here.
    let refused = call(&format!("{long}!"));
    assert_eq!(refused["isError"], true, "{refused}");
    assert_eq!(
        refused["content"][0]["text"],
        "echo: invalid arguments: text does not match the required pattern"
    );
    let accepted = call(&long);
    assert_eq!(accepted["isError"], false);
    assert_eq!(
        accepted["content"][0]["text"].as_str().map(str::len),
        Some(100_000)
    );
}
