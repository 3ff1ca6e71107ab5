//! Why a measurement could not be made; each error names what failed.

use std::path::PathBuf;

/// Why [`measure`](crate::measure) or [`scan_only`](crate::scan_only) gave no report.
///
/// ```
/// let error = beam_mcp_truth::TruthError::NoIr { krate: "weather".into(), dir: "/t/debug/deps".into() };
/// assert_eq!(error.to_string(), "no LLVM IR (weather-*.ll) under /t/debug/deps after the build");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TruthError {
    /// The command line is not one the tool takes.
    #[error("{0}")]
    Usage(String),
    /// A program (cargo, rustc) could not be started.
    #[error("cannot run {program}: {message}")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        message: String,
    },
    /// A cargo or rustc command failed; what it printed on stderr (its last lines).
    #[error("`{command}` failed ({status}):\n{stderr}")]
    Command {
        /// The command, as run.
        command: String,
        /// Its exit status.
        status: String,
        /// The end of its standard error.
        stderr: String,
    },
    /// `cargo metadata` said something the tool cannot use.
    #[error("cargo metadata: {0}")]
    Metadata(String),
    /// The build ran, but no `.ll` file of the crate is where it should be.
    #[error("no LLVM IR ({krate}-*.ll) under {} after the build", .dir.display())]
    NoIr {
        /// The crate's name.
        krate: String,
        /// The directory searched.
        dir: PathBuf,
    },
    /// A file could not be read.
    #[error("cannot read {}: {message}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// The scanner refused the crate.
    #[error("the scan failed: {0}")]
    Scan(#[from] beam_mcp_build::ScanError),
}
