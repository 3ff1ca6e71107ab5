#[path = "resource_duplicate_uri_other_file/other.rs"]
mod other;

/// The readme.
#[beam_mcp::resource("docs://readme")]
fn readme() -> &'static str {
    "read me"
}

fn main() {}
