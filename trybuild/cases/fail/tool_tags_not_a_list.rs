// `tags` is a list of strings: `tags = ["admin"]`.

/// Wipes the store.
#[beam_mcp::tool(tags = "admin")]
async fn wipe() -> String {
    String::new()
}

fn main() {}
