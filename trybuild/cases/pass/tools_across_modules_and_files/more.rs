//! Tools from a second file of the crate.

/// Lower-cases a text.
#[beam_mcp::tool]
pub fn lower(text: String) -> String {
    text.to_lowercase()
}

/// Counts the characters of a text.
#[beam_mcp::tool(name = "text/len")]
fn len(text: String) -> String {
    text.chars().count().to_string()
}
