#[beam_mcp::prompt]
fn undocumented(topic: String) -> String {
    format!("Tell me about {topic}")
}

fn main() {}
