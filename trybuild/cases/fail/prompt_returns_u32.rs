/// A prompt that returns a number.
#[beam_mcp::prompt]
fn number(topic: String) -> u32 {
    topic.len() as u32
}

fn main() {}
