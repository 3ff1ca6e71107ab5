// Tags and scopes on every kind of item reach its definition, where middleware reads them.

/// Wipes the store.
#[beam_mcp::tool(tags = ["admin", "danger"], scopes = ["store:wipe"])]
async fn wipe() -> String {
    String::new()
}

/// The audit log.
#[beam_mcp::resource("app://audit", tags = ["admin"], scopes = ["audit:read"])]
fn audit_log() -> String {
    String::new()
}

/// Reviews the audit log.
#[beam_mcp::prompt(tags = ["admin"])]
fn review() -> String {
    String::new()
}

fn main() {
    let tool = beam_mcp::__private_v0_1::TOOLS
        .iter()
        .find(|t| t.name == "wipe")
        .unwrap();
    assert_eq!(tool.tags, ["admin", "danger"]);
    assert_eq!(tool.scopes, ["store:wipe"]);
    let resource = beam_mcp::__private_v0_1::RESOURCES
        .iter()
        .find(|r| r.uri == "app://audit")
        .unwrap();
    assert_eq!(resource.tags, ["admin"]);
    assert_eq!(resource.scopes, ["audit:read"]);
    let prompt = beam_mcp::__private_v0_1::PROMPTS
        .iter()
        .find(|p| p.name == "review")
        .unwrap();
    assert_eq!(prompt.tags, ["admin"]);
    assert!(prompt.scopes.is_empty());
}
