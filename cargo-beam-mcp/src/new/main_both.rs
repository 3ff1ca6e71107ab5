
use beam_mcp::transport::http::{Http, Origins, Refusal};

/// stdio by default; `--http ADDR` serves Streamable HTTP at `http://ADDR/mcp`, to callers with
/// the bearer token in `@TOKEN_VAR@`.
fn main() -> std::process::ExitCode {
    let builder = beam_mcp::Server::builder()
        .name(env!("CARGO_PKG_NAME"))
        .version(env!("CARGO_PKG_VERSION"))
        .crate_items(module_path!());
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => beam_mcp::transport::stdio::main(builder),
        [flag, bind] if flag == "--http" => beam_mcp::transport::http::main(bind, builder, |server| {
            Http::builder(server)
                .authorize(|parts| {
                    let expected = std::env::var("@TOKEN_VAR@")
                        .map_err(|_| Refusal::new("no @TOKEN_VAR@ set"))?;
                    match parts.headers.get("authorization").and_then(|v| v.to_str().ok()) {
                        Some(given) if given.strip_prefix("Bearer ") == Some(expected.as_str()) => Ok(()),
                        _ => Err(Refusal::unauthorized(
                            "missing or wrong bearer token",
                            r#"Bearer realm="@NAME@""#,
                        )),
                    }
                })
                .allowed_origins(Origins::Loopback)
        }),
        _ => {
            eprintln!("usage: @NAME@             (stdio)\n       @NAME@ --http ADDR (Streamable HTTP at http://ADDR/mcp)");
            std::process::ExitCode::from(2)
        }
    }
}
