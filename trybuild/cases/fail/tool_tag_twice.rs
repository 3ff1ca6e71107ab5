// A tag is given once.

/// Wipes the store.
#[beam_mcp::tool(tags = ["admin", "danger", "admin"])]
async fn wipe() -> String {
    String::new()
}

fn main() {}
