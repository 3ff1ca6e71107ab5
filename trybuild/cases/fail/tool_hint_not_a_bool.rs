/// Reads the weather.
#[beam_mcp::tool(read_only = "yes")]
fn weather() -> String {
    "sunny".into()
}

fn main() {}
