//! A tool name, prompt name or resource URI declared twice anywhere in the crate: both places
//! named, and nothing written.

use crate::common::scan_of;
use beam_mcp_build::{Cfg, Duplicate, ItemKind, Level, Place, ScanError};

fn place(file: &str, line: usize, written: &str) -> Place {
    Place {
        file: file.into(),
        line,
        written: written.into(),
    }
}

#[test]
fn each_duplicate_names_both_places() {
    let error = scan_of("dups", Cfg::new(), Level::Mfa).scan().unwrap_err();
    let ScanError::Duplicates(duplicates) = error else {
        panic!("{error}");
    };
    assert_eq!(
        duplicates,
        [
            Duplicate {
                kind: ItemKind::Tool,
                first: place("src/main.rs", 5, "echo"),
                second: place("src/more.rs", 2, "echo"),
            },
            Duplicate {
                kind: ItemKind::Prompt,
                first: place("src/main.rs", 8, "greet"),
                second: place("src/more.rs", 7, "greet"),
            },
            Duplicate {
                kind: ItemKind::Resource,
                first: place("src/main.rs", 12, "app://notes"),
                second: place("src/more.rs", 10, "app://notes"),
            },
            Duplicate {
                kind: ItemKind::Resource,
                first: place("src/main.rs", 16, "app://notes/{id}"),
                second: place("src/more.rs", 14, "app://notes/{name}"),
            },
        ]
    );
}

#[test]
fn duplicates_are_cargo_errors_in_plain_words_and_nothing_is_written() {
    let out_dir = std::env::temp_dir().join(format!("beam-mcp-build-dups-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    // A graph from an earlier, good build does not survive a failed one.
    std::fs::write(out_dir.join("connectome.json"), b"stale").unwrap();
    let mut printed = Vec::new();
    let written = scan_of("dups", Cfg::new(), Level::Mfa)
        .emit_into(&out_dir, &mut printed)
        .unwrap();
    assert!(!written);
    let printed = String::from_utf8(printed).unwrap();
    let errors: Vec<&str> = printed
        .lines()
        .filter_map(|l| l.strip_prefix("cargo::error="))
        .collect();
    assert_eq!(
        errors,
        [
            r#"tool name "echo" is declared twice, at src/main.rs:5 and at src/more.rs:2: rename one"#,
            r#"prompt name "greet" is declared twice, at src/main.rs:8 and at src/more.rs:7: rename one"#,
            r#"resource URI "app://notes" is declared twice, at src/main.rs:12 and at src/more.rs:10: rename one"#,
            r#"resource templates "app://notes/{id}" at src/main.rs:16 and "app://notes/{name}" at src/more.rs:14 match the same URIs: change one"#,
        ]
    );
    assert_eq!(std::fs::read_dir(&out_dir).unwrap().count(), 0);
    std::fs::remove_dir_all(&out_dir).unwrap();
}
