/// The readme.
#[beam_mcp::resource("docs://readme")]
fn readme() -> &'static str {
    "read me"
}

/// The readme, again.
#[beam_mcp::resource("docs://readme")]
fn readme_again() -> &'static str {
    "read me again"
}

fn main() {}
