#[derive(Clone)]
struct Notes;

#[beam_mcp::items]
impl Default for Notes {
    fn default() -> Self {
        Notes
    }
}

fn main() {}
