struct Notes;

#[beam_mcp::items]
impl Notes {
    /// Counts notes.
    #[tool]
    fn count(&self) -> String {
        "0".into()
    }
}

fn main() {}
