//! The module tree: `foo.rs` beside a non-`mod.rs` file's directory, `foo/mod.rs`, `#[path]`
//! (outside and inside inline modules), inline modules; and the errors a tree can have.

use crate::common::{edges, fixture, nodes, scan, scan_of};
use beam_mcp_build::{Cfg, Level, ScanError};

#[test]
fn every_kind_of_module_file_is_found() {
    let declared = scan("tree");
    let sources: Vec<&str> = declared.bound.sources.iter().map(String::as_str).collect();
    assert_eq!(
        sources,
        [
            "src/a.rs",
            "src/a/b.rs",
            "src/a/inl/x.rs",
            "src/c/d.rs",
            "src/c/mod.rs",
            "src/elsewhere/e_file.rs",
            "src/elsewhere/f.rs",
            "src/inline/h.rs",
            "src/lib.rs",
        ]
    );
    assert_eq!(declared.sources.len(), 9);
    assert!(
        declared
            .sources
            .iter()
            .all(|s| s.is_absolute() || s.starts_with(fixture("tree")))
    );
}

#[test]
fn calls_resolve_through_the_tree() {
    let declared = scan("tree");
    let f = |module: &str, name: &str| format!("srv/module/{module}/{name}/0");
    let root = f("tree", "root_tool");
    let mut expected = vec![
        format!("{root} -> {}", f("tree::a::b", "helper")),
        format!("{root} -> {}", f("tree::a::inl::x", "helper")),
        format!("{root} -> {}", f("tree::c::d", "helper")),
        format!("{root} -> {}", f("tree::e::f", "helper")),
        format!("{root} -> {}", f("tree::inline::deep", "g")),
        format!("{root} -> {}", f("tree::inline::h", "helper")),
        // `super::super::c::d::helper()` from tree::a::b.
        format!(
            "{} -> {}",
            f("tree::a::b", "helper"),
            f("tree::c::d", "helper")
        ),
        "srv/server -> srv/tool/root_tool".to_owned(),
        format!("srv/tool/root_tool -> {root}"),
    ];
    expected.sort();
    assert_eq!(edges(&declared), expected);
    assert!(declared.bound.unresolved_paths.is_empty());
}

#[test]
fn every_module_is_a_node_at_module_level() {
    let declared = scan_of("tree", Cfg::new(), Level::Module).scan().unwrap();
    let modules: Vec<String> = nodes(&declared)
        .into_iter()
        .filter_map(|id| id.strip_prefix("srv/module/").map(str::to_owned))
        .collect();
    assert_eq!(
        modules,
        [
            "tree",
            "tree::a",
            "tree::a::b",
            "tree::a::inl",
            "tree::a::inl::x",
            "tree::c",
            "tree::c::d",
            "tree::e",
            "tree::e::f",
            "tree::inline",
            "tree::inline::deep",
            "tree::inline::h",
        ]
    );
}

#[test]
fn a_missing_module_file_names_the_declaration_and_both_candidates() {
    let error = scan_of("missing", Cfg::new(), Level::Mfa)
        .scan()
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "src/lib.rs:2: no file for `mod absent;` (looked for src/absent.rs and src/absent/mod.rs)"
    );
}

#[test]
fn two_files_for_one_module_are_refused() {
    let error = scan_of("twofiles", Cfg::new(), Level::Mfa)
        .scan()
        .unwrap_err();
    assert!(
        matches!(error, ScanError::ModuleAmbiguous { line: 1, .. }),
        "{error}"
    );
    assert_eq!(
        error.to_string(),
        "src/lib.rs:1: `mod m;` has two files, src/m.rs and src/m/mod.rs; remove one"
    );
}

#[test]
fn a_path_loop_is_refused() {
    let error = scan_of("cycle", Cfg::new(), Level::Mfa).scan().unwrap_err();
    assert_eq!(
        error.to_string(),
        "src/lib.rs:2: `mod again;` loads src/lib.rs, which holds it already"
    );
}

#[test]
fn a_syntax_error_names_file_line_and_column() {
    let error = scan_of("broken", Cfg::new(), Level::Mfa)
        .scan()
        .unwrap_err();
    let ScanError::Syntax {
        file, line, column, ..
    } = &error
    else {
        panic!("{error}");
    };
    assert_eq!((file.to_str(), *line, *column), (Some("src/lib.rs"), 5, 10));
    assert!(
        error.to_string().starts_with("src/lib.rs:5:10: "),
        "{error}"
    );
}

#[test]
fn a_malformed_cfg_names_its_line() {
    let error = scan_of("badcfg", Cfg::new(), Level::Mfa)
        .scan()
        .unwrap_err();
    assert!(
        matches!(error, ScanError::Attribute { line: 4, .. }),
        "{error}"
    );
    assert!(error.to_string().starts_with("src/lib.rs:4: "), "{error}");
}

#[test]
fn a_crate_without_root_is_refused() {
    let error = beam_mcp_build::connectome("srv")
        .manifest_dir(fixture("tree").join("src"))
        .crate_name("tree")
        .cfg(Cfg::new())
        .scan()
        .unwrap_err();
    assert!(matches!(error, ScanError::NoRoot { .. }), "{error}");
}

/// A `#[path]` leaving the package is recorded relative to it, with `..`: the bound's bytes
/// are the same on every machine (it used to be the file's absolute path).
#[test]
fn a_file_outside_the_package_is_recorded_relative_to_it() {
    let dir = fixture("outside").join("pkg");
    let declared = beam_mcp_build::connectome("srv")
        .manifest_dir(&dir)
        .crate_name("pkg")
        .cfg(Cfg::new())
        .level(Level::Mfa)
        .scan()
        .unwrap();
    let sources: Vec<&str> = declared.bound.sources.iter().map(String::as_str).collect();
    assert_eq!(sources, ["../shared/common.rs", "src/lib.rs"]);
    let bound = serde_json::to_string(&declared.bound.to_json()).unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(!bound.contains(root.to_str().unwrap()), "{bound}");
    // The same scan from a manifest directory written with `..` records the same.
    let roundabout = beam_mcp_build::connectome("srv")
        .manifest_dir(dir.join("src/.."))
        .crate_name("pkg")
        .cfg(Cfg::new())
        .scan()
        .unwrap();
    assert_eq!(roundabout.bound.sources, declared.bound.sources);
    let item = &declared.items[0];
    assert_eq!(item.place.to_string(), "../shared/common.rs:3");
}
