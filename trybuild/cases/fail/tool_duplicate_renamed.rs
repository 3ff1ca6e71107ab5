/// Says hello.
#[beam_mcp::tool(name = "b")]
fn a() -> String {
    "hello".into()
}

/// Says goodbye.
#[beam_mcp::tool]
fn b() -> String {
    "goodbye".into()
}

fn main() {}
