//! The `files` catalog: its `search` is mounted as `files_search`.

/// Finds the files about a text.
#[beam_mcp::tool(catalog = "files", read_only)]
fn search(
    /// What to look for.
    text: String,
    /// How many files at most.
    limit: Option<u32>,
) -> String {
    format!("file about {text} (at most {})", limit.unwrap_or(10))
}
