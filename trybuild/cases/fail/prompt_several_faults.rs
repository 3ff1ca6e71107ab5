fn topics(_prefix: String) -> Vec<String> {
    Vec::new()
}

// Three faults, reported in one build: no description, an argument that is not a string, and
// a completer for an argument the prompt does not have.
#[beam_mcp::prompt(complete(subject = topics))]
fn summary(topic: String, words: u32) -> String {
    format!("{topic} in {words} words")
}

fn main() {}
