/// One section of a page.
#[beam_mcp::resource("docs://page{#f}")]
fn section(f: String) -> String {
    f
}

fn main() {}
