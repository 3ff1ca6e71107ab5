//! What the CLI's e2e tests share: where the workspace and the built binaries are.

use std::path::{Path, PathBuf};

/// The workspace's root.
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The target folder this test's binaries are in: the crates `new` makes build there, so their
/// dependencies are built once.
pub(crate) fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_cargo-beam-mcp"))
        .ancestors()
        .nth(2)
        .unwrap()
        .to_path_buf()
}
