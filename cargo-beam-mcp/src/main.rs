//! `cargo beam-mcp`: the command line of beam-mcp.
//!
//! - `dev` serves the crate over stdio behind a front that rebuilds it on each save;
//! - `new NAME` makes a crate that builds and answers;
//! - `inspect TARGET` prints what a server advertises (or, with `--json`, its canonical export);
//! - `call TARGET TOOL [JSON]` calls one tool and exits non-zero when it fails;
//! - `install HOST` writes the server's entry into a host's configuration;
//! - `diff OLD NEW` classifies every change between two surfaces as breaking, additive or
//!   cosmetic, per protocol revision;
//! - `card` writes a Server Card (SEP-2127) from a running server.
//!
//! A TARGET is an `http://` or `https://` endpoint, or a command that serves MCP over stdio
//! (one argument, split as a shell splits words, or everything after `--`).

mod call;
mod card;
mod cli;
mod dev;
mod diff;
mod inspect;
mod install;
mod new;
mod target;

use std::process::ExitCode;

use cli::{Command, Usage};

fn main() -> ExitCode {
    // `cargo beam-mcp ...` runs `cargo-beam-mcp beam-mcp ...`.
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "beam-mcp") {
        args.remove(0);
    }
    let command = match cli::parse(&args) {
        Ok(command) => command,
        Err(Usage::Help(text)) => {
            println!("{text}");
            return ExitCode::SUCCESS;
        }
        Err(Usage::Wrong(why)) => {
            eprintln!("cargo beam-mcp: {why}\n\n{}", cli::USAGE);
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("cargo beam-mcp: cannot start a runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Each subcommand's future on the heap: the client's futures are large in a debug build,
    // and `diff` holds two, more than a main thread's stack.
    let outcome = runtime.block_on(async {
        match command {
            Command::Dev(options) => Box::pin(dev::run(options)).await,
            Command::New(options) => new::run(options),
            Command::Inspect(options) => Box::pin(inspect::run(options)).await,
            Command::Call(options) => Box::pin(call::run(options)).await,
            Command::Install(options) => install::run(options),
            Command::Diff(options) => Box::pin(diff::run(options)).await,
            Command::Card(options) => Box::pin(card::run(options)).await,
        }
    });
    match outcome {
        Ok(code) => code,
        Err(why) => {
            eprintln!("cargo beam-mcp: {why}");
            ExitCode::FAILURE
        }
    }
}
