fn topics(count: u32) -> Vec<String> {
    (0..count).map(|i| i.to_string()).collect()
}

/// Explains a topic.
#[beam_mcp::prompt(complete(topic = topics))]
fn explain(topic: String) -> String {
    format!("Explain {topic}")
}

fn main() {}
