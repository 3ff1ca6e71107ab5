//! Runs every case under `cases/`: each `fail/*.rs` must fail to compile with exactly its
//! checked-in `.stderr`; each `pass/*.rs` must compile and its `main` must succeed.
//!
//! Regenerate a `.stderr` with `TRYBUILD=overwrite cargo test -p beam-mcp-trybuild`, then
//! review the diff.

use std::process::Command;

/// The release the `.stderr` files were blessed with: another words its notes differently, so
/// the cases are compared under this one only (`rust-toolchain.toml` picks its channel).
const BLESSED_WITH: &str = "rustc 1.95.0 ";

#[test]
fn cases() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let version = Command::new(&rustc)
        .arg("--version")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
        .unwrap_or_else(|e| panic!("`{rustc} --version` did not run: {e}"));
    assert!(
        version.starts_with(BLESSED_WITH),
        "the .stderr files are blessed with {}; this toolchain is {}: run the cases under that \
         release, or bless them again with TRYBUILD=overwrite and review the diff",
        BLESSED_WITH.trim_end(),
        version.trim_end(),
    );
    let t = trybuild::TestCases::new();
    t.compile_fail(concat!(env!("CARGO_MANIFEST_DIR"), "/cases/fail/*.rs"));
    t.pass(concat!(env!("CARGO_MANIFEST_DIR"), "/cases/pass/*.rs"));
}
