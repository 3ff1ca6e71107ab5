/// Moves a file between regions.
#[beam_mcp::tool]
fn transfer(#[header("Region")] from: String, #[header("region")] to: String) -> String {
    format!("{from} -> {to}")
}

fn main() {}
