/// A note by id, with a parameter the template does not have.
#[beam_mcp::resource("notes://{id}")]
fn note(id: String, version: String) -> String {
    format!("{id}@{version}")
}

fn main() {}
