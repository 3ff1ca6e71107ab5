/// Never finishes in time.
#[beam_mcp::tool(time_limit_ms = 0)]
fn hurry() -> String {
    "done".into()
}

fn main() {}
