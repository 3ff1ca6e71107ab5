//! What a build script prints and writes: `cargo::rerun-if-changed` for every file read, the
//! canonical graph, its digest and the bound under `OUT_DIR`.

mod common;

use beam_mcp_build::{Algorithm, Cfg, Level};
use beam_mcp_connectome::canonical::{encode_value, hash_hex};
use common::{fixture, scan_of};

fn out_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("beam-mcp-build-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn reruns(printed: &str) -> Vec<String> {
    let mut files: Vec<String> = printed
        .lines()
        .filter_map(|l| l.strip_prefix("cargo::rerun-if-changed="))
        .map(str::to_owned)
        .collect();
    files.sort();
    files
}

#[test]
fn every_file_read_is_a_rerun_and_the_three_files_are_written() {
    let dir = out_dir("emit");
    let scan = scan_of("tree", Cfg::new(), Level::Mfa);
    let mut printed = Vec::new();
    assert!(scan.emit_into(&dir, &mut printed).unwrap());
    let printed = String::from_utf8(printed).unwrap();
    let declared = scan.scan().unwrap();
    let root = fixture("tree");
    let mut expected: Vec<String> = declared
        .bound
        .sources
        .iter()
        .map(|s| root.join(s).display().to_string())
        .collect();
    expected.sort();
    assert_eq!(expected.len(), 9);
    assert_eq!(reruns(&printed), expected);
    assert!(!printed.contains("cargo::error"));

    let graph = std::fs::read(dir.join("connectome.json")).unwrap();
    assert_eq!(graph, declared.canonical(Algorithm::Sha256).unwrap());
    let digest = std::fs::read_to_string(dir.join("connectome.json.sha256")).unwrap();
    assert_eq!(digest, hash_hex(&graph, Algorithm::Sha256));
    assert_eq!(digest.len(), 64);
    let bound = std::fs::read(dir.join("connectome-bound.json")).unwrap();
    assert_eq!(bound, encode_value(&declared.bound.to_json()).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_digest_file_is_named_by_its_algorithm() {
    let dir = out_dir("sha512");
    let scan = scan_of("levels", Cfg::new(), Level::Module).algorithm(Algorithm::Sha512);
    assert!(scan.emit_into(&dir, &mut Vec::new()).unwrap());
    let graph = std::fs::read(dir.join("connectome.json")).unwrap();
    assert!(graph.starts_with(br#"{"schema_version":3,"algorithm":"sha512""#));
    let digest = std::fs::read_to_string(dir.join("connectome.json.sha512")).unwrap();
    assert_eq!(digest, hash_hex(&graph, Algorithm::Sha512));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_failed_scan_still_reruns_on_the_files_it_read_and_tried() {
    let dir = out_dir("missing");
    let mut printed = Vec::new();
    let written = scan_of("missing", Cfg::new(), Level::Mfa)
        .emit_into(&dir, &mut printed)
        .unwrap();
    assert!(!written);
    let printed = String::from_utf8(printed).unwrap();
    let root = fixture("missing");
    let mut expected: Vec<String> = [
        "src/lib.rs",
        "src/present.rs",
        "src/absent.rs",
        "src/absent/mod.rs",
    ]
    .iter()
    .map(|s| root.join(s).display().to_string())
    .collect();
    expected.sort();
    assert_eq!(reruns(&printed), expected);
    assert!(printed.contains(
        "cargo::error=src/lib.rs:2: no file for `mod absent;` (looked for src/absent.rs and src/absent/mod.rs)"
    ));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_same_sources_give_the_same_bytes() {
    let scan = scan_of("uses", Cfg::new(), Level::Mfa);
    let once = scan.scan().unwrap().canonical(Algorithm::Sha256).unwrap();
    let twice = scan.scan().unwrap().canonical(Algorithm::Sha256).unwrap();
    assert_eq!(once, twice);
}
