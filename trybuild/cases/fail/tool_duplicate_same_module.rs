/// Searches the notes.
#[beam_mcp::tool(name = "search")]
fn search_notes(query: String) -> String {
    query
}

/// Searches the mail.
#[beam_mcp::tool(name = "search")]
fn search_mail(query: String) -> String {
    query
}

fn main() {}
