//! Struct parameters: nested structs as plain parameters, and the whole argument object as
//! one `Args<T>`.

#[path = "common/mod.rs"]
mod common;

use beam_mcp::Args;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

/// A point on the plane.
#[derive(Deserialize, JsonSchema)]
struct Point {
    /// Horizontal.
    x: f64,
    /// Vertical.
    y: f64,
}

/// A segment between two points, nested one level further.
#[derive(Deserialize, JsonSchema)]
struct Segment {
    from: Point,
    to: Point,
    label: Option<String>,
}

/// Measures a segment, given as a struct parameter beside a plain one.
#[beam_mcp::tool]
fn measure(segment: Segment, unit: String) -> String {
    let (dx, dy) = (segment.to.x - segment.from.x, segment.to.y - segment.from.y);
    let label = segment.label.unwrap_or_default();
    format!("{label}{} {unit}", (dx * dx + dy * dy).sqrt())
}

/// The arguments of `shift`, as one struct.
#[derive(Deserialize, JsonSchema)]
struct Shift {
    /// Where from.
    point: Point,
    /// How far along x.
    dx: f64,
    /// How many times.
    times: Option<u32>,
}

/// Shifts a point; the whole argument object is one `Args<T>`.
#[beam_mcp::tool]
fn shift(Args(shift): Args<Shift>) -> String {
    let times = f64::from(shift.times.unwrap_or(1));
    format!("{} {}", shift.point.x + shift.dx * times, shift.point.y)
}

fn main() {
    let server = common::server();
    let text = |name: &str, arguments| {
        let result = common::call(&server, name, arguments);
        assert_eq!(result["isError"], false, "{result}");
        common::text(&result["content"][0]).to_owned()
    };
    let segment = json!({ "from": { "x": 0, "y": 0 }, "to": { "x": 3, "y": 4 }, "label": "d=" });
    assert_eq!(
        text("measure", json!({ "segment": segment, "unit": "m" })),
        "d=5 m"
    );
    assert_eq!(
        text(
            "shift",
            json!({ "point": { "x": 1, "y": 2 }, "dx": 0.5, "times": 4 })
        ),
        "3 2"
    );
    assert_eq!(
        text("shift", json!({ "point": { "x": 1, "y": 2 }, "dx": 0.5 })),
        "1.5 2"
    );

    // The schemas describe the nested structs; Args<T> is the input schema itself.
    let measure = common::tool(&server, "measure");
    let schema = measure["inputSchema"].to_string();
    assert!(
        schema.contains("\"from\"") && schema.contains("\"to\""),
        "{schema}"
    );
    let mut required = measure["inputSchema"]["required"].clone();
    required
        .as_array_mut()
        .expect("required")
        .sort_by_key(|v| v.to_string());
    assert_eq!(required, json!(["segment", "unit"]));
    let shift = common::tool(&server, "shift");
    assert_eq!(
        shift["inputSchema"]["properties"]["dx"]["description"],
        "How far along x."
    );

    // Arguments that do not fit the schema are refused before the function runs.
    let wrong = common::response(
        &server,
        "tools/call",
        json!({ "name": "shift", "arguments": { "point": { "x": "one", "y": 2 }, "dx": 1 } }),
    );
    let refused = wrong.get("error").is_some() || wrong["result"]["isError"] == true;
    assert!(refused, "{wrong}");
}
