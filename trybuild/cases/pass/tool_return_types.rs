//! Every tool return type: text, content, results, nothing, structured output, and the
//! `Result`s of those.

#[path = "common/mod.rs"]
mod common;

use beam_mcp::{CallToolResult, Content, ToolError};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

/// A structured result.
#[derive(Serialize, JsonSchema)]
struct Stats {
    /// How many.
    count: u32,
    /// Of what.
    what: String,
}

/// Returns a String.
#[beam_mcp::tool]
fn owned() -> String {
    "owned".into()
}

/// Returns a &'static str.
#[beam_mcp::tool]
fn borrowed() -> &'static str {
    "borrowed"
}

/// Returns one Content.
#[beam_mcp::tool]
fn one_content() -> Content {
    Content::text("one")
}

/// Returns several contents.
#[beam_mcp::tool]
fn many_contents() -> Vec<Content> {
    vec![
        Content::text("first"),
        Content::image(b"\x89PNG", "image/png"),
    ]
}

/// Returns a whole CallToolResult.
#[beam_mcp::tool]
fn whole() -> CallToolResult {
    CallToolResult::new(vec![Content::text("whole")]).with_structured(json!({ "k": 1 }))
}

/// Returns nothing.
#[beam_mcp::tool]
fn nothing() {}

/// Returns a structured struct.
#[beam_mcp::tool]
fn stats() -> Stats {
    Stats {
        count: 3,
        what: "notes".into(),
    }
}

/// Returns Result<String, ToolError>.
#[beam_mcp::tool]
fn checked(ok: bool) -> Result<String, ToolError> {
    if ok {
        Ok("fine".into())
    } else {
        Err(ToolError::new("not fine"))
    }
}

/// Returns Result<Struct, E> with any Display error.
#[beam_mcp::tool]
async fn parsed(text: String) -> Result<Stats, std::num::ParseIntError> {
    Ok(Stats {
        count: text.parse()?,
        what: "parsed".into(),
    })
}

fn main() {
    let server = common::server();
    let call = |name: &str, arguments: Value| common::call(&server, name, arguments);
    let only_text = |name: &str| {
        let result = call(name, json!({}));
        assert_eq!(result["isError"], false, "{result}");
        assert!(result.get("structuredContent").is_none(), "{result}");
        assert_eq!(
            result["content"].as_array().map(Vec::len),
            Some(1),
            "{result}"
        );
        common::text(&result["content"][0]).to_owned()
    };
    assert_eq!(only_text("owned"), "owned");
    assert_eq!(only_text("borrowed"), "borrowed");
    assert_eq!(only_text("one_content"), "one");

    let many = call("many_contents", json!({}));
    assert_eq!(
        many["content"][0],
        json!({ "type": "text", "text": "first" })
    );
    assert_eq!(many["content"][1]["type"], "image");
    assert_eq!(many["content"][1]["mimeType"], "image/png");

    let whole = call("whole", json!({}));
    assert_eq!(whole["structuredContent"], json!({ "k": 1 }));
    assert_eq!(common::text(&whole["content"][0]), "whole");

    let nothing = call("nothing", json!({}));
    assert_eq!(nothing, json!({ "content": [], "isError": false }));

    let stats = call("stats", json!({}));
    assert_eq!(
        stats["structuredContent"],
        json!({ "count": 3, "what": "notes" })
    );
    assert_eq!(
        serde_json::from_str::<Value>(common::text(&stats["content"][0])).ok(),
        Some(json!({ "count": 3, "what": "notes" }))
    );

    let fine = call("checked", json!({ "ok": true }));
    assert_eq!(
        (common::text(&fine["content"][0]), &fine["isError"]),
        ("fine", &json!(false))
    );
    let refused = call("checked", json!({ "ok": false }));
    assert_eq!(
        (common::text(&refused["content"][0]), &refused["isError"]),
        ("not fine", &json!(true))
    );

    let parsed = call("parsed", json!({ "text": "7" }));
    assert_eq!(
        parsed["structuredContent"],
        json!({ "count": 7, "what": "parsed" })
    );
    let unparsed = call("parsed", json!({ "text": "seven" }));
    assert_eq!(unparsed["isError"], true);
    assert!(unparsed.get("structuredContent").is_none(), "{unparsed}");
    assert_eq!(
        common::text(&unparsed["content"][0]),
        "invalid digit found in string"
    );

    // Structured tools declare an output schema; content tools do not.
    let schema = &common::tool(&server, "stats")["outputSchema"];
    assert_eq!(schema["properties"]["count"]["description"], "How many.");
    assert!(common::tool(&server, "parsed")["outputSchema"].is_object());
    for name in [
        "owned",
        "borrowed",
        "one_content",
        "many_contents",
        "whole",
        "nothing",
        "checked",
    ] {
        assert!(
            common::tool(&server, name).get("outputSchema").is_none(),
            "{name} has no output schema"
        );
    }
}
