//! `connectome`: checks a graph file's digest, diffs two graph files, and renders a graph as
//! DOT or GraphML. Every graph file is canonical bytes (`docs/connectome-canonical.md`).
//!
//! ```text
//! connectome verify FILE [--digest HEX]        schema version, algorithm and digest; exit 1 on a mismatch
//! connectome diff DECLARED OBSERVED --window JSON [--algorithm sha256|sha384|sha512]
//! connectome dot FILE                          DOT on stdout (render: | dot -Tsvg > graph.svg)
//! connectome graphml FILE                      GraphML on stdout
//! ```

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
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("connectome: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<String, String> {
    let (command, rest) = args.split_first().ok_or(USAGE)?;
    let (files, options) = split(rest)?;
    match (command.as_str(), files.as_slice()) {
        ("verify", [file]) => {
            let bytes = read(file)?;
            let verified = match option(&options, "--digest")? {
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
            let window = option(&options, "--window")?
                .ok_or("diff needs --window '{\"started_at\": .., \"ended_at\": ..}'")?;
            let window: serde_json::Value =
                serde_json::from_str(window).map_err(|e| format!("--window: {e}"))?;
            let algorithm = match option(&options, "--algorithm")? {
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

/// Positional arguments, and `--name value` pairs (each name once).
fn split(args: &[String]) -> Result<(Vec<&str>, Options<'_>), String> {
    let (mut files, mut options) = (Vec::new(), Vec::<(&str, &str)>::new());
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg.starts_with("--") {
            let value = args.next().ok_or_else(|| format!("{arg} needs a value"))?;
            if options.iter().any(|(name, _)| name == arg) {
                return Err(format!("{arg} is given twice"));
            }
            options.push((arg, value));
        } else {
            files.push(arg.as_str());
        }
    }
    Ok((files, options))
}

fn option<'a>(options: &[(&str, &'a str)], name: &str) -> Result<Option<&'a str>, String> {
    const KNOWN: [&str; 3] = ["--digest", "--window", "--algorithm"];
    if let Some((unknown, _)) = options.iter().find(|(n, _)| !KNOWN.contains(n)) {
        return Err(format!("unknown option {unknown}\n{USAGE}"));
    }
    Ok(options.iter().find(|(n, _)| *n == name).map(|(_, v)| *v))
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
