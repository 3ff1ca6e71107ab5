/// Reads the weather.
#[beam_mcp::tool(title = "Weather", title = "Forecast")]
fn weather() -> String {
    "sunny".into()
}

fn main() {}
