/// One document by id.
#[beam_mcp::resource("a://{x}/d")]
fn by_id(x: String) -> String {
    x
}

/// One document by slug: the same URIs as above, under other variable names.
#[beam_mcp::resource("a://{y}/d")]
fn by_slug(y: String) -> String {
    y
}

fn main() {}
