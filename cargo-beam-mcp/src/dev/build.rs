//! One build of the crate: `cargo build` into the dev front's own target folder, the
//! executable it made, or the compiler's errors.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// What a build gave.
pub(crate) enum Built {
    /// The executable.
    Binary(PathBuf),
    /// Why not: the compiler's errors as cargo renders them.
    Failed(String),
}

/// Builds the crate at `manifest` into `target` (its `bin` when named), with cargo's
/// diagnostics rendered as text and its artifacts read from JSON.
pub(crate) async fn build(manifest: &Path, target: &Path, bin: Option<&str>) -> Built {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = tokio::process::Command::new(cargo);
    command
        .arg("build")
        .arg("--manifest-path")
        .arg(manifest)
        .args(["--message-format", "json-render-diagnostics"])
        .env("CARGO_TARGET_DIR", target)
        .stdin(std::process::Stdio::null());
    if let Some(bin) = bin {
        command.args(["--bin", bin]);
    }
    let output = match command.output().await {
        Ok(output) => output,
        Err(e) => return Built::Failed(format!("cannot run cargo: {e}")),
    };
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    if !output.status.success() {
        return Built::Failed(stderr);
    }
    let executables: Vec<PathBuf> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact")
        .filter(|m| {
            m["target"]["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|k| k == "bin"))
        })
        .filter_map(|m| m["executable"].as_str().map(PathBuf::from))
        .collect();
    match executables.as_slice() {
        [one] => Built::Binary(one.clone()),
        [] => Built::Failed("the crate has no binary to serve".into()),
        _ => Built::Failed(format!(
            "the crate has {} binaries: name one with --bin",
            executables.len()
        )),
    }
}
