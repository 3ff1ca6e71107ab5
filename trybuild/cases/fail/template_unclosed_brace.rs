/// A note by id.
#[beam_mcp::resource("notes://{id")]
fn note(id: String) -> String {
    id
}

fn main() {}
