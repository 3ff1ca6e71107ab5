//! A second file of the same crate, declaring a tool of the same name.

/// Searches the mail.
#[beam_mcp::tool]
pub fn search(query: String) -> String {
    query
}
