//! The weather server's resources: the station list, one station's reading by a URI
//! template, a small icon, and the reading as an MCP Apps view.

use beam_mcp::State;
use beam_mcp::completion::{Completion, CompletionRequest};
use beam_mcp::resource::NotFound;

use crate::Stations;

/// Every station this server knows, one per line.
#[beam_mcp::resource(
    "weather://stations",
    mime_type = "text/plain",
    title = "Stations",
    annotations(
        audience = ["user", "assistant"],
        priority = 0.8,
        last_modified = "2026-07-28T09:00:00Z"
    )
)]
fn stations(State(stations): State<Stations>) -> String {
    stations.0.keys().copied().collect::<Vec<_>>().join("\n")
}

/// The current reading of one station, as JSON.
#[beam_mcp::resource(
    "weather://station/{place}",
    name = "station",
    mime_type = "application/json",
    complete(place = complete_place)
)]
fn station(place: String, State(stations): State<Stations>) -> Result<String, NotFound> {
    let reading = stations.0.get(place.as_str()).ok_or(NotFound)?;
    Ok(format!(
        r#"{{"place":{place:?},"celsius":{},"sky":{:?}}}"#,
        reading.celsius, reading.sky
    ))
}

/// The station names starting with what was typed.
pub(crate) fn complete_place(request: &CompletionRequest) -> Completion {
    // A completer has no State extractor; the list is small and fixed, so build it here.
    Stations::default()
        .starting_with(request.value())
        .into_iter()
        .collect()
}

/// The current reading as a card a host draws beside the conversation (an MCP Apps view): the
/// `reading` tool shows it; it asks `reading_fahrenheit` for the second unit itself.
#[beam_mcp::resource(
    "ui://weather/reading",
    title = "Reading card",
    app(
        html = "assets/reading.html",
        prefers_border = true,
        // Where a deployed card would load its fonts and fetch fresh readings from: neither is
        // used here (the card is self-contained), but both show in the policy a host builds.
        csp(
            resource_domains = ["https://fonts.example.invalid"],
            connect_domains = ["https://api.example.invalid"]
        ),
        // For a "copy" button a deployed card would have.
        permissions = ["clipboard_write"]
    )
)]
fn reading_card() {}

/// The server's icon: a 1x1 PNG.
#[beam_mcp::resource(
    "weather://icon.png",
    mime_type = "image/png",
    size = 67,
    annotations(audience = ["user"], priority = 0)
)]
fn icon() -> Vec<u8> {
    ICON.to_vec()
}

const ICON: [u8; 67] = [
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0a, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00,
    0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
    0x42, 0x60, 0x82,
];
