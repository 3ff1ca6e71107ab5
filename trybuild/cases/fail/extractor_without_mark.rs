use beam_mcp::{Extract, Rejection, RequestParts};

struct Caller(String);

impl Extract for Caller {
    fn extract(_: &RequestParts<'_>) -> Result<Self, Rejection> {
        Ok(Caller("me".into()))
    }
}

// Without #[extract], a parameter is an argument: this one is not, and the error says how to
// take it from the request.
/// Greets the caller.
#[beam_mcp::tool]
fn whoami(caller: Caller) -> String {
    caller.0
}

fn main() {}
