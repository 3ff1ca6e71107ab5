fn topics(prefix: &str) -> Vec<String> {
    vec![format!("{prefix}rust")]
}

/// Explains a topic.
#[beam_mcp::prompt(complete(nope = topics))]
fn explain(topic: String) -> String {
    format!("Explain {topic}")
}

fn main() {}
