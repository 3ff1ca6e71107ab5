/// The readme.
#[beam_mcp::resource]
fn readme() -> &'static str {
    "read me"
}

fn main() {}
