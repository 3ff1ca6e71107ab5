/// A note with no variable name.
#[beam_mcp::resource("notes://{}")]
fn note() -> String {
    String::new()
}

fn main() {}
