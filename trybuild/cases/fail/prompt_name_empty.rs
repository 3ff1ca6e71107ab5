/// Has an empty name.
#[beam_mcp::prompt(name = "")]
fn nameless() -> String {
    String::new()
}

fn main() {}
