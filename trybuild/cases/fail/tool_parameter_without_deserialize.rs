#[derive(schemars::JsonSchema)]
struct Filter {
    tag: String,
}

/// Finds notes.
#[beam_mcp::tool]
fn find(filter: Filter, limit: Option<u32>) -> String {
    format!("{} {limit:?}", filter.tag)
}

fn main() {}
