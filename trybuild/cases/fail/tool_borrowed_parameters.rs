// A tool argument is read into an owned value and an extractor is handed over by value: each
// borrowed parameter is one short error naming the type to take (rustc alone gives dozens of
// lines about lifetimes and `Deserialize<'de>` per parameter).

use beam_mcp::{Context, State};

#[derive(Clone)]
struct Stations;

/// Greets someone.
#[beam_mcp::tool]
fn greet(
    name: &str,
    nicknames: Option<Vec<&str>>,
    pair: (&str, &[u8]),
    ctx: &Context,
    stations: &State<Stations>,
) -> String {
    let _ = (nicknames, pair, ctx, stations);
    name.to_owned()
}

fn main() {}
