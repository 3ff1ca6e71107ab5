// A scope is an RFC 6749 scope token: no space (a space separates scopes in a token).

/// Writes a note.
#[beam_mcp::tool(scopes = ["notes write"])]
async fn write_note() -> String {
    String::new()
}

fn main() {}
