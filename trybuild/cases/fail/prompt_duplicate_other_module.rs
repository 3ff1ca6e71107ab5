/// Summarizes a text.
#[beam_mcp::prompt]
fn summarize(text: String) -> String {
    format!("Summarize: {text}")
}

mod mail {
    /// Summarizes a thread.
    #[beam_mcp::prompt]
    pub fn summarize(thread: String) -> String {
        format!("Summarize this thread: {thread}")
    }
}

fn main() {}
