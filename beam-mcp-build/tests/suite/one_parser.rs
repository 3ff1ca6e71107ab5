//! The scan reads `#[tool]`, `#[resource]` and `#[prompt]` with the macros' own parser: for
//! every compile-fail case of the trybuild suite whose error comes from the attribute, the scan
//! refuses the same file with the same words, at the same column.

use std::path::PathBuf;

use beam_mcp_build::{Cfg, ScanError, connectome};

const CASES: &[&str] = &[
    "prompt_completer_given_twice",
    "resource_unknown_option",
    "resource_without_uri",
    "tool_hint_not_a_bool",
    "tool_option_twice",
    "tool_requires_unknown_capability",
    "tool_scope_not_a_token",
    "tool_tag_twice",
    "tool_tags_not_a_list",
    "tool_task_unknown",
    "tool_time_limit_zero",
    "tool_unknown_option",
];

#[test]
fn attribute_errors_match_the_macros_stderr() {
    let trybuild = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../trybuild");
    for case in CASES {
        let stderr =
            std::fs::read_to_string(trybuild.join(format!("cases/fail/{case}.stderr"))).unwrap();
        let mut lines = stderr.lines();
        let message = lines.next().unwrap().strip_prefix("error: ").unwrap();
        // The caret under the source line gives the column rustc points at.
        let source = lines
            .clone()
            .find(|l| l.starts_with("  | ") && l.contains('#'))
            .unwrap();
        let caret = lines.find(|l| l.contains('^')).unwrap();
        let column = caret.find('^').unwrap() - "  | ".len() + 1;
        let error = connectome("srv")
            .manifest_dir(&trybuild)
            .root(format!("cases/fail/{case}.rs"))
            .crate_name("case")
            .cfg(Cfg::new())
            .scan()
            .unwrap_err();
        let ScanError::ItemAttribute {
            message: scanned,
            column: scanned_column,
            line,
            ..
        } = &error
        else {
            panic!("{case}: {error}");
        };
        assert_eq!(scanned, message, "{case}");
        assert_eq!(*scanned_column, column, "{case}: {source}");
        let text = std::fs::read_to_string(trybuild.join(format!("cases/fail/{case}.rs"))).unwrap();
        let source_line = text.lines().nth(line - 1).unwrap();
        assert_eq!(format!("  | {source_line}"), source, "{case}");
    }
}
