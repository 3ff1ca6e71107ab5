/// Reviews code.
#[beam_mcp::prompt(name = "review")]
fn review_code(code: String) -> String {
    format!("Review this code: {code}")
}

/// Reviews prose.
#[beam_mcp::prompt(name = "review")]
fn review_prose(text: String) -> String {
    format!("Review this text: {text}")
}

fn main() {}
