/// A priority above 1.
#[beam_mcp::resource("app://high", annotations(priority = 1.5))]
fn high() -> String {
    String::new()
}

/// A role the spec does not have.
#[beam_mcp::resource("app://robot", annotations(audience = ["robot"]))]
fn robot() -> String {
    String::new()
}

/// A date that is not RFC 3339.
#[beam_mcp::resource("app://when", annotations(last_modified = "12/01/2025"))]
fn when() -> String {
    String::new()
}

/// A size on a template, whose listing has none.
#[beam_mcp::resource("app://notes/{id}", size = 10)]
fn note(id: String) -> String {
    id
}

fn main() {}
