fn ids(prefix: &str) -> Vec<String> {
    vec![format!("{prefix}1")]
}

/// A note by id.
#[beam_mcp::resource("notes://{id}", complete(nope = ids))]
fn note(id: String) -> String {
    id
}

fn main() {}
