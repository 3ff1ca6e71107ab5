// An MCP Apps view embedded from a file and a view read by a function, each linked from a tool
// in another module (found in this file at compile time), with every `app(...)` option, reach
// a server that builds and serves them.

use beam_mcp::app::{AppView, Visibility};

mod views {
    /// The card, embedded.
    #[beam_mcp::resource(
        "ui://demo/card",
        app(
            html = "./views/card.html",
            csp(
                connect_domains = ["https://api.example.com", "wss://live.example.com:8443"],
                resource_domains = ["https://*.cdn.example.com"],
                frame_domains = ["https://www.youtube.com"],
                base_uri_domains = ["https://example.com"]
            ),
            permissions = ["camera", "clipboard_write"],
            domain = "abc123.example-host.com",
            prefers_border = false
        )
    )]
    pub fn card() {}

    /// A view written by its reader.
    #[beam_mcp::resource("ui://demo/live")]
    pub fn live() -> String {
        "<!doctype html><p>live</p>".into()
    }
}

/// Shows the card.
#[beam_mcp::tool(ui = "ui://demo/card")]
fn show() -> String {
    "shown".into()
}

/// Refreshes the live view, for the view only.
#[beam_mcp::tool(ui(resource = "ui://demo/live", visibility = ["app"]))]
fn refresh() -> String {
    "refreshed".into()
}

fn main() {
    const CARD: AppView = views::card::DEF.app.unwrap();
    assert_eq!(CARD.csp.connect_domains, ["https://api.example.com", "wss://live.example.com:8443"]);
    assert!(CARD.permissions.camera && CARD.permissions.clipboard_write && !CARD.permissions.microphone);
    assert_eq!(CARD.prefers_border, Some(false));
    assert_eq!(views::card(), include_str!("views/card.html"));
    assert_eq!(views::card::DEF.mime_type, Some(beam_mcp::app::MIME_TYPE));
    assert_eq!(views::live::DEF.app, Some(AppView::NONE));
    assert_eq!(show::DEF.ui.unwrap().visibility, Visibility::ModelAndApp);
    assert_eq!(refresh::DEF.ui.unwrap().visibility, Visibility::App);
    beam_mcp::Server::builder()
        .resource(views::card::DEF)
        .resource(views::live::DEF)
        .tool(show::DEF)
        .tool(refresh::DEF)
        .build()
        .expect("linked views are served");
}
