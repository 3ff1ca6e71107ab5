//! Shared by the tests: a fixture crate scanned with an explicit configuration.

#![allow(dead_code, unreachable_pub)]

use std::path::PathBuf;

use beam_mcp_build::{Cfg, Connectome, Declared, Level, connectome};

/// The directory of fixture `name`.
pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// A crate written under a fresh temporary directory for test `test`: each `(path, text)`, the
/// paths relative to the directory returned.
pub fn temp_crate(test: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("beam-mcp-build-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let file = dir.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    dir
}

/// A scan of the crate in `dir`, named `name`, at `mfa`, nothing configured.
pub fn scan_dir(dir: &std::path::Path, name: &str) -> Connectome {
    connectome("srv")
        .manifest_dir(dir)
        .crate_name(name)
        .cfg(Cfg::new())
        .level(Level::Mfa)
}

/// A scan of fixture `name` (its crate named the same), for server `srv`.
pub fn scan_of(name: &str, cfg: Cfg, level: Level) -> Connectome {
    connectome("srv")
        .manifest_dir(fixture(name))
        .crate_name(name)
        .cfg(cfg)
        .level(level)
}

/// The declared connectome of fixture `name` at `mfa`, nothing configured.
pub fn scan(name: &str) -> Declared {
    scan_of(name, Cfg::new(), Level::Mfa)
        .scan()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The graph's edges as `from -> to`, sorted.
pub fn edges(declared: &Declared) -> Vec<String> {
    let mut edges: Vec<String> = declared
        .graph
        .edges()
        .iter()
        .map(|e| format!("{} -> {}", e.from, e.to))
        .collect();
    edges.sort();
    edges
}

/// The graph's node ids, sorted.
pub fn nodes(declared: &Declared) -> Vec<String> {
    let mut nodes: Vec<String> = declared
        .graph
        .nodes()
        .iter()
        .map(|n| n.id().to_owned())
        .collect();
    nodes.sort();
    nodes
}

/// A bound category's entries.
pub fn entries(declared: &Declared, category: &str) -> Vec<String> {
    declared
        .bound
        .categories()
        .into_iter()
        .find(|(name, _)| *name == category)
        .map(|(_, entries)| entries.iter().cloned().collect())
        .unwrap_or_else(|| panic!("no category {category}"))
}
