//! A second file of the same crate, declaring a resource at the same URI.

/// The readme, from another file.
#[beam_mcp::resource("docs://readme")]
pub fn readme_copy() -> &'static str {
    "read me too"
}
