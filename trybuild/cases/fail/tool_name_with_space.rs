/// Reads the weather.
#[beam_mcp::tool(name = "get weather")]
fn get_weather() -> String {
    "sunny".into()
}

fn main() {}
