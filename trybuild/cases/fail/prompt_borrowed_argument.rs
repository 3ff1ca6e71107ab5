// A prompt argument is read into an owned value: `&str` names `String`, `Option<&str>` names
// `Option<String>`, and the completer on the refused argument still finds it.

fn topics(prefix: &str) -> Vec<String> {
    vec![format!("{prefix}rust")]
}

/// Writes about a topic.
#[beam_mcp::prompt(complete(topic = topics))]
fn essay(topic: &str, tone: Option<&str>) -> String {
    format!("{topic} {tone:?}")
}

fn main() {}
