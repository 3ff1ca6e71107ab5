//! The weather example, scanned as its build script scans it: its declared items (the runtime
//! test compares them with the items it links).

use std::path::PathBuf;

use beam_mcp_build::{Cfg, ItemKind, Level, connectome};

fn weather() -> beam_mcp_build::Connectome {
    connectome("weather")
        .manifest_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/weather"))
        .crate_name("weather")
        .cfg(Cfg::new().name("unix"))
}

#[test]
fn declares_the_examples_catalog() {
    let declared = weather().scan().unwrap();
    assert_eq!(
        declared.keys(ItemKind::Tool),
        [
            "book_trip",
            "convert",
            "forecast",
            "get_weather",
            "reading",
            "reading_fahrenheit",
            "region_mean"
        ]
        .into()
    );
    assert_eq!(
        declared.keys(ItemKind::Resource),
        [
            "ui://weather/reading",
            "weather://icon.png",
            "weather://station/{place}",
            "weather://stations"
        ]
        .into()
    );
    assert_eq!(declared.keys(ItemKind::Prompt), ["plan_trip"].into());
    let functions: Vec<(&str, &str)> = declared
        .items
        .iter()
        .map(|i| (i.key.as_str(), i.function.as_str()))
        .collect();
    assert!(functions.contains(&("weather://station/{place}", "weather::resources::station")));
    assert!(functions.contains(&("get_weather", "weather::get_weather")));
    let sources: Vec<&str> = declared.bound.sources.iter().map(String::as_str).collect();
    assert_eq!(
        sources,
        ["src/main.rs", "src/prompts.rs", "src/resources.rs"]
    );
}

#[test]
fn tools_carry_their_hints_and_items_their_completers() {
    let declared = weather().level(Level::Mfa).scan().unwrap();
    let labels =
        |id: &str| serde_json::to_value(declared.graph.node(id).unwrap().labels()).unwrap();
    assert_eq!(
        labels("weather/tool/get_weather"),
        serde_json::json!({"read_only": true})
    );
    assert_eq!(
        labels("weather/tool/forecast"),
        serde_json::json!({"read_only": true, "idempotent": true})
    );
    assert_eq!(labels("weather/tool/book_trip"), serde_json::json!({}));
    let edges: Vec<(String, String)> = declared
        .graph
        .edges()
        .iter()
        .map(|e| (e.from.clone(), e.to.clone()))
        .collect();
    let completer = "weather/module/weather::resources/complete_place/1".to_owned();
    assert!(edges.contains(&("weather/prompt/plan_trip".to_owned(), completer.clone())));
    assert!(edges.contains(&(
        "weather/resource/weather:%2F%2Fstation%2F{place}".to_owned(),
        completer
    )));
}

/// The example's whole declared graph at `mfa`, pinned edge by edge (with each sink's
/// capability) in `tests/suite/weather.graph`; `BEAM_MCP_PIN=overwrite` rewrites the pin.
#[test]
fn the_examples_graph_is_pinned() {
    let declared = weather().level(Level::Mfa).scan().unwrap();
    let mut lines: Vec<String> = declared
        .graph
        .edges()
        .iter()
        .map(|e| {
            let capability = declared
                .graph
                .node(&e.to)
                .and_then(|n| n.labels().get("capability"))
                .and_then(|c| c.as_str())
                .map(|c| format!("  [{c}]"))
                .unwrap_or_default();
            format!("{} -> {}{capability}", e.from, e.to)
        })
        .collect();
    lines.sort();
    let text = lines.join("\n") + "\n";
    let pin = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/suite/weather.graph");
    if std::env::var("BEAM_MCP_PIN").as_deref() == Ok("overwrite") {
        std::fs::write(&pin, &text).unwrap();
    }
    let pinned = std::fs::read_to_string(&pin).unwrap_or_default();
    assert_eq!(
        text, pinned,
        "the weather graph moved: check the change, then BEAM_MCP_PIN=overwrite"
    );
}

/// What issue 29 asks of the example: `forecast` reaches `std::thread::sleep` (time), each
/// tool reaches its state's method, and the read-only tools pass the policy check.
#[test]
fn tools_reach_their_state_and_their_sinks() {
    let declared = weather().level(Level::Mfa).scan().unwrap();
    let reach = declared.reach();
    let forecast = reach.iter().find(|r| r.key == "forecast").unwrap();
    let time = &forecast.capabilities[&beam_mcp_build::Capability::Time];
    assert_eq!(
        time.to_string(),
        "tool forecast → weather::forecast → std::thread::sleep"
    );
    let reading = "weather/module/weather/Stations::reading/2".to_owned();
    for tool in [
        "get_weather",
        "forecast",
        "reading",
        "book_trip",
        "region_mean",
    ] {
        let function = declared
            .items
            .iter()
            .find(|i| i.key == tool)
            .unwrap()
            .function
            .rsplit("::")
            .next()
            .unwrap()
            .to_owned();
        let calls = declared.graph.edges().iter().any(|e| {
            e.from
                .starts_with(&format!("weather/module/weather/{function}/"))
                && e.to == reading
        });
        assert!(calls, "{tool} reads its station through Stations::reading");
    }
    declared
        .check(&beam_mcp_build::Policy::new())
        .expect("the example's annotations hold");
}
