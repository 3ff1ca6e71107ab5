// An extractor is not an argument, so it has no header; #[extract] takes no options.
/// Greets.
#[beam_mcp::tool]
fn greet(#[extract] #[header("Region")] region: String, #[extract(strict)] ctx: beam_mcp::Context) -> String {
    let _ = ctx;
    region
}

fn main() {}
