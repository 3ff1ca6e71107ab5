use beam_mcp::Args;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Input {
    place: String,
}

// Four faults, reported in one build: the name, the missing description, a destructured
// argument, and plain parameters beside Args<T>.
#[beam_mcp::tool(name = "get weather")]
fn get_weather((lat, lon): (f64, f64), unit: String, Args(input): Args<Input>) -> String {
    format!("{lat} {lon} {unit} {}", input.place)
}

fn main() {}
