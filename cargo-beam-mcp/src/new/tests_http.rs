//! The server as its clients run it: the built binary serving Streamable HTTP on a free
//! loopback port, through beam-mcp's client, at both protocol revisions, with and without the
//! token; its catalog pinned (`advertised/`), so a change to what it advertises is seen in
//! review. After changing the catalog on purpose: `BEAM_MCP_PIN=overwrite cargo test`.

use std::io::BufRead;

use beam_mcp::client::{Client, ClientError};
use beam_mcp::protocol::Revision;

/// The server's process, stopped when dropped.
struct Served(std::process::Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The server on 127.0.0.1 (a free port) with `token`, and its endpoint's URL.
fn serve(token: &str) -> (Served, String) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_@NAME@"))
        @SERVE_ARGS@
        .env("@TOKEN_VAR@", token)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let served = Served(child);
    for line in stderr.lines() {
        let line = line.unwrap();
        if let Some(url) = line.trim().strip_prefix("beam_mcp: listening on ") {
            return (served, url.to_owned());
        }
    }
    panic!("the server ended before it listened");
}

#[tokio::test]
async fn hello_answers_callers_with_the_token_at_both_revisions() {
    let (_served, url) = serve("s3cret");
    let bearer = vec![("authorization".to_owned(), "Bearer s3cret".to_owned())];
    for revision in [Revision::V2026_07_28, Revision::V2025_11_25] {
        let client = Client::builder().revision(revision).http(&url, bearer.clone()).await.unwrap();
        let answer = client
            .call_tool("hello", serde_json::json!({ "name": "Ada" }))
            .await
            .unwrap();
        assert_eq!(answer.text(), "Hello, Ada!");
        let pin = format!("{}/advertised/{revision}.json", env!("CARGO_MANIFEST_DIR"));
        client.advertised().await.unwrap().check_pinned(pin).unwrap();
    }
    let refused = Client::builder().http(&url, Vec::new()).await.unwrap_err();
    assert!(matches!(refused, ClientError::Unauthorized { status: 401, .. }), "{refused}");
}
