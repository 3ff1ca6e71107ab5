/// The readme, without a scheme.
#[beam_mcp::resource("readme.md")]
fn readme() -> &'static str {
    "read me"
}

fn main() {}
