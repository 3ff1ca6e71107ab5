//! One server composed of two catalogs that both declare `search`: the `notes` catalog (a tool,
//! a resource, a template and a prompt with completions) and the `files` catalog, each mounted
//! under its own name (`notes_search`, `files_search`, `notes://notes/today`, `notes_summary`),
//! beside the server's own `hello`. The names were checked for clashes at compile time (a named
//! catalog is unique under the name it is mounted by).
//!
//! With `--remote NAME -- COMMAND ARGS..`, another MCP server's process is proxied under `NAME`
//! too (its `get_weather` served as `NAME_get_weather`), over whichever transport this one
//! serves: a stdio-only server becomes reachable over HTTP.
//!
//! `composed` serves stdio; `composed --http 127.0.0.1:8080` serves Streamable HTTP at `/mcp`
//! (loopback origins, no authentication: an example).

mod files;
mod notes;

use beam_mcp::proxy::Remote;
use beam_mcp::transport::http::{Http, Origins};

/// Greets whoever calls.
#[beam_mcp::tool(read_only)]
fn hello() -> String {
    "hello from the composed server".into()
}

fn builder() -> beam_mcp::ServerBuilder {
    beam_mcp::Server::builder()
        .name("composed")
        .version(env!("CARGO_PKG_VERSION"))
        .crate_items(module_path!())
        .mount_crate_catalogs(module_path!())
}

const USAGE: &str = "usage: composed [--http ADDR] [--remote NAME -- COMMAND ARGS..]\n  stdio by default; --http serves Streamable HTTP at http://ADDR/mcp";

/// What the command line asked for.
struct Options {
    http: Option<String>,
    remote: Option<(String, Vec<String>)>,
}

fn options() -> Option<Options> {
    let mut args = std::env::args().skip(1);
    let mut options = Options {
        http: None,
        remote: None,
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--http" => options.http = Some(args.next()?),
            "--remote" => {
                let name = args.next()?;
                (args.next()? == "--").then_some(())?;
                let command: Vec<String> = args.by_ref().collect();
                (!command.is_empty()).then_some(())?;
                options.remote = Some((name, command));
            }
            _ => return None,
        }
    }
    Some(options)
}

/// Connects the remote (its stderr passed through to ours) and builds the server.
async fn build(remote: Option<(String, Vec<String>)>) -> Result<beam_mcp::Server, String> {
    let mut builder = builder();
    if let Some((name, command)) = remote {
        let remote = Remote::connect(&name, move |client| {
            let mut process = tokio::process::Command::new(&command[0]);
            process.args(&command[1..]);
            Box::pin(client.on_stderr(|line| eprintln!("{line}")).stdio(process))
        })
        .await
        .map_err(|e| e.to_string())?;
        builder = builder.mount_remote(remote);
    }
    builder.build().map_err(|e| e.to_string())
}

async fn serve(options: Options) -> Result<(), String> {
    let server = build(options.remote).await?;
    match options.http {
        None => {
            let serving =
                beam_mcp::transport::stdio::serve(server, tokio::io::stdin(), tokio::io::stdout());
            tokio::spawn(serving).await.map_err(|e| e.to_string())?
        }
        Some(bind) => {
            let http = Http::builder(server)
                .authorize(|_| Ok(()))
                .allowed_origins(Origins::Loopback)
                .build()
                .map_err(|e| e.to_string())?;
            let listener = tokio::net::TcpListener::bind(&bind)
                .await
                .map_err(|e| format!("cannot bind {bind}: {e}"))?;
            // The line `beam_mcp::transport::http::main` writes, which scripts wait for.
            let addr = listener.local_addr().map_err(|e| e.to_string())?;
            // In one write, as the library's: a reader never sees the line in part.
            let line = format!("beam_mcp: listening on http://{addr}/mcp\n");
            let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
            // SIGTERM (a supervisor) or SIGINT (ctrl-c): drained, then the remote's process ends.
            let stop = async {
                let mut term =
                    tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
                let terminated = async {
                    match term.as_mut() {
                        Some(term) => drop(term.recv().await),
                        None => std::future::pending().await,
                    }
                };
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    () = terminated => {}
                }
            };
            beam_mcp::transport::http::serve_until(listener, http, stop).await
        }
    }
    .map_err(|e| e.to_string())
}

fn main() -> std::process::ExitCode {
    let Some(options) = options() else {
        eprintln!("{USAGE}");
        return std::process::ExitCode::from(2);
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("composed: no runtime: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(serve(options));
    runtime.shutdown_background();
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("composed: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
