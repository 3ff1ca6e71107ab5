//! The suite's resources.

/// A static text resource.
#[beam_mcp::resource(
    "test://static-text",
    name = "Static Text Resource",
    mime_type = "text/plain"
)]
fn static_text() -> &'static str {
    "This is the content of the static text resource."
}

/// A static binary resource (a PNG).
#[beam_mcp::resource(
    "test://static-binary",
    name = "Static Binary Resource",
    mime_type = "image/png"
)]
fn static_binary() -> Vec<u8> {
    crate::tools::PNG.to_vec()
}

/// A resource template with an id.
#[beam_mcp::resource(
    "test://template/{id}/data",
    name = "Resource Template",
    mime_type = "application/json"
)]
fn template(id: String) -> String {
    // serde_json, not `{:?}`: Rust's Debug escaping is not JSON for every string.
    serde_json::json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")})
        .to_string()
}
