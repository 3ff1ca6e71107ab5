// Two named catalogs may each declare `search` (the check runs per catalog), and `serve!`'s
// builder mounts each under its name.

/// Finds a note.
#[beam_mcp::tool(catalog = "notes")]
fn search(text: String) -> String {
    format!("note {text}")
}

mod files {
    /// Finds a file.
    #[beam_mcp::tool(catalog = "files")]
    pub fn search(text: String) -> String {
        format!("file {text}")
    }
}

/// The crate's own search.
#[beam_mcp::tool(name = "search")]
fn own_search(text: String) -> String {
    text
}

fn main() {
    let server = beam_mcp::Server::builder()
        .crate_items(module_path!())
        .mount_crate_catalogs(module_path!())
        .build()
        .unwrap();
    let mut client = beam_mcp::testing::TestClient::new(server);
    let tools = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(client.list_tools())
        .unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["files_search", "notes_search", "search"]);
}
