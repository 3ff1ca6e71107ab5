//! `beam-mcp-truth`: the declared connectome measured against the compiler's call graph.
//!
//! ```text
//! beam-mcp-truth measure --manifest-dir DIR [--crate NAME] [--root src/lib.rs|src/main.rs]
//!                        [--bin NAME] [--features a,b] [--no-default-features]
//!                        [--workspace-dir DIR] [--json]
//! beam-mcp-truth scan    (the same options): the scan alone, timed
//! ```
//!
//! Exit status: 0 with a report, 1 when the build, the scan or the comparison failed, 2 for
//! a command line it does not take.

use std::path::PathBuf;
use std::process::ExitCode;

use beam_mcp_truth::{Target, TruthError};

const USAGE: &str = "usage:
  beam-mcp-truth measure --manifest-dir DIR [--crate NAME] [--root PATH] [--bin NAME]
                         [--features a,b] [--no-default-features] [--workspace-dir DIR] [--json]
  beam-mcp-truth scan    (the same options): the scan alone, timed";

/// What the command line asks for.
struct Command {
    measure: bool,
    json: bool,
    target: Target,
}

fn parse(args: &[String]) -> Result<Command, TruthError> {
    let usage = |why: &str| TruthError::Usage(format!("{why}\n{USAGE}"));
    let (verb, rest) = args.split_first().ok_or_else(|| usage("no command"))?;
    let measure = match verb.as_str() {
        "measure" => true,
        "scan" => false,
        "-h" | "--help" | "help" => return Err(TruthError::Usage(USAGE.to_owned())),
        other => return Err(usage(&format!("unknown command `{other}`"))),
    };
    let mut target = Target::default();
    let mut manifest_dir = None;
    let mut json = false;
    let mut rest = rest.iter();
    while let Some(flag) = rest.next() {
        match flag.as_str() {
            "--json" => {
                json = true;
                continue;
            }
            "--no-default-features" => {
                target.no_default_features = true;
                continue;
            }
            _ => {}
        }
        let value = rest
            .next()
            .ok_or_else(|| usage(&format!("{flag} takes a value")))?
            .clone();
        match flag.as_str() {
            "--manifest-dir" => manifest_dir = Some(PathBuf::from(value)),
            "--crate" => target.crate_name = Some(value),
            "--root" => target.root = Some(PathBuf::from(value)),
            "--bin" => target.bin = Some(value),
            "--features" => {
                target.features = value
                    .split([',', ' '])
                    .filter(|f| !f.is_empty())
                    .map(str::to_owned)
                    .collect();
            }
            "--workspace-dir" => target.workspace_dir = Some(PathBuf::from(value)),
            other => return Err(usage(&format!("unknown option `{other}`"))),
        }
    }
    target.manifest_dir = manifest_dir.ok_or_else(|| usage("--manifest-dir is required"))?;
    Ok(Command {
        measure,
        json,
        target,
    })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = match parse(&args) {
        Ok(command) => command,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::from(2);
        }
    };
    let printed = if command.measure {
        beam_mcp_truth::measure(&command.target).map(|report| {
            if command.json {
                format!("{:#}", report.to_json())
            } else {
                report.text()
            }
        })
    } else {
        beam_mcp_truth::scan_only(&command.target).map(|stats| {
            if command.json {
                format!("{:#}", stats.to_json())
            } else {
                format!("scan: {}", stats.line())
            }
        })
    };
    match printed {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(TruthError::Usage(message)) => {
            eprintln!("beam-mcp-truth: {message}");
            ExitCode::from(2)
        }
        Err(error) => {
            eprintln!("beam-mcp-truth: {error}");
            ExitCode::FAILURE
        }
    }
}
