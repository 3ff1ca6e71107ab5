// A named catalog's resource mounted at `notes://notes/today` meets the crate's own resource
// of that URI.

/// Today's note.
#[beam_mcp::resource("notes://today", catalog = "notes")]
fn today() -> String {
    "nothing yet".into()
}

/// The mounted URI, declared by hand.
#[beam_mcp::resource("notes://notes/today")]
fn today_again() -> String {
    "again".into()
}

fn main() {}
