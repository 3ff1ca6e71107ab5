/// Lists the servers of a region.
#[beam_mcp::tool]
fn servers(#[header("two words")] region: String) -> String {
    region
}

fn main() {}
