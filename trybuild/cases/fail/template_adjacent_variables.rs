/// A file by name and extension, with nothing between them.
#[beam_mcp::resource("files://{a}{b}")]
fn file(a: String, b: String) -> String {
    format!("{a}{b}")
}

fn main() {}
