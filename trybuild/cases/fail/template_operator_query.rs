/// Searches the notes.
#[beam_mcp::resource("notes://search{?q}")]
fn search(q: String) -> String {
    q
}

fn main() {}
