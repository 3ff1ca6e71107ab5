use beam_mcp::Args;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Point {
    x: f64,
    y: f64,
}

/// Moves a point.
#[beam_mcp::tool]
fn shift(Args(p): Args<Point>, dx: f64) -> String {
    format!("{} {}", p.x + dx, p.y)
}

fn main() {}
