//! `new NAME`: a crate that builds and answers, as `docs/guide.md` writes one: a `hello` tool
//! served over stdio, Streamable HTTP with a bearer token, or both from one binary; a test
//! that runs the built server through beam-mcp's client at both revisions; and the pinned
//! catalog export, written here so the first `cargo test` passes.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use beam_mcp::protocol::Revision;
use beam_mcp::{Advertised, Server};

/// What `new` was asked.
pub(crate) struct Options {
    pub(crate) name: String,
    pub(crate) flavor: Flavor,
    /// Where the new crate is made (`./NAME` by default).
    pub(crate) path: Option<PathBuf>,
    /// The path dependency on beam-mcp, as the new crate's `Cargo.toml` writes it.
    pub(crate) beam_mcp: String,
}

// The tool the crate starts with: the same source compiled here, so the export pinned below is
// the one the new crate's own test lists.
include!("hello.rs");

/// How the new server is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flavor {
    Stdio,
    Http,
    Both,
}

pub(crate) fn run(options: Options) -> Result<ExitCode, String> {
    let name = options.name.as_str();
    if !valid_name(name) {
        return Err(format!(
            "{name:?} is no crate name: letters, digits, '-' and '_', starting with a letter"
        ));
    }
    let dir = options.path.clone().unwrap_or_else(|| PathBuf::from(name));
    if dir.exists() {
        return Err(format!("{} exists already", dir.display()));
    }
    let files = files(name, options.flavor, &options.beam_mcp)?;
    for (path, text) in &files {
        let path = dir.join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    // In rustfmt's layout, which depends on the name's length: `cargo fmt --check` passes as
    // made. Without rustfmt installed the files stay as written.
    let sources: Vec<PathBuf> = ["src/main.rs", "tests/server.rs"]
        .iter()
        .map(|p| dir.join(p))
        .collect();
    let _ = std::process::Command::new("rustfmt")
        .args(["--edition", "2024"])
        .args(&sources)
        .status();
    println!("created {} ({} files)", dir.display(), files.len());
    println!("next: cd {} && cargo test", dir.display());
    Ok(ExitCode::SUCCESS)
}

/// `[A-Za-z][A-Za-z0-9_-]*`, as cargo takes a package name.
fn valid_name(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The new crate's files, by path within it.
fn files(name: &str, flavor: Flavor, beam_mcp: &str) -> Result<Vec<(PathBuf, String)>, String> {
    let upper = name.to_ascii_uppercase().replace('-', "_");
    // How the test starts the server on a free port: the flag of a binary serving both, the
    // variable of one serving HTTP alone.
    let serve_args = match flavor {
        Flavor::Both => ".args([\"--http\", \"127.0.0.1:0\"])".to_owned(),
        _ => format!(".env(\"{upper}_BIND\", \"127.0.0.1:0\")"),
    };
    let fill = |text: &str| {
        text.replace("@NAME@", name)
            .replace("@TOKEN_VAR@", &format!("{upper}_TOKEN"))
            .replace("@BIND_VAR@", &format!("{upper}_BIND"))
            .replace("@SERVE_ARGS@", &serve_args)
    };
    let features = match flavor {
        Flavor::Stdio => String::new(),
        Flavor::Http | Flavor::Both => ", features = [\"http\"]".into(),
    };
    let beam = Path::new(beam_mcp).display().to_string();
    let beam = beam.replace('\\', "/");
    let cargo = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\nbeam-mcp = {{ path = \"{beam}\"{features} }}\nserde = {{ version = \"1\", features = [\"derive\"] }}\nschemars = \"1\"\n\n\
         [dev-dependencies]\n# The test runs the built server through beam-mcp's own client.\n\
         beam-mcp = {{ path = \"{beam}\", features = [\"client-http\"] }}\nserde_json = \"1\"\n\
         tokio = {{ version = \"1\", features = [\"macros\", \"rt\", \"process\"] }}\n"
    );
    let main = match flavor {
        Flavor::Stdio => include_str!("main_stdio.rs"),
        Flavor::Http => include_str!("main_http.rs"),
        Flavor::Both => include_str!("main_both.rs"),
    };
    let main = format!(
        "//! {name}: an MCP server made with beam-mcp.\n\n{}{}",
        include_str!("hello.rs"),
        fill(main)
    );
    let test = match flavor {
        Flavor::Stdio => include_str!("tests_stdio.rs"),
        Flavor::Http | Flavor::Both => include_str!("tests_http.rs"),
    };
    let mut files = vec![
        (PathBuf::from("Cargo.toml"), cargo),
        (PathBuf::from("src/main.rs"), main),
        (PathBuf::from("tests/server.rs"), fill(test)),
        (PathBuf::from(".gitignore"), "/target\n".to_owned()),
    ];
    for (revision, bytes) in pinned_exports()? {
        files.push((PathBuf::from(format!("advertised/{revision}.json")), bytes));
    }
    Ok(files)
}

/// The catalog export of the starting crate at each revision: `hello` alone.
fn pinned_exports() -> Result<Vec<(Revision, String)>, String> {
    let server = Server::builder()
        .tool(hello::DEF)
        .build()
        .map_err(|e| format!("the starting catalog: {e}"))?;
    server
        .revisions()
        .iter()
        .map(|&revision| {
            let export = Advertised::of(&server, revision).map_err(|e| e.to_string())?;
            let text = String::from_utf8(export.bytes().to_vec()).map_err(|e| e.to_string())?;
            Ok((revision, text))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crate_name_is_what_cargo_takes() {
        assert!(valid_name("notes"));
        assert!(valid_name("my-server_2"));
        for bad in ["", "2x", "-x", "a b", "a/b", "../x"] {
            assert!(!valid_name(bad), "{bad}");
        }
    }

    #[test]
    fn every_flavor_writes_its_files_with_the_names_filled_in() {
        for flavor in [Flavor::Stdio, Flavor::Http, Flavor::Both] {
            let files = files("my-notes", flavor, "../beam-mcp/beam-mcp").unwrap();
            let paths: Vec<String> = files.iter().map(|(p, _)| p.display().to_string()).collect();
            assert_eq!(
                paths,
                [
                    "Cargo.toml",
                    "src/main.rs",
                    "tests/server.rs",
                    ".gitignore",
                    "advertised/2026-07-28.json",
                    "advertised/2025-11-25.json"
                ]
            );
            for (path, text) in &files {
                for hole in ["@NAME@", "@TOKEN_VAR@", "@BIND_VAR@", "@SERVE_ARGS@"] {
                    assert!(!text.contains(hole), "{hole} in {}", path.display());
                }
            }
            let main = &files[1].1;
            assert!(main.contains("fn hello("));
            if flavor != Flavor::Stdio {
                assert!(main.contains("MY_NOTES_TOKEN"), "{main}");
            }
        }
    }
}
