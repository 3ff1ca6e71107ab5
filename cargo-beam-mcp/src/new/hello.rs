/// Says hello to someone.
#[beam_mcp::tool(read_only)]
fn hello(
    /// Who to greet.
    name: String,
) -> String {
    format!("Hello, {name}!")
}
