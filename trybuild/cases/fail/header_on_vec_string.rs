/// Tags a note.
#[beam_mcp::tool]
fn tag(note: String, #[header("Tags")] tags: Vec<String>) -> String {
    format!("{note}: {}", tags.join(","))
}

fn main() {}
