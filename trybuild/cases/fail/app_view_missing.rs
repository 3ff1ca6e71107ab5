// A tool linked to a view no #[resource] of the crate declares, one linked to a URI that is not
// a view's, and a visibility that is neither the model nor the view.

mod views {
    /// A view that is there.
    #[beam_mcp::resource("ui://demo/card")]
    pub fn card() -> String {
        "<!doctype html><p>card</p>".into()
    }
}

/// Linked to the view that is there.
#[beam_mcp::tool(ui = "ui://demo/card")]
fn fine() -> String {
    String::new()
}

/// Linked to a view nobody serves.
#[beam_mcp::tool(ui = "ui://demo/missing")]
fn missing() -> String {
    String::new()
}

/// Linked to a resource that is not a view.
#[beam_mcp::tool(ui = "docs://readme")]
fn not_a_view() -> String {
    String::new()
}

/// Visible to the user, which is not a caller.
#[beam_mcp::tool(ui(resource = "ui://demo/card", visibility = ["user"]))]
fn visible_to_whom() -> String {
    String::new()
}

fn main() {}
