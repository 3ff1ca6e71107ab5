// A catalog's name must stand as a mount prefix, and a catalog's resource needs a `//` to put it in.

/// A bad name.
#[beam_mcp::tool(catalog = "2 notes")]
fn search(text: String) -> String {
    text
}

/// No place for the prefix.
#[beam_mcp::resource("urn:notes:index", catalog = "notes")]
fn index() -> String {
    "index".into()
}

/// Given twice.
#[beam_mcp::prompt(catalog = "a", catalog = "b")]
fn plan() -> String {
    "plan".into()
}

fn main() {}
