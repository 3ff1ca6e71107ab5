//! Names and keys that differ only in punctuation are distinct items: the crate-wide
//! uniqueness markers tell them apart.

#[path = "common/mod.rs"]
mod common;

use serde_json::json;

/// Named with a dot.
#[beam_mcp::tool(name = "geo.mirror")]
fn dot() -> &'static str {
    "dot"
}

/// Named with a slash.
#[beam_mcp::tool(name = "geo/mirror")]
fn slash() -> &'static str {
    "slash"
}

/// Named with a dash.
#[beam_mcp::tool(name = "geo-mirror")]
fn dash() -> &'static str {
    "dash"
}

/// Named with an underscore (the function's own name).
#[beam_mcp::tool]
fn geo_mirror() -> &'static str {
    "underscore"
}

/// A raw identifier's name is the word itself.
#[beam_mcp::tool(read_only, idempotent, destructive = false, title = "Type")]
fn r#type() -> &'static str {
    "type"
}

/// Sixty-four characters, the longest name allowed.
#[beam_mcp::tool(name = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")]
fn longest() -> &'static str {
    "longest"
}

/// One URI.
#[beam_mcp::resource("docs://a")]
fn a() -> &'static str {
    "a"
}

/// Another URI, one slash longer.
#[beam_mcp::resource("docs://a/")]
fn a_slash() -> &'static str {
    "a/"
}

/// One segment.
#[beam_mcp::resource("t://{x}")]
fn segment(x: String) -> String {
    format!("segment {x}")
}

/// Any text: another shape.
#[beam_mcp::resource("t://{+x}/more")]
fn reserved(x: String) -> String {
    format!("reserved {x}")
}

/// A prompt with a dotted name.
#[beam_mcp::prompt(name = "ask.me")]
fn ask_dot() -> String {
    "dot".into()
}

/// A prompt with an underscore.
#[beam_mcp::prompt]
fn ask_me() -> String {
    "underscore".into()
}

fn main() {
    let server = common::server();
    let mut expected = vec![
        "geo.mirror",
        "geo/mirror",
        "geo-mirror",
        "geo_mirror",
        "type",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    ];
    expected.sort();
    assert_eq!(common::names(&server, "tools/list", "tools"), expected);
    for (name, text) in [
        ("geo.mirror", "dot"),
        ("geo/mirror", "slash"),
        ("geo-mirror", "dash"),
        ("geo_mirror", "underscore"),
        ("type", "type"),
    ] {
        let result = common::call(&server, name, json!({}));
        assert_eq!(common::text(&result["content"][0]), text);
    }
    let typed = common::tool(&server, "type");
    assert_eq!(typed["title"], "Type");
    assert_eq!(typed["annotations"]["readOnlyHint"], true);
    assert_eq!(typed["annotations"]["idempotentHint"], true);
    assert_eq!(typed["annotations"]["destructiveHint"], false);

    let read = |uri: &str| {
        let result = common::result(&server, "resources/read", json!({ "uri": uri }));
        result["contents"][0]["text"]
            .as_str()
            .expect("text")
            .to_owned()
    };
    assert_eq!(read("docs://a"), "a");
    assert_eq!(read("docs://a/"), "a/");
    assert_eq!(read("t://one"), "segment one");
    assert_eq!(read("t://one/two/more"), "reserved one/two");
    assert_eq!(
        common::names(&server, "prompts/list", "prompts"),
        ["ask.me", "ask_me"]
    );
}
