//! The server as its clients run it: the built binary over stdio, through beam-mcp's client,
//! at both protocol revisions; its catalog pinned (`advertised/`), so a change to what it
//! advertises is seen in review. After changing the catalog on purpose:
//! `BEAM_MCP_PIN=overwrite cargo test`.

use beam_mcp::client::Client;
use beam_mcp::protocol::Revision;

fn server() -> tokio::process::Command {
    tokio::process::Command::new(env!("CARGO_BIN_EXE_@NAME@"))
}

#[tokio::test]
async fn hello_answers_at_both_revisions_and_the_catalog_is_pinned() {
    for revision in [Revision::V2026_07_28, Revision::V2025_11_25] {
        let client = Client::builder().revision(revision).stdio(server()).await.unwrap();
        let tools = client.list_tools().await.unwrap();
        assert_eq!(tools[0].name, "hello");
        let answer = client
            .call_tool("hello", serde_json::json!({ "name": "Ada" }))
            .await
            .unwrap();
        assert_eq!(answer.text(), "Hello, Ada!");
        let pin = format!("{}/advertised/{revision}.json", env!("CARGO_MANIFEST_DIR"));
        client.advertised().await.unwrap().check_pinned(pin).unwrap();
    }
}
