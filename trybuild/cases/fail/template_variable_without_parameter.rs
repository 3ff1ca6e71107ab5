/// A note in a folder, but the folder is not taken.
#[beam_mcp::resource("notes://{folder}/{id}")]
fn note(id: String) -> String {
    id
}

fn main() {}
