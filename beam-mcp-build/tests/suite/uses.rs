//! Resolution through `use`: renames, groups with `self`, `super`, `crate`, `self::`,
//! re-exports, globs of modules and enums, `use` inside a body, and shadowing by locals.

use crate::common::{edges, entries, scan};

fn f(module: &str, name: &str) -> String {
    format!("srv/module/{module}/{name}/0")
}

#[test]
fn calls_resolve_through_use_items() {
    let declared = scan("uses");
    let calls = f("uses", "calls");
    let main = f("uses", "main");
    let via_glob = f("uses::api::globbed", "via_glob");
    let inner = f("uses::util::deep", "inner");
    let mut expected = vec![
        format!("{calls} -> {}", f("uses::util", "helper")),
        format!("{calls} -> {}", f("uses::util", "helper2")),
        format!("{calls} -> {inner}"),
        format!("{calls} -> {via_glob}"),
        format!("{main} -> {}", f("uses", "shadowed")),
        format!("{main} -> srv/boundary/std/std::process::exit"),
        format!("{main} -> {}", f("uses::api", "leaf")),
        format!("{via_glob} -> {}", f("uses::api", "leaf")),
        format!("{via_glob} -> {}", f("uses::api::globbed", "Kind::make")),
        format!("{via_glob} -> {}", f("uses::api::globbed", "variant")),
        format!("{inner} -> {}", f("uses::api", "leaf")),
        format!("{inner} -> {}", f("uses::util", "helper")),
        "srv/prompt/calls -> srv/module/uses/calls/0".to_owned(),
        "srv/server -> srv/prompt/calls".to_owned(),
    ];
    expected.sort();
    assert_eq!(edges(&declared), expected);
}

#[test]
fn a_renamed_import_of_another_crate_is_a_boundary_node_by_its_real_path() {
    let declared = scan("uses");
    let node = declared
        .graph
        .node("srv/boundary/std/std::process::exit")
        .expect("the callee's node");
    assert_eq!(node.level(), beam_mcp_build::Level::Boundary);
    assert!(entries(&declared, "external_callees").is_empty());
}

#[test]
fn a_parameter_shadows_the_crates_function() {
    let declared = scan("uses");
    assert_eq!(
        entries(&declared, "indirect_calls"),
        ["uses::with_param -> shadowed"]
    );
}

#[test]
fn a_glob_from_another_crate_makes_unknown_names_ambiguous() {
    let declared = scan("uses");
    assert_eq!(
        entries(&declared, "ambiguous_paths"),
        [
            "uses::api::foreign::unknown -> anything",
            "uses::api::foreign::unknown -> std::process::exit",
        ]
    );
    assert!(declared.bound.unresolved_paths.is_empty());
}
