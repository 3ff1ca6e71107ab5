mod notes {
    /// Searches the notes.
    #[beam_mcp::tool]
    pub fn search(query: String) -> String {
        query
    }
}

mod mail {
    /// Searches the mail.
    #[beam_mcp::tool]
    pub fn search(query: String) -> String {
        query
    }
}

fn main() {}
