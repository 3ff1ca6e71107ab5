/// The readme.
#[beam_mcp::resource("docs://readme", mime = "text/markdown")]
fn readme() -> &'static str {
    "read me"
}

fn main() {}
