// Icons, a size and annotations reach each kind of item's definition, checked and in `const`
// context, and `icon!` makes a constant icon; a data: URI and an integer priority are taken.

use beam_mcp::{Icon, IconTheme, Priority, Role, Timestamp};

/// Draws a chart.
#[beam_mcp::tool(
    icon = "https://example.com/chart.svg",
    icon(src = "https://example.com/chart-dark.png", mime_type = "image/png", sizes = ["48x48", "96x96"], theme = "dark")
)]
fn chart() -> String {
    String::new()
}

/// The latest report.
#[beam_mcp::resource(
    "app://report",
    size = 2048,
    annotations(audience = ["user"], priority = 1, last_modified = "2025-01-12T16:00:58.5+01:00"),
    icon = "data:image/png;base64,iVBORw0KGgo="
)]
fn report() -> String {
    String::new()
}

/// Summarises a report.
#[beam_mcp::prompt(icon = "https://example.com/summary.png")]
fn summarise() -> String {
    String::new()
}

const LOGO: Icon = beam_mcp::icon!(src = "https://example.com/logo.svg", theme = "light", sizes = ["any"]);

fn main() {
    let tool = beam_mcp::__private_v0_1::TOOLS.iter().find(|t| t.name == "chart").unwrap();
    assert_eq!(tool.icons.len(), 2);
    assert_eq!(tool.icons[0], Icon::url("https://example.com/chart.svg"));
    assert_eq!(
        tool.icons[1],
        Icon::url("https://example.com/chart-dark.png")
            .with_mime_type("image/png")
            .with_sizes(&["48x48", "96x96"])
            .with_theme(IconTheme::Dark)
    );
    let resource = beam_mcp::__private_v0_1::RESOURCES.iter().find(|r| r.uri == "app://report").unwrap();
    assert_eq!(resource.size, Some(2048));
    assert_eq!(resource.annotations.audience, [Role::User]);
    assert_eq!(resource.annotations.priority, Some(Priority::REQUIRED));
    assert_eq!(
        resource.annotations.last_modified.map(|t| t.to_string()).as_deref(),
        Some("2025-01-12T15:00:58.5Z")
    );
    assert_eq!(resource.annotations.last_modified, Some(Timestamp::from_unix(1_736_694_058, 500_000_000)));
    assert_eq!(resource.icons[0].src, "data:image/png;base64,iVBORw0KGgo=");
    let prompt = beam_mcp::__private_v0_1::PROMPTS.iter().find(|p| p.name == "summarise").unwrap();
    assert_eq!(prompt.icons[0].src, "https://example.com/summary.png");
    assert_eq!(LOGO.theme, Some(IconTheme::Light));
    assert_eq!(LOGO.sizes, ["any"]);
    let server = beam_mcp::Server::builder()
        .crate_items(module_path!())
        .icon(LOGO)
        .build()
        .unwrap();
    drop(server);
}
