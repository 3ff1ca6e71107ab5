fn topics(prefix: &str) -> Vec<String> {
    vec![format!("{prefix}rust")]
}

fn more_topics(prefix: &str) -> Vec<String> {
    vec![format!("{prefix}go")]
}

/// Explains a topic.
#[beam_mcp::prompt(complete(topic = topics, topic = more_topics))]
fn explain(topic: String) -> String {
    format!("Explain {topic}")
}

fn main() {}
