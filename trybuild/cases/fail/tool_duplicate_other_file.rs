#[path = "tool_duplicate_other_file/other.rs"]
mod other;

/// Searches the notes.
#[beam_mcp::tool]
fn search(query: String) -> String {
    query
}

fn main() {}
