struct Oops;

/// Fails.
#[beam_mcp::tool]
fn fails() -> Result<String, Oops> {
    Err(Oops)
}

fn main() {}
