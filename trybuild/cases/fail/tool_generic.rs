/// Echoes anything.
#[beam_mcp::tool]
fn echo<T: serde::Serialize>(value: T) -> T {
    value
}

fn main() {}
