/// Has an empty name.
#[beam_mcp::tool(name = "")]
fn nameless() -> String {
    String::new()
}

fn main() {}
