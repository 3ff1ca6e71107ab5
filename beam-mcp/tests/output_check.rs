//! Structured content is checked against the tool's advertised `outputSchema` before it is
//! sent (`ServerBuilder::check_structured_output`, on by default in debug builds): a host's
//! hand-built result that does not match is answered as an `isError` result naming the
//! mismatch, and with the check off it goes out as the host built it.

mod common;

use beam_mcp::tool::{BoxFuture, ToolFault};
use beam_mcp::{CallToolResult, Content, Server, ToolContext, ToolDef};
use common::{call, result};
use serde_json::{Value, json};

fn input() -> Value {
    json!({ "type": "object", "properties": { "n": { "type": "integer" } } })
}

fn output() -> Value {
    json!({ "type": "object", "properties": { "count": { "type": "integer", "minimum": 0 } },
        "required": ["count"] })
}

/// Answers `{"count": n}` as structured content, whatever `n` is.
fn count(arguments: Value, _: ToolContext) -> BoxFuture<Result<CallToolResult, ToolFault>> {
    Box::pin(async move {
        let n = arguments.get("n").cloned().unwrap_or(Value::Null);
        Ok(CallToolResult::new(vec![Content::text(n.to_string())])
            .with_structured(json!({ "count": n })))
    })
}

const COUNT: ToolDef = ToolDef::new("count", "Counts.", input, count)
    .with_output_schema(output)
    .declared_at(module_path!(), file!(), line!());

fn server(check: Option<bool>) -> Server {
    let builder = Server::builder().tool(COUNT);
    match check {
        Some(check) => builder.check_structured_output(check),
        None => builder,
    }
    .build()
    .unwrap()
}

#[test]
fn structured_content_that_breaks_the_output_schema_is_never_sent() {
    // On by default in this (debug) build.
    for stateless in [true, false] {
        let answered = result(
            &server(None),
            call(1, stateless, "count", json!({ "n": 3 })),
        );
        assert_eq!(answered["structuredContent"], json!({ "count": 3 }));
        assert_ne!(answered["isError"], true);

        let refused = result(
            &server(None),
            call(2, stateless, "count", json!({ "n": -1 })),
        );
        assert_eq!(refused["isError"], true, "{refused}");
        assert!(refused.get("structuredContent").is_none(), "{refused}");
        assert_eq!(
            refused["content"][0]["text"],
            "count: the tool's structured content does not match its outputSchema: count must be >= 0"
        );
    }
}

#[test]
fn with_the_check_off_the_content_goes_out_as_built() {
    let sent = result(
        &server(Some(false)),
        call(1, true, "count", json!({ "n": -1 })),
    );
    assert_eq!(sent["structuredContent"], json!({ "count": -1 }));
    let checked = result(
        &server(Some(true)),
        call(1, true, "count", json!({ "n": -1 })),
    );
    assert_eq!(checked["isError"], true);
}
