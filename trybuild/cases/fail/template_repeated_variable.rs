/// A pair of ids that are the same variable.
#[beam_mcp::resource("pairs://{id}/{id}")]
fn pair(id: String) -> String {
    id
}

fn main() {}
