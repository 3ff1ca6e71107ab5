//! `cargo test` in a host's crate names every tool whose schema `build()` would refuse, with
//! the Rust types it came from, before any server starts: `#[tool]` emits a `#[cfg(test)]`
//! check per tool. The host is `tests/schema-check-host`, a crate of its own with one refused
//! tool (a pattern with lookahead) and one sound one.

use std::path::Path;
use std::process::Command;

#[test]
fn a_hosts_cargo_test_names_a_refused_schema() {
    let root = beam_mcp_tests::workspace_root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(&root)
        .args(["test", "--manifest-path"])
        .arg(root.join("tests/schema-check-host/Cargo.toml"));
    // The target dir this test was built in, so the host's build shares its dependencies.
    if std::env::var_os("CARGO_TARGET_DIR").is_none()
        && let Some(target) = std::env::current_exe()
            .ok()
            .and_then(|exe| exe.ancestors().nth(3).map(Path::to_path_buf))
    {
        command.arg("--target-dir").arg(target);
    }
    let output = command.output().expect("cargo runs");
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        !output.status.success(),
        "the host's cargo test must fail:\n{all}"
    );
    assert!(
        all.contains(
            "tool \"lookup\" (code: Code, -> String) would be refused at build(): the schema, \
             property code, property value: pattern \"^(?=[A-Z])[A-Z0-9]+$\" uses lookahead"
        ),
        "{all}"
    );
    assert!(all.contains("fix: change the type"), "{all}");
    // Exactly the refused tool fails; the sound one's check passes.
    assert!(
        all.contains("test result: FAILED. 1 passed; 1 failed"),
        "{all}"
    );
    assert!(all.contains("__beam_mcp_schema_check_lookup"), "{all}");
}
