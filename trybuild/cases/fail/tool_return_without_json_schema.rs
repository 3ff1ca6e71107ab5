#[derive(serde::Serialize)]
struct Stats {
    count: u64,
}

/// Counts notes.
#[beam_mcp::tool]
fn stats() -> Stats {
    Stats { count: 3 }
}

fn main() {}
