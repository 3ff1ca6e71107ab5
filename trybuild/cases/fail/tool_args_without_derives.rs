use beam_mcp::Args;

struct Input {
    a: i64,
    b: i64,
}

/// Adds two numbers.
#[beam_mcp::tool]
fn add(Args(input): Args<Input>) -> String {
    (input.a + input.b).to_string()
}

fn main() {}
