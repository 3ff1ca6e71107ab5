use beam_mcp::State;

struct Stations(Vec<String>);

/// How many stations we know.
#[beam_mcp::tool]
fn station_count(State(stations): State<Stations>) -> String {
    stations.0.len().to_string()
}

fn main() {}
