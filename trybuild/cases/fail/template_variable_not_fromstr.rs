struct NoteId(u64);

/// A note by id.
#[beam_mcp::resource("notes://{id}")]
fn note(id: NoteId) -> String {
    id.0.to_string()
}

fn main() {}
