//! Tools declared at the root, in inline modules and in another file all join one catalog.

#[path = "common/mod.rs"]
mod common;
#[path = "tools_across_modules_and_files/more.rs"]
mod more;

use serde_json::json;

/// Adds two numbers.
#[beam_mcp::tool]
fn add(a: i64, b: i64) -> String {
    (a + b).to_string()
}

mod text {
    /// Upper-cases a text.
    #[beam_mcp::tool]
    pub fn upper(text: String) -> String {
        text.to_uppercase()
    }

    pub mod deep {
        /// Reverses a text.
        #[beam_mcp::tool(name = "text.reverse")]
        pub fn reverse(text: String) -> String {
            text.chars().rev().collect()
        }
    }
}

fn main() {
    let server = common::server();
    assert_eq!(
        common::names(&server, "tools/list", "tools"),
        ["add", "lower", "text.reverse", "text/len", "upper"]
    );
    let called = |name: &str, arguments| {
        let result = common::call(&server, name, arguments);
        assert_eq!(result["isError"], false, "{result}");
        common::text(&result["content"][0]).to_owned()
    };
    assert_eq!(called("add", json!({ "a": 2, "b": 40 })), "42");
    assert_eq!(called("upper", json!({ "text": "abc" })), "ABC");
    assert_eq!(called("text.reverse", json!({ "text": "abc" })), "cba");
    assert_eq!(called("lower", json!({ "text": "ABC" })), "abc");
    assert_eq!(called("text/len", json!({ "text": "héllo" })), "5");
}
