//! The contestant: the one-tool server written with beam-mcp as its README shows.
//! `beam_server --stdio` or `beam_server --http PORT`.

use beam_mcp::transport::http::{self, Http, Origins};

/// Read the current weather for a place.
#[beam_mcp::tool(read_only)]
async fn get_weather(
    /// A city name, e.g. "Paris".
    place: String,
) -> String {
    format!("{place}: 21C, clear")
}

/// The same, two seconds later: the lab's head-of-line probe (`load stdio-hol`).
#[beam_mcp::tool(read_only)]
async fn slow_weather(
    /// A city name, e.g. "Paris".
    place: String,
) -> String {
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    format!("{place}: 21C, clear (slowly)")
}

fn main() -> std::process::ExitCode {
    let builder = beam_mcp::Server::builder()
        .name("weather")
        .version("1.0.0")
        .crate_items(module_path!());
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["--stdio"] => beam_mcp::transport::stdio::main(builder),
        // Sessions (2025-11-25) are served on the same endpoint.
        ["--http" | "--http-sessions", port] => {
            http::main(&format!("127.0.0.1:{port}"), builder, |server| {
                Http::builder(server)
                    .authorize(|_| Ok(()))
                    .allowed_origins(Origins::Loopback)
            })
        }
        // A live catalog, so `subscriptions/listen` streams exist: the lab's memory per stream.
        ["--http-live", port] => {
            let (builder, catalog) = builder.live();
            let builder = builder.state(catalog);
            http::main(&format!("127.0.0.1:{port}"), builder, |server| {
                Http::builder(server)
                    .authorize(|_| Ok(()))
                    .allowed_origins(Origins::Loopback)
            })
        }
        _ => {
            eprintln!(
                "usage: beam_server --stdio | --http PORT | --http-sessions PORT | --http-live PORT"
            );
            std::process::ExitCode::from(2)
        }
    }
}
