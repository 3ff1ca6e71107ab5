//! `#[cfg]` and `#[cfg_attr]` with features on and off, and target options.

use crate::common;
use crate::common::{edges, entries, nodes, scan_of};
use beam_mcp_build::{Cfg, ItemKind, Level};

fn off() -> beam_mcp_build::Declared {
    scan_of("cfgs", Cfg::new(), Level::Mfa).scan().unwrap()
}

fn on() -> beam_mcp_build::Declared {
    let cfg = Cfg::new()
        .feature("fast")
        .name("unix")
        .value("target_os", "linux");
    scan_of("cfgs", cfg, Level::Mfa).scan().unwrap()
}

#[test]
fn without_the_feature_the_slow_way_is_read() {
    let declared = off();
    let sources: Vec<&str> = declared.bound.sources.iter().map(String::as_str).collect();
    assert_eq!(
        sources,
        ["src/chosen.rs", "src/gated.rs", "src/lib.rs", "src/slow.rs"]
    );
    assert!(
        edges(&declared)
            .contains(&"srv/module/cfgs/run/0 -> srv/module/cfgs::slow/go/0".to_owned())
    );
    assert!(
        edges(&declared)
            .contains(&"srv/module/cfgs/run/0 -> srv/module/cfgs::chosen/which/0".to_owned())
    );
    assert_eq!(declared.keys(ItemKind::Tool), ["run"].into());
    assert_eq!(
        entries(&declared, "cfg_cut"),
        [
            "cfgs::Engine::turbo #[cfg(feature = \"fast\")]",
            "cfgs::fast #[cfg(feature = \"fast\")]",
            "cfgs::gated #[cfg(feature = \"fast\")]",
            "cfgs::linux_only #[cfg(all(unix, target_os = \"linux\"))]",
            "cfgs::run: statement #[cfg(feature = \"fast\")]",
        ]
    );
}

#[test]
fn with_the_feature_the_fast_way_is_read() {
    let declared = on();
    let sources: Vec<&str> = declared.bound.sources.iter().map(String::as_str).collect();
    // `#[cfg_attr(feature = "fast", path = "alt.rs")] mod chosen;` reads alt.rs.
    assert_eq!(
        sources,
        ["src/alt.rs", "src/fast.rs", "src/gated.rs", "src/lib.rs"]
    );
    let edges = edges(&declared);
    assert!(edges.contains(&"srv/module/cfgs/run/0 -> srv/module/cfgs::fast/go/0".to_owned()));
    assert!(edges.contains(&"srv/module/cfgs/run/0 -> srv/module/cfgs::chosen/which/0".to_owned()));
    assert_eq!(declared.keys(ItemKind::Tool), ["maybe_tool", "run"].into());
    let nodes = nodes(&declared);
    for node in [
        "srv/module/cfgs/linux_only/0",
        "srv/module/cfgs/Engine::turbo/0",
        "srv/module/cfgs::gated/g/0",
    ] {
        assert!(nodes.contains(&node.to_owned()), "{node}");
    }
    assert_eq!(
        entries(&declared, "cfg_cut"),
        [
            "cfgs::run: statement #[cfg(not(feature = \"fast\"))]",
            "cfgs::slow #[cfg(not(feature = \"fast\"))]",
        ]
    );
}

#[test]
fn predicates_evaluate_like_rustc() {
    let cfg = Cfg::new()
        .name("unix")
        .value("target_feature", "sse2")
        .value("target_feature", "avx")
        .feature("my-feature");
    for (predicate, holds) in [
        ("unix", true),
        ("windows", false),
        ("test", false),
        ("true", true),
        ("false", false),
        ("all()", true),
        ("any()", false),
        (r#"target_feature = "avx""#, true),
        (r#"target_feature = "neon""#, false),
        (r#"feature = "my-feature""#, true),
        (r#"feature = "my_feature""#, true),
        (r#"not(any(windows, feature = "other"))"#, true),
        (r#"all(unix, not(target_os = "linux"))"#, true),
    ] {
        assert_eq!(cfg.holds(predicate).unwrap(), holds, "{predicate}");
    }
    assert!(cfg.holds("unix, windows").is_err());
    assert!(cfg.holds(r#"version("1.80")"#).is_err());
    assert!(cfg.holds("not(unix, windows)").is_err());
}

/// A parameter `#[cfg]` cuts is not counted in the arity (it used to be: `f/2` without the
/// feature), and is listed.
#[test]
fn a_parameter_cut_by_cfg_is_not_counted() {
    let lib = r#"
#[beam_mcp::tool]
fn f(#[cfg(feature = "x")] a: u8, b: u8) {
    S.m(1);
}
pub struct S;
impl S {
    pub fn m(&self, #[cfg_attr(feature = "x", cfg(any()))] c: u8) {}
}
pub trait T {
    fn t(#[cfg(not(feature = "x"))] d: u8) {}
}
"#;
    let dir = common::temp_crate("params", &[("src/lib.rs", lib)]);
    let scan = |cfg: Cfg| common::scan_dir(&dir, "p").cfg(cfg).scan().unwrap();
    let off = scan(Cfg::new());
    let functions = |declared: &beam_mcp_build::Declared| -> Vec<String> {
        nodes(declared)
            .into_iter()
            .filter(|id| id.starts_with("srv/module/"))
            .collect()
    };
    assert_eq!(
        functions(&off),
        [
            "srv/module/p/S::m/2",
            "srv/module/p/T::t/1",
            "srv/module/p/f/1",
        ]
    );
    assert_eq!(
        entries(&off, "cfg_cut"),
        ["p::f: parameter a #[cfg(feature = \"x\")]"]
    );
    let on = scan(Cfg::new().feature("x"));
    assert_eq!(
        functions(&on),
        [
            "srv/module/p/S::m/1",
            "srv/module/p/T::t/0",
            "srv/module/p/f/2",
        ]
    );
    assert_eq!(
        entries(&on, "cfg_cut"),
        [
            "p::S::m: parameter c #[cfg(any())]",
            "p::T::t: parameter d #[cfg(not(feature = \"x\"))]",
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
