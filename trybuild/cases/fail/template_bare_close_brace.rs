/// A note with a stray brace.
#[beam_mcp::resource("notes://id}")]
fn note() -> String {
    String::new()
}

fn main() {}
