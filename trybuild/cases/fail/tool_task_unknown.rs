// `task` takes "optional", "required" or "forbidden".

/// Runs for a while.
#[beam_mcp::tool(task = "sometimes")]
async fn long() -> String {
    String::new()
}

fn main() {}
