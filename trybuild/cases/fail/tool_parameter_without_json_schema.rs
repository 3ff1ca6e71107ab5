#[derive(serde::Deserialize)]
struct Filter {
    tag: String,
}

/// Finds notes.
#[beam_mcp::tool]
fn find(filter: Option<Filter>) -> String {
    filter.map(|f| f.tag).unwrap_or_default()
}

fn main() {}
