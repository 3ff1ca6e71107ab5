/// Compares items.
#[beam_mcp::prompt]
fn compare(items: Vec<String>) -> String {
    format!("Compare {}", items.join(", "))
}

fn main() {}
