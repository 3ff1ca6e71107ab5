struct Filter {
    tag: String,
}

/// Finds notes.
#[beam_mcp::tool]
fn find(filter: Filter) -> String {
    filter.tag
}

fn main() {}
