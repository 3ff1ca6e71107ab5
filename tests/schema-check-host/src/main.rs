//! A host whose `code` argument carries a pattern with lookahead, which the linear-time engine
//! cannot run: `build()` would refuse it at start-up, and `cargo test` names it first.

/// A product code.
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Code {
    #[schemars(regex(pattern = r"^(?=[A-Z])[A-Z0-9]+$"))]
    value: String,
}

/// Looks a product up by its code.
#[beam_mcp::tool]
fn lookup(code: Code) -> String {
    code.value
}

/// Says hello.
#[beam_mcp::tool]
fn hello(name: String) -> String {
    format!("hello {name}")
}

beam_mcp::serve!(stdio);
