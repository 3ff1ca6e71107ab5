/// Reads minds.
#[beam_mcp::tool(requires(sampling, telepathy))]
fn read_mind() -> String {
    String::new()
}

fn main() {}
