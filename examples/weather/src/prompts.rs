//! The weather server's prompts.

use beam_mcp::Content;
use beam_mcp::State;
use beam_mcp::prompt::PromptMessage;

use crate::Stations;
use crate::resources::complete_place;

/// Plan what to wear on a trip, given the weather at the destination.
#[beam_mcp::prompt(
    title = "Plan a trip",
    icon = "assets/weather.svg",
    complete(place = complete_place)
)]
fn plan_trip(
    /// Where to, e.g. "Oslo".
    place: String,
    /// How long the trip lasts, e.g. "3 days".
    duration: Option<String>,
    State(stations): State<Stations>,
) -> Result<Vec<PromptMessage>, String> {
    let reading = stations
        .0
        .get(place.as_str())
        .ok_or_else(|| format!("no station for {place}"))?;
    let duration = duration.unwrap_or_else(|| "a few days".into());
    let data = format!(
        r#"{{"place":{place:?},"celsius":{},"sky":{:?}}}"#,
        reading.celsius, reading.sky
    );
    Ok(vec![
        PromptMessage::user(format!(
            "I am going to {place} for {duration}. What should I pack?"
        )),
        PromptMessage::user(Content::embedded_text(
            format!("weather://station/{place}"),
            "application/json",
            data,
        )),
        PromptMessage::assistant("I will read the current reading first, then suggest a list."),
    ])
}
