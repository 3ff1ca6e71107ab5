//! Policy from the declared graph: a `read_only` tool that writes a file through two levels of
//! method calls is refused by name and path; without the write it passes; scopes mapped to
//! capabilities, the non-destructive rule and a host's own sink.

use crate::common::{fixture, scan, scan_dir, temp_crate};
use beam_mcp_build::{Capability, Effect, Policy, Rule};

/// The fixture's source with `from` replaced by `to`, scanned from a temporary copy.
fn variant(test: &str, from: &str, to: &str) -> beam_mcp_build::Declared {
    let lib = std::fs::read_to_string(fixture("policy").join("src/lib.rs")).unwrap();
    assert!(lib.contains(from), "the fixture holds {from:?}");
    let lib = lib.replace(from, to);
    let dir = temp_crate(test, &[("src/lib.rs", &lib)]);
    let declared = scan_dir(&dir, "policy").scan().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    declared
}

#[test]
fn a_read_only_tool_that_writes_through_two_method_calls_is_refused_with_its_path() {
    let declared = scan("policy");
    let refused = declared.check(&Policy::new()).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "tool `save` is annotated read_only but reaches fs-write: tool save → policy::save → \
         policy::Store::put → policy::Disk::write → std::fs::write"
    );
    let [violation] = refused.0.as_slice() else {
        panic!("one violation: {refused}");
    };
    assert_eq!(violation.rule, Rule::ReadOnly);
    assert_eq!(violation.capability, Capability::FsWrite);
    assert_eq!(
        violation.witness.nodes,
        [
            "srv/tool/save",
            "srv/module/policy/save/2",
            "srv/module/policy/Store::put/3",
            "srv/module/policy/Disk::write/3",
            "srv/boundary/std/std::fs::write",
        ]
    );
}

#[test]
fn without_the_write_the_same_tools_pass() {
    let declared = variant(
        "policy-no-write",
        "std::fs::write(self.root.join(name), text)",
        "Ok(drop((name, text)))",
    );
    declared.check(&Policy::new()).unwrap();
    // `find` still reads, which a read-only tool may.
    let reach = declared.reach();
    let find = reach.iter().find(|r| r.key == "find").unwrap();
    assert_eq!(
        find.capabilities.keys().collect::<Vec<_>>(),
        [&Capability::FsRead]
    );
}

#[test]
fn each_item_reaches_what_its_code_calls() {
    let declared = scan("policy");
    let reach = declared.reach();
    let of = |key: &str| -> Vec<String> {
        let item = reach.iter().find(|r| r.key == key).unwrap();
        item.capabilities.keys().map(ToString::to_string).collect()
    };
    assert_eq!(of("save"), ["fs-write"]);
    assert_eq!(of("find"), ["fs-read"]);
    assert_eq!(of("purge"), ["fs-delete"]);
}

#[test]
fn scopes_must_cover_the_capabilities_the_host_maps() {
    let declared = variant(
        "policy-scopes",
        "std::fs::write(self.root.join(name), text)",
        "Ok(drop((name, text)))",
    );
    // `purge` deletes and declares notes:admin: it passes.
    let policy = Policy::new().scope(Capability::FsDelete, "notes:admin");
    declared.check(&policy).unwrap();
    // Reading needs notes:read, which `find` lacks.
    let policy = policy.scope(Capability::FsRead, "notes:read");
    let refused = declared.check(&policy).unwrap_err();
    let [violation] = refused.0.as_slice() else {
        panic!("one violation: {refused}");
    };
    assert_eq!(violation.key, "find");
    assert_eq!(violation.rule, Rule::Scope("notes:read".to_owned()));
    assert_eq!(
        refused.to_string(),
        "tool `find` does not declare the scope \"notes:read\" but reaches fs-read: tool find → \
         policy::find → policy::Store::get → policy::Disk::read → std::fs::read_to_string"
    );
}

#[test]
fn a_tool_annotated_non_destructive_may_not_reach_a_delete() {
    let declared = variant(
        "policy-non-destructive",
        "#[beam_mcp::tool(destructive, scopes",
        "#[beam_mcp::tool(destructive = false, scopes",
    );
    let refused = declared.check(&Policy::new()).unwrap_err();
    let rules: Vec<(&str, &Rule)> = refused
        .0
        .iter()
        .map(|v| (v.key.as_str(), &v.rule))
        .collect();
    assert_eq!(
        rules,
        [("save", &Rule::ReadOnly), ("purge", &Rule::NonDestructive)]
    );
}

#[test]
fn a_hosts_own_sink_counts_as_declared() {
    let lib = "use store::Db;\n\
               pub struct Notes { db: Db }\n\
               impl Notes {\n    fn add(&self, text: &str) { self.db.insert(text); }\n}\n\
               #[beam_mcp::tool(read_only)]\n\
               fn note(notes: &Notes, text: String) { notes.add(&text); }\n";
    let dir = temp_crate("policy-host-sink", &[("src/lib.rs", lib)]);
    let scan = scan_dir(&dir, "host");
    // Unlabelled, the database's method is just another crate's function.
    scan.clone().scan().unwrap().check(&Policy::new()).unwrap();
    let declared = scan
        .sink(
            "store::Db::insert",
            Capability::host("db-write", Effect::Write),
        )
        .scan()
        .unwrap();
    let refused = declared.check(&Policy::new()).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "tool `note` is annotated read_only but reaches db-write: tool note → host::note → \
         host::Notes::add → store::Db::insert"
    );
    let node = declared
        .graph
        .node("srv/boundary/store/store::Db::insert")
        .unwrap();
    assert_eq!(node.labels()["capability"], "db-write");
    assert_eq!(node.labels()["effect"], "write");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_hosts_sink_named_as_a_builtin_capability_is_refused() {
    let refused = crate::common::scan_of(
        "policy",
        beam_mcp_build::Cfg::new(),
        beam_mcp_build::Level::Mfa,
    )
    .sink(
        "store::Db::insert",
        Capability::host("fs-write", Effect::Read),
    )
    .scan()
    .unwrap_err();
    assert!(
        matches!(&refused, beam_mcp_build::ScanError::SinkName { name, .. } if name == "fs-write"),
        "{refused}"
    );
}
