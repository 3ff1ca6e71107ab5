// Three faults, reported in one build: a parameter no variable binds, a variable no parameter
// takes, and a generic reader.
/// A note.
#[beam_mcp::resource("notes://{id}/{section}")]
fn note<T>(id: String, part: String) -> String {
    format!("{id} {part}")
}

fn main() {}
