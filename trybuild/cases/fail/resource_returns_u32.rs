/// The number of notes.
#[beam_mcp::resource("notes://count")]
fn count() -> u32 {
    3
}

fn main() {}
