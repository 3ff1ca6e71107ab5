use beam_mcp::Args;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Point {
    x: f64,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Offset {
    dx: f64,
}

/// Moves a point.
#[beam_mcp::tool]
fn shift(Args(p): Args<Point>, Args(o): Args<Offset>) -> String {
    format!("{}", p.x + o.dx)
}

fn main() {}
