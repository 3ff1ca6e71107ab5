/// Has a name one character too long.
#[beam_mcp::tool(name = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")]
fn long_name() -> String {
    String::new()
}

fn main() {}
