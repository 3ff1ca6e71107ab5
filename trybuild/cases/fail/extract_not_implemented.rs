struct Caller(String);

/// Greets the caller.
#[beam_mcp::tool]
fn whoami(#[extract] caller: Caller) -> String {
    caller.0
}

fn main() {}
