//! Tools, resources and prompts on an impl block: `&self` is the host state, with the same
//! checks as free functions, at both revisions, in a sync and an async method.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use beam_mcp::Server;
use beam_mcp::testing::{TestClient, TestError};
use serde_json::json;

#[derive(Clone, Default)]
struct Notes {
    written: Arc<AtomicU64>,
}

#[beam_mcp::items]
impl Notes {
    /// Writes a note and says how many there are.
    #[tool(name = "write_note", idempotent = false)]
    fn write(&self, text: String) -> String {
        let n = self.written.fetch_add(1, Ordering::SeqCst) + 1;
        format!("{n}: {text}")
    }

    /// How many notes there are, after a wait.
    #[beam_mcp::tool(read_only)]
    async fn count(&self) -> String {
        tokio::task::yield_now().await;
        self.written.load(Ordering::SeqCst).to_string()
    }

    /// One note.
    #[resource("notes://{id}", mime_type = "text/plain")]
    fn note(&self, id: u64) -> String {
        format!("note {id} of {}", self.written.load(Ordering::SeqCst))
    }

    /// Summarizes the notes.
    #[prompt]
    fn summary(
        &self,
        /// The tone.
        tone: Option<String>,
    ) -> String {
        let tone = tone.unwrap_or_else(|| "plain".into());
        format!(
            "Summarize {} notes, {tone}",
            self.written.load(Ordering::SeqCst)
        )
    }

    /// Not an item: a plain method stays as it is.
    fn reset(&self) {
        self.written.store(0, Ordering::SeqCst);
    }
}

fn server(notes: Notes) -> Server {
    Server::builder()
        .tools(Notes::TOOLS)
        .resources(Notes::RESOURCES)
        .prompts(Notes::PROMPTS)
        .state(notes)
        .build()
        .unwrap()
}

#[test]
fn the_block_lists_its_definitions() {
    let tools: Vec<&str> = Notes::TOOLS.iter().map(|d| d.name).collect();
    assert_eq!(tools, ["write_note", "count"]);
    assert_eq!(Notes::WRITE_TOOL.name, "write_note");
    assert_eq!(Notes::WRITE_TOOL.annotations.idempotent, Some(false));
    assert_eq!(Notes::COUNT_TOOL.annotations.read_only, Some(true));
    assert_eq!(Notes::RESOURCES[0].uri, "notes://{id}");
    assert_eq!(Notes::NOTE_RESOURCE.mime_type, Some("text/plain"));
    assert_eq!(Notes::PROMPTS[0].name, "summary");
    assert!(!Notes::SUMMARY_PROMPT.arguments[0].required);
}

#[tokio::test]
async fn self_is_the_state_the_server_was_given_at_both_revisions() {
    let notes = Notes::default();
    let clients = [
        TestClient::new(server(notes.clone())),
        TestClient::legacy(server(notes.clone())).await.unwrap(),
    ];
    let mut written = 0;
    for mut client in clients {
        written += 1;
        let out = client
            .call_tool("write_note", json!({ "text": "hello" }))
            .await
            .unwrap();
        assert_eq!(out.text(), format!("{written}: hello"));
        let count = client.call_tool("count", json!({})).await.unwrap();
        assert_eq!(count.text(), written.to_string());
        let read = client.read_resource("notes://7").await.unwrap();
        assert_eq!(read[0]["text"], format!("note 7 of {written}"));
        let prompt = client
            .get_prompt("summary", [("tone", "brief")])
            .await
            .unwrap();
        assert_eq!(prompt.text(), format!("Summarize {written} notes, brief"));
    }
    assert_eq!(notes.written.load(Ordering::SeqCst), 2, "one state, shared");
    notes.reset();
    assert_eq!(notes.written.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_template_variable_that_does_not_parse_names_no_resource() {
    let mut client = TestClient::new(server(Notes::default()));
    match client.read_resource("notes://seven").await {
        Err(TestError::Protocol { code, data, .. }) => {
            assert_eq!(code, -32602);
            assert_eq!(data.unwrap()["uri"], "notes://seven");
        }
        other => panic!("expected not found, got {other:?}"),
    }
}

#[test]
fn without_the_state_the_server_is_refused_naming_the_type() {
    let refused = Server::builder()
        .tools(Notes::TOOLS)
        .build()
        .map(|_| ())
        .expect_err("refused")
        .to_string();
    assert!(refused.contains("impl_items::Notes"), "{refused}");
}
