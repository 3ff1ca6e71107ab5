//! One crate at the three code levels: functions, modules, the crate. Coarser levels drop
//! self-loops; recursion stays at `mfa`.

use crate::common::{edges, nodes, scan_of};
use beam_mcp_build::{Cfg, Level};

fn at(level: Level) -> beam_mcp_build::Declared {
    scan_of("levels", Cfg::new(), level).scan().unwrap()
}

#[test]
fn mfa_has_a_node_per_function_and_keeps_recursion() {
    let declared = at(Level::Mfa);
    assert_eq!(
        nodes(&declared),
        [
            "srv/module/levels/entry/0",
            "srv/module/levels/local/0",
            "srv/module/levels::other/remote/0",
            "srv/module/levels::other/sibling/0",
            "srv/server",
            "srv/tool/entry",
        ]
    );
    assert_eq!(
        edges(&declared),
        [
            "srv/module/levels/entry/0 -> srv/module/levels/local/0",
            "srv/module/levels/entry/0 -> srv/module/levels::other/remote/0",
            "srv/module/levels/local/0 -> srv/module/levels/local/0",
            "srv/module/levels::other/remote/0 -> srv/module/levels::other/sibling/0",
            "srv/server -> srv/tool/entry",
            "srv/tool/entry -> srv/module/levels/entry/0",
        ]
    );
}

#[test]
fn module_level_drops_calls_within_a_module() {
    let declared = at(Level::Module);
    assert_eq!(
        nodes(&declared),
        [
            "srv/module/levels",
            "srv/module/levels::other",
            "srv/server",
            "srv/tool/entry"
        ]
    );
    assert_eq!(
        edges(&declared),
        [
            "srv/module/levels -> srv/module/levels::other",
            "srv/server -> srv/tool/entry",
            "srv/tool/entry -> srv/module/levels",
        ]
    );
}

#[test]
fn boundary_level_is_the_crate_alone() {
    let declared = at(Level::Boundary);
    assert_eq!(
        nodes(&declared),
        ["srv/boundary/crate/levels", "srv/server", "srv/tool/entry"]
    );
    assert_eq!(
        edges(&declared),
        [
            "srv/server -> srv/tool/entry",
            "srv/tool/entry -> srv/boundary/crate/levels"
        ]
    );
}

#[test]
fn tool_labels_are_the_hints_that_are_set() {
    let declared = at(Level::Module);
    let tool = declared.graph.node("srv/tool/entry").unwrap();
    let labels = serde_json::to_value(tool.labels()).unwrap();
    assert_eq!(
        labels,
        serde_json::json!({"read_only": true, "destructive": false})
    );
}

#[test]
fn the_server_level_is_refused() {
    let error = scan_of("levels", Cfg::new(), Level::Server)
        .scan()
        .unwrap_err();
    assert!(
        matches!(error, beam_mcp_build::ScanError::Level { .. }),
        "{error}"
    );
}
