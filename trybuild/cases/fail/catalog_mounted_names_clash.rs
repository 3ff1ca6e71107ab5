// Two named catalogs whose items meet once mounted under their names: `search` of catalog
// `a_b` and `b_search` of catalog `a` are both served as `a_b_search`.

/// Finds one thing.
#[beam_mcp::tool(catalog = "a_b")]
fn search(text: String) -> String {
    text
}

mod other {
    /// Finds another.
    #[beam_mcp::tool(catalog = "a")]
    pub fn b_search(text: String) -> String {
        text
    }
}

fn main() {}
