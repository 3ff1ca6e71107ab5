/// Reads the weather.
#[beam_mcp::tool(readonly)]
fn weather() -> String {
    "sunny".into()
}

fn main() {}
