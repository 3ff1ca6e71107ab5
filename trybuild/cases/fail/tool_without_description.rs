#[beam_mcp::tool]
fn undocumented(text: String) -> String {
    text
}

fn main() {}
