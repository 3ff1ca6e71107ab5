/// Answers.
#[beam_mcp::tool]
const fn answer() -> u32 {
    42
}

fn main() {}
