//! `connectome`: checks a graph file's digest, diffs two graph files, and renders a graph as
//! DOT or GraphML. Every graph file is canonical bytes (`docs/connectome-canonical.md`).
//!
//! ```text
//! connectome verify FILE [--digest HEX]        schema version, algorithm and digest; exit 1 on a mismatch
//! connectome diff DECLARED OBSERVED --window JSON [--algorithm sha256|sha384|sha512]
//! connectome dot FILE                          DOT on stdout (render: | dot -Tsvg > graph.svg)
//! connectome graphml FILE                      GraphML on stdout
//! ```
//!
//! Each subcommand takes only its own options (`verify`: `--digest`; `diff`: `--window`,
//! `--algorithm`; `dot`, `graphml`: none); any other option is refused, naming it and the
//! subcommand. A reader that stops early (`connectome dot big.json | head -1`) ends the
//! command quietly with exit status 0.

use std::io::{ErrorKind, Write};
use std::process::ExitCode;

use beam_mcp_connectome::{Algorithm, Graph, canonical, diff, to_dot, to_graphml};

const USAGE: &str = "usage:
  connectome verify FILE [--digest HEX]
  connectome diff DECLARED OBSERVED --window JSON [--algorithm sha256|sha384|sha512]
  connectome dot FILE
  connectome graphml FILE";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(out) => {
            let mut stdout = std::io::stdout().lock();
            match stdout
                .write_all(out.as_bytes())
                .and_then(|()| stdout.flush())
            {
                // The reader has what it wanted (`| head`): that is no failure.
                Err(e) if e.kind() == ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => fail(&format!("writing stdout: {e}")),
                Ok(()) => ExitCode::SUCCESS,
            }
        }
        Err(message) => fail(&message),
    }
}

/// Says why on stderr (if stderr is still there) and fails.
fn fail(message: &str) -> ExitCode {
    let _ = writeln!(std::io::stderr().lock(), "connectome: {message}");
    ExitCode::FAILURE
}

/// The options each subcommand takes; any other is refused.
fn options_of(command: &str) -> Option<&'static [&'static str]> {
    match command {
        "verify" => Some(&["--digest"]),
        "diff" => Some(&["--window", "--algorithm"]),
        "dot" | "graphml" => Some(&[]),
        _ => None,
    }
}

fn run(args: &[String]) -> Result<String, String> {
    let (command, rest) = args.split_first().ok_or(USAGE)?;
    let allowed = options_of(command).ok_or(USAGE)?;
    let (files, options) = split(command, allowed, rest)?;
    match (command.as_str(), files.as_slice()) {
        ("verify", [file]) => {
            let bytes = read(file)?;
            let verified = match option(&options, "--digest") {
                Some(hex) => canonical::verify_digest(&bytes, hex),
                None => canonical::verify(&bytes),
            }
            .map_err(|e| format!("{file}: {e}"))?;
            Ok(format!(
                "schema_version {}\n{} {}\n",
                verified.schema_version,
                verified.algorithm.as_str(),
                verified.digest_hex
            ))
        }
        ("diff", [declared, observed]) => {
            let window = option(&options, "--window")
                .ok_or("diff needs --window '{\"started_at\": .., \"ended_at\": ..}'")?;
            let window: serde_json::Value =
                serde_json::from_str(window).map_err(|e| format!("--window: {e}"))?;
            let algorithm = match option(&options, "--algorithm") {
                Some(name) => Algorithm::parse(name)
                    .ok_or_else(|| format!("--algorithm {name:?}: sha256, sha384 or sha512"))?,
                None => Algorithm::default(),
            };
            let record =
                diff(&graph(declared)?, &graph(observed)?, &window).map_err(|e| e.to_string())?;
            let canonical = record.canonical(algorithm).map_err(|e| e.to_string())?;
            let text = String::from_utf8(canonical.into_bytes()).map_err(|e| e.to_string())?;
            Ok(format!("{text}\n"))
        }
        ("dot", [file]) => Ok(to_dot(&graph(file)?)),
        ("graphml", [file]) => to_graphml(&graph(file)?).map_err(|e| format!("{file}: {e}")),
        _ => Err(USAGE.into()),
    }
}

/// `--name value` pairs.
type Options<'a> = Vec<(&'a str, &'a str)>;

/// Positional arguments, and `--name value` pairs: each name one that `command` takes
/// (checked before its value is looked for), and given once.
fn split<'a>(
    command: &str,
    allowed: &[&str],
    args: &'a [String],
) -> Result<(Vec<&'a str>, Options<'a>), String> {
    let (mut files, mut options) = (Vec::new(), Options::new());
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if !arg.starts_with("--") {
            files.push(arg.as_str());
            continue;
        }
        if !allowed.contains(&arg.as_str()) {
            let takes = match allowed {
                [] => "takes no option".to_owned(),
                [one] => format!("takes only {one}"),
                many => format!("takes only {}", many.join(" and ")),
            };
            return Err(format!(
                "`{command}` does not take {arg} (`{command}` {takes})\n{USAGE}"
            ));
        }
        let value = args.next().ok_or_else(|| format!("{arg} needs a value"))?;
        if options.iter().any(|(name, _)| name == arg) {
            return Err(format!("{arg} is given twice"));
        }
        options.push((arg, value));
    }
    Ok((files, options))
}

fn option<'a>(options: &[(&str, &'a str)], name: &str) -> Option<&'a str> {
    options.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

fn read(file: &str) -> Result<Vec<u8>, String> {
    std::fs::read(file).map_err(|e| format!("{file}: {e}"))
}

/// A version-3 graph file, read strictly (canonical bytes only).
fn graph(file: &str) -> Result<Graph, String> {
    let bytes = read(file)?;
    canonical::parse(&bytes)
        .map(|(graph, _)| graph)
        .map_err(|e| format!("{file}: {e}"))
}
