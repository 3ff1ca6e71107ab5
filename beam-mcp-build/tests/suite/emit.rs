//! What a build script prints and writes: `cargo::rerun-if-changed` for every file read, the
//! canonical graph, its digest and the bound under `OUT_DIR`.

use crate::common;
use crate::common::{fixture, scan_of};
use beam_mcp_build::{Algorithm, Cfg, Level, ScanError};
use beam_mcp_connectome::canonical::{encode_value, hash_hex};

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

/// `#[path]` with a line break used to be printed raw after `cargo::rerun-if-changed=`, so a
/// source could give cargo an instruction of its own.
#[test]
fn a_path_with_a_line_break_is_refused_before_anything_is_printed() {
    let lib = "//! Injection.\n#[path = \"x\\ncargo::rustc-cfg=evil\"]\nmod x;\n";
    let dir = common::temp_crate("inject", &[("src/lib.rs", lib)]);
    let error = common::scan_dir(&dir, "i").scan().unwrap_err();
    assert!(
        matches!(&error, ScanError::Attribute { line: 2, .. }),
        "{error}"
    );
    assert!(
        error.to_string().starts_with("src/lib.rs:2: #[path = "),
        "{error}"
    );
    let out = out_dir("inject-out");
    let mut printed = Vec::new();
    let written = common::scan_dir(&dir, "i")
        .emit_into(&out, &mut printed)
        .unwrap();
    assert!(!written);
    let printed = String::from_utf8(printed).unwrap();
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines.len(), 2, "{printed}");
    assert_eq!(
        lines[0],
        format!(
            "cargo::rerun-if-changed={}",
            dir.join("src/lib.rs").display()
        )
    );
    assert!(
        lines[1].starts_with("cargo::error=src/lib.rs:2: "),
        "{printed}"
    );
    assert!(!printed.contains("\ncargo::rustc-cfg"), "{printed}");
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&out).unwrap();
}

/// A package whose path is not UTF-8, or holds a line break, used to have its files printed
/// lossily (naming other files) or raw.
#[cfg(unix)]
#[test]
fn an_unprintable_package_path_is_refused_before_anything_is_printed() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    let parent = common::temp_crate("unprintable", &[]);
    for name in [
        OsStr::from_bytes(b"pkg-\xff"),
        OsStr::new("pkg\ncargo::rustc-cfg=evil"),
    ] {
        let dir = parent.join(name);
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("src/lib.rs"), "#[beam_mcp::tool]\nfn t() {}\n").unwrap();
        let error = common::scan_dir(&dir, "u").scan().unwrap_err();
        assert!(
            matches!(error, ScanError::UnprintablePath { .. }),
            "{error}"
        );
        let out = out_dir("unprintable-out");
        let mut printed = Vec::new();
        let written = common::scan_dir(&dir, "u")
            .emit_into(&out, &mut printed)
            .unwrap();
        assert!(!written);
        let printed = String::from_utf8(printed).unwrap();
        assert_eq!(printed.lines().count(), 1, "{printed}");
        assert!(printed.starts_with("cargo::error="), "{printed}");
        assert!(
            printed.contains("is not UTF-8 or holds a line break"),
            "{printed}"
        );
        std::fs::remove_dir_all(&out).unwrap();
    }
    std::fs::remove_dir_all(&parent).unwrap();
}
