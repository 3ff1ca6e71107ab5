/// Writes a haiku.
#[beam_mcp::prompt]
fn haiku(topic: String, lines: u32) -> String {
    format!("Write {lines} lines about {topic}")
}

fn main() {}
