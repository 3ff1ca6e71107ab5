//! The `notes` catalog: mounted as `notes_search`, `notes://notes/today`,
//! `notes://notes/topic/{topic}` and `notes_summary`.

/// The topics notes are kept on, those starting with `prefix`.
fn topics(prefix: &str) -> Vec<String> {
    ["go", "ruby", "rust"]
        .into_iter()
        .filter(|t| t.starts_with(prefix))
        .map(str::to_owned)
        .collect()
}

/// Finds the notes about a text.
#[beam_mcp::tool(catalog = "notes", read_only)]
fn search(
    /// What to look for.
    text: String,
) -> String {
    format!("note about {text}")
}

/// Today's note.
#[beam_mcp::resource("notes://today", catalog = "notes", mime_type = "text/plain")]
fn today() -> String {
    "nothing yet".into()
}

/// The note on a topic.
#[beam_mcp::resource("notes://topic/{topic}", catalog = "notes", mime_type = "text/plain", complete(topic = topics))]
fn topic(topic: String) -> String {
    format!("all about {topic}")
}

/// Asks for a summary of a topic's notes.
#[beam_mcp::prompt(catalog = "notes", complete(topic = topics))]
fn summary(
    /// Which topic.
    topic: String,
) -> String {
    format!("Summarise my notes on {topic}.")
}
