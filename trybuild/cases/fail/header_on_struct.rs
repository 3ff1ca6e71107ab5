#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Region {
    code: String,
}

/// Lists the servers of a region.
#[beam_mcp::tool]
fn servers(#[header("Region")] region: Region) -> String {
    region.code
}

fn main() {}
