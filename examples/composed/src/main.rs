//! One server composed of two catalogs that both declare `search`: the `notes` catalog (a tool,
//! a resource, a template and a prompt with completions) and the `files` catalog, each mounted
//! under its own name (`notes_search`, `files_search`, `notes://notes/today`, `notes_summary`),
//! beside the server's own `hello`. The names were checked for clashes at compile time (a named
//! catalog is unique under the name it is mounted by).
//!
//! `composed` serves stdio; `composed --http 127.0.0.1:8080` serves Streamable HTTP at `/mcp`
//! (loopback origins, no authentication: an example).

mod files;
mod notes;

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

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => beam_mcp::transport::stdio::main(builder()),
        [flag, bind] if flag == "--http" => {
            beam_mcp::transport::http::main(bind, builder(), |server| {
                beam_mcp::transport::http::Http::builder(server)
                    .authorize(|_| Ok(()))
                    .allowed_origins(beam_mcp::transport::http::Origins::Loopback)
            })
        }
        _ => {
            eprintln!(
                "usage: composed            (stdio)\n       composed --http ADDR  (Streamable HTTP at http://ADDR/mcp)"
            );
            std::process::ExitCode::from(2)
        }
    }
}
