//! The README's example: a small weather server on stdio, on both protocol revisions.
//!
//! Run it with `cargo run -p weather` and speak MCP on its stdin/stdout, or with
//! `cargo run -p weather -- --http 127.0.0.1:8080` and POST to `http://127.0.0.1:8080/mcp`.
//! Tools are here (`book_trip` asks the user a question through the client); resources and
//! prompts live in their own modules, and `crate_items` finds them all.

mod prompts;
mod resources;

use std::collections::BTreeMap;
use std::sync::Arc;

use beam_mcp::{
    Annotations, Content, Context, Elicit, Elicited, LogLevel, Priority, Role, State, ToolError,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The places this server knows, set once on the builder and shared by every call.
#[derive(Clone)]
struct Stations(Arc<BTreeMap<&'static str, Reading>>);

impl Stations {
    /// The station names starting with `prefix` (ignoring case), for completions.
    fn starting_with(&self, prefix: &str) -> Vec<String> {
        let prefix = prefix.to_lowercase();
        self.0
            .keys()
            .filter(|name| name.to_lowercase().starts_with(&prefix))
            .map(|name| (*name).to_owned())
            .collect()
    }

    /// The current reading at `place`, or the tool error every tool answers without one.
    fn reading(&self, place: &str) -> Result<Reading, ToolError> {
        self.0
            .get(place)
            .copied()
            .ok_or_else(|| ToolError::new(format!("no station for {place}")))
    }
}

/// One station's current reading.
#[derive(Clone, Copy, Serialize, JsonSchema)]
struct Reading {
    /// Air temperature in degrees Celsius.
    celsius: f64,
    /// Sky conditions, e.g. "sunny".
    sky: &'static str,
}

impl Default for Stations {
    fn default() -> Self {
        let readings = [
            (
                "Paris",
                Reading {
                    celsius: 14.5,
                    sky: "cloudy",
                },
            ),
            (
                "Lisbon",
                Reading {
                    celsius: 21.0,
                    sky: "sunny",
                },
            ),
            (
                "Oslo",
                Reading {
                    celsius: -3.0,
                    sky: "snow",
                },
            ),
        ];
        Stations(Arc::new(readings.into_iter().collect()))
    }
}

/// Read the current weather for a place.
#[beam_mcp::tool(read_only, title = "Current weather", icon = "assets/sun.png")]
async fn get_weather(
    /// A city name, e.g. "Paris".
    place: String,
    State(stations): State<Stations>,
) -> Result<String, ToolError> {
    let reading = stations.reading(&place)?;
    Ok(format!("{place}: {} °C, {}", reading.celsius, reading.sky))
}

/// The current reading for a place, as structured data; a host that renders MCP Apps views
/// shows it as a card (`ui://weather/reading`).
#[beam_mcp::tool(read_only, ui = "ui://weather/reading")]
fn reading(
    /// A city name, e.g. "Lisbon".
    place: String,
    State(stations): State<Stations>,
) -> Result<Reading, ToolError> {
    stations.reading(&place)
}

/// The current temperature for a place in degrees Fahrenheit, for the reading card: visible to
/// the card only (hosts hide it from the model).
#[beam_mcp::tool(
    read_only,
    idempotent,
    ui(resource = "ui://weather/reading", visibility = ["app"])
)]
fn reading_fahrenheit(
    /// A city name, e.g. "Lisbon".
    place: String,
    State(stations): State<Stations>,
) -> Result<String, ToolError> {
    let reading = stations.reading(&place)?;
    Ok(format!("{} °F", reading.celsius * 9.0 / 5.0 + 32.0))
}

/// Forecast the next days for a place (a toy model: the same sky, a degree warmer each day).
/// Reports progress, one step per day, to a caller that asks for it.
#[beam_mcp::tool(read_only, idempotent, time_limit_ms = 10_000)]
fn forecast(
    /// A city name.
    place: String,
    /// How many days ahead, 1 to 7 (default 3).
    days: Option<u8>,
    State(stations): State<Stations>,
    ctx: Context,
) -> Result<Vec<Content>, ToolError> {
    let days = days.unwrap_or(3);
    if !(1..=7).contains(&days) {
        return Err(ToolError::new("days must be between 1 and 7"));
    }
    let now = stations.reading(&place)?;
    let _ = ctx.log(
        LogLevel::Info,
        format!("forecasting {days} days for {place}"),
    );
    let mut lines = Vec::new();
    for d in 1..=days {
        if ctx.is_cancelled() {
            return Err(ToolError::new("cancelled"));
        }
        // The model is slow on purpose, so that progress has something to report.
        std::thread::sleep(std::time::Duration::from_millis(20));
        // The nearer the day, the more it matters: tomorrow 1, the day after 0.5, ...
        let nearness = Priority::new(1.0 / f64::from(d)).unwrap_or(Priority::OPTIONAL);
        lines.push(
            Content::text(format!(
                "day {d}: {} °C, {}",
                now.celsius + f64::from(d),
                now.sky
            ))
            .with_annotations(
                Annotations::NONE
                    .with_audience(&[Role::User, Role::Assistant])
                    .with_priority(nearness),
            ),
        );
        let _ = ctx.progress(
            f64::from(d),
            Some(f64::from(days)),
            Some(&format!("day {d}")),
        );
    }
    Ok(lines)
}

/// A temperature, tagged by its unit: `{"unit": "fahrenheit", "degrees": 212}`.
#[derive(Deserialize, JsonSchema)]
#[serde(tag = "unit", rename_all = "lowercase")]
enum Temperature {
    /// Degrees Celsius.
    Celsius { degrees: f64 },
    /// Degrees Fahrenheit.
    Fahrenheit { degrees: f64 },
    /// Kelvin, from absolute zero.
    Kelvin {
        #[schemars(range(min = 0))]
        degrees: f64,
    },
}

/// Convert a temperature between Celsius, Fahrenheit and Kelvin.
#[beam_mcp::tool(read_only, idempotent)]
fn convert(
    /// The temperature to convert, e.g. {"unit": "celsius", "degrees": 21}.
    temperature: Temperature,
) -> String {
    let celsius = match temperature {
        Temperature::Celsius { degrees } => degrees,
        Temperature::Fahrenheit { degrees } => (degrees - 32.0) * 5.0 / 9.0,
        Temperature::Kelvin { degrees } => degrees - 273.15,
    };
    // Two decimals, without trailing zeros: 373.15, not 373.1500000000001.
    let shown = |x: f64| (x * 100.0).round() / 100.0;
    format!(
        "{} °C = {} °F = {} K",
        shown(celsius),
        shown(celsius * 9.0 / 5.0 + 32.0),
        shown(celsius + 273.15)
    )
}

/// A region: the stations in it and the regions within it, as deep as you like.
#[derive(Deserialize, JsonSchema)]
struct Region {
    /// The region's name.
    name: String,
    /// Station names in this region itself.
    #[serde(default)]
    stations: Vec<String>,
    /// The regions within this one.
    #[serde(default)]
    regions: Vec<Region>,
}

impl Region {
    /// Every station name of the region and the regions within it, and how many regions
    /// there are (this one included).
    fn walk<'a>(&'a self, names: &mut Vec<&'a str>) -> usize {
        names.extend(self.stations.iter().map(String::as_str));
        1 + self.regions.iter().map(|r| r.walk(names)).sum::<usize>()
    }
}

/// The mean temperature over every station of a region and the regions within it.
#[beam_mcp::tool(read_only, idempotent)]
fn region_mean(
    /// The region, e.g. {"name": "Europe", "regions": [{"name": "North", "stations": ["Oslo"]}]}.
    region: Region,
    State(stations): State<Stations>,
) -> Result<String, ToolError> {
    let mut names = Vec::new();
    let regions = region.walk(&mut names);
    let mut total = 0.0;
    for name in &names {
        let reading = stations.reading(name)?;
        total += reading.celsius;
    }
    if names.is_empty() {
        return Err(ToolError::new(format!("{} has no stations", region.name)));
    }
    names.sort_unstable();
    let count = names.len();
    let mean = (total / count as f64 * 100.0).round() / 100.0;
    Ok(format!(
        "{}: {mean} °C over {count} stations ({}) in {regions} regions",
        region.name,
        names.join(", ")
    ))
}

// The form `book_trip` shows the user: flat fields only (strings, numbers, booleans, unit
// enums). A field's doc comment is its description in the form; a doc comment here would be the
// form's.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Booking {
    /// How many people travel, 1 to 9.
    #[schemars(range(min = 1, max = 9))]
    travellers: u8,
    /// Where to sit.
    seat: Seat,
}

// No doc comments on the variants: documented variants would make the choice a `oneOf`.
#[derive(Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "lowercase")]
enum Seat {
    Window,
    Aisle,
}

/// Book a trip to a place: shows the user the weather there and asks them to confirm, with how
/// many travel and where they sit. Needs a client that can show a form (elicitation).
#[beam_mcp::tool(title = "Book a trip")]
async fn book_trip(
    /// A city name, e.g. "Oslo".
    place: String,
    State(stations): State<Stations>,
    ctx: Context,
) -> Result<String, ToolError> {
    let reading = stations.reading(&place)?;
    // At 2026-07-28 this ends the round (an `input_required` result) and the function runs
    // again, from the start, with the answer; at 2025-11-25 it is an `elicitation/create`
    // request on the session. Either way, act only after the last ask.
    let answer = ctx
        .elicit::<Booking>(format!(
            "Book a trip to {place}? It is {} °C there, {}.",
            reading.celsius, reading.sky
        ))
        .await
        .map_err(|e| ToolError::new(format!("book_trip: {e}")))?;
    Ok(match answer {
        Elicited::Accepted(Booking { travellers, seat }) => {
            let seat = match seat {
                Seat::Window => "window",
                Seat::Aisle => "aisle",
            };
            let plural = if travellers == 1 { "" } else { "s" };
            format!("Booked a trip to {place} for {travellers}, {seat} seat{plural}.")
        }
        Elicited::Declined => format!("Not booked: you declined the trip to {place}."),
        Elicited::Cancelled => format!("Not booked: the trip to {place} was cancelled."),
    })
}

/// The server: this crate's items, its state, and the declared connectome its `build.rs`
/// wrote (checked against the name at `build()`).
/// The Server Card's name and the endpoint it names.
const CARD_NAME: &str = "com.example/weather";
const CARD_URL: &str = "https://weather.example.com/mcp";

fn builder() -> beam_mcp::ServerBuilder {
    beam_mcp::Server::builder()
        .name(env!("CARGO_PKG_NAME"))
        .version(env!("CARGO_PKG_VERSION"))
        .crate_items(module_path!())
        .title("Weather")
        .description("Current readings and toy forecasts for a few European cities.")
        .website_url("https://example.invalid/beam-mcp/weather")
        .icon(beam_mcp::icon!(src = "assets/weather.svg", theme = "light"))
        .instructions("Weather for a few European cities. Call get_weather with a city name.")
        .skills(beam_mcp::skills!("skills"))
        .state(Stations::default())
        .declared_connectome(beam_mcp::declared_connectome!())
}

/// `weather` serves stdio; `weather --http 127.0.0.1:8080` serves Streamable HTTP at `/mcp`
/// (loopback origins, no authorization: a local demo; a real deployment checks a token in
/// `authorize`).
fn main() -> std::process::ExitCode {
    let mut configured = builder();
    // Replicas behind a balancer share the key that seals `requestState` (docs/deploy.md); a
    // real deployment reads it from its secret store.
    if let Ok(key) = std::env::var("MCP_REQUEST_STATE_KEY") {
        configured = configured.request_state_key(key);
    }
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next()) {
        (None, _) => beam_mcp::transport::stdio::main(configured),
        (Some("--http"), Some(bind)) => {
            // With the `redis` feature and BEAM_MCP_REDIS_URL set, replicas behind a balancer
            // share their 2025-11-25 sessions (docs/deploy.md).
            #[cfg(feature = "redis")]
            let shared = match std::env::var_os("BEAM_MCP_REDIS_URL") {
                None => None,
                Some(_) => match beam_mcp::redis::RedisOptions::from_env().and_then(|options| {
                    beam_mcp::redis::Redis::connect_blocking(env!("CARGO_PKG_NAME"), options)
                }) {
                    Ok(redis) => Some(redis),
                    Err(e) => {
                        eprintln!("weather: {e}");
                        return std::process::ExitCode::from(2);
                    }
                },
            };
            beam_mcp::transport::http::main(&bind, configured, move |server| {
                // The Server Card (SEP-2127 draft) at /mcp/server-card, naming where this
                // example would be deployed; pinned in `server-card.json`.
                let card = beam_mcp::ServerCard::of(&server, CARD_NAME, Some(CARD_URL));
                let endpoint = beam_mcp::transport::http::Http::builder(server)
                    .authorize(|_| Ok(()))
                    .allowed_origins(beam_mcp::transport::http::Origins::Loopback);
                let endpoint = match card {
                    Ok(card) => endpoint.server_card(card),
                    Err(e) => {
                        eprintln!("weather: no server card: {e}");
                        endpoint
                    }
                };
                #[cfg(feature = "redis")]
                if let Some(redis) = shared {
                    return endpoint
                        .session_share(redis.sessions())
                        .event_store(redis.event_store());
                }
                endpoint
            })
        }
        _ => {
            eprintln!(
                "usage: weather            (stdio)\n       weather --http ADDR  (Streamable HTTP at http://ADDR/mcp)"
            );
            std::process::ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use beam_mcp::Advertised;
    use beam_mcp::connectome::NodeKind;
    use beam_mcp::protocol::Revision;
    use serde_json::Value;

    /// The ids of what the server advertises, derived as the connectome derives them.
    fn advertised_ids(advertised: &Advertised) -> BTreeSet<String> {
        use beam_mcp::connectome::Identity;
        let listing: Value = serde_json::from_slice(advertised.bytes()).unwrap();
        let server = || "weather".to_owned();
        let mut ids = BTreeSet::new();
        for (member, key) in [
            ("tools", "name"),
            ("resources", "uri"),
            ("resourceTemplates", "uriTemplate"),
            ("prompts", "name"),
        ] {
            for entry in listing[member].as_array().unwrap() {
                let key = entry[key].as_str().unwrap().to_owned();
                let identity = match member {
                    "tools" => Identity::Tool {
                        server: server(),
                        name: key,
                    },
                    "prompts" => Identity::Prompt {
                        server: server(),
                        name: key,
                    },
                    _ => Identity::Resource {
                        server: server(),
                        uri: key,
                    },
                };
                ids.insert(identity.id());
            }
        }
        ids
    }

    #[test]
    fn the_declared_items_are_the_linked_catalog() {
        let server = super::builder()
            .build()
            .expect("the declared connectome is this server's");
        let declared = server.declared_connectome().expect("given to the builder");
        let items: BTreeSet<String> = declared
            .nodes()
            .iter()
            .filter(|n| {
                matches!(
                    n.kind(),
                    NodeKind::Tool | NodeKind::Resource | NodeKind::Prompt
                )
            })
            .map(|n| n.id().to_owned())
            .collect();
        let linked = Advertised::of(&server, Revision::V2026_07_28).unwrap();
        assert_eq!(items, advertised_ids(&linked));
        assert_eq!(items.len(), 12, "{items:?}");
        // Every linked item is declared: none is recorded as hand-built.
        assert!(server.hand_built_items().is_empty());
    }

    #[test]
    fn the_advertised_catalog_is_pinned_at_each_revision() {
        let server = super::builder().build().unwrap();
        for revision in Revision::ALL {
            let path = format!("{}/advertised/{revision}.json", env!("CARGO_MANIFEST_DIR"));
            Advertised::of(&server, revision)
                .unwrap()
                .check_pinned(path)
                .unwrap();
        }
    }

    /// The Server Card (SEP-2127 draft) this server would publish at
    /// `https://weather.example.com/mcp/server-card`, pinned like the export: it moves when
    /// the server's name, version, description or catalog does.
    #[test]
    fn the_server_card_is_pinned() {
        let server = super::builder().build().unwrap();
        beam_mcp::ServerCard::of(&server, super::CARD_NAME, Some(super::CARD_URL))
            .unwrap()
            .check_pinned(concat!(env!("CARGO_MANIFEST_DIR"), "/server-card.json"))
            .unwrap();
    }
}
