//! The `connectome` command, run as a process: digests checked, two files diffed, a graph
//! rendered; every refusal on stderr with a failing exit status.

use std::io::Read;
use std::process::{Command, Stdio};

use beam_mcp_connectome::canonical::encode;
use beam_mcp_connectome::{Algorithm, Edge, EdgeKind, Graph, Identity, Labels, Node, Provenance};

const V3: &str = r#"{"schema_version":3,"algorithm":"sha256","nodes":[{"id":"s/server","kind":"server","labels":{},"level":"server"},{"id":"s/tool/t","kind":"tool","labels":{"mode":"read_only"},"level":"server"}],"edges":[{"from":"s/server","kind":"invoke","provenance":"declared","sign":"unset","to":"s/tool/t"}]}"#;
const V2: &str = r#"{"schema_version":2,"nodes":[{"id":"s/server","kind":"server","labels":{},"level":"server"},{"id":"s/tool/t","kind":"tool","labels":{"mode":"read_only"},"level":"server"}],"edges":[{"from":"s/server","kind":"invoke","provenance":"declared","sign":"unset","to":"s/tool/t"}]}"#;
const OBSERVED: &str = r#"{"schema_version":3,"algorithm":"sha256","nodes":[{"id":"s/server","kind":"server","labels":{},"level":"server"},{"id":"s/tool/u","kind":"tool","labels":{},"level":"server"}],"edges":[{"from":"s/server","kind":"invoke","provenance":"observed","sign":"unset","to":"s/tool/u"}]}"#;

/// A directory of its own for each test (they run in parallel and each removes its own).
fn files(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("connectome-cli-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in [
        ("v3.json", V3),
        ("v2.json", V2),
        ("observed.json", OBSERVED),
    ] {
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_connectome"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn verify_diff_and_render_through_the_command() {
    let dir = files("round");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let (ok, out, _) = run(&["verify", &path("v3.json")]);
    assert!(ok);
    assert_eq!(
        out,
        "schema_version 3\nsha256 a401cd47f0f0410d17248538eb8a3ef00018f6a31bf6fb6a7b9b0ba3377f570e\n"
    );
    let v2_digest = "de6db70dc7316885176c4a7493ee07c46e33ec3bb90951dc54908a74e81dc90d";
    let (ok, out, _) = run(&["verify", &path("v2.json"), "--digest", v2_digest]);
    assert!(ok, "{out}");
    let wrong = "0".repeat(64);
    let (ok, _, err) = run(&["verify", &path("v2.json"), "--digest", &wrong]);
    assert!(!ok);
    assert!(err.contains(v2_digest), "{err}");

    let window = r#"{"ended_at":"b","started_at":"a"}"#;
    let (ok, out, err) = run(&[
        "diff",
        &path("v3.json"),
        &path("observed.json"),
        "--window",
        window,
    ]);
    assert!(ok, "{err}");
    let record: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        record["classes"]["declared_never_observed"][0]["to"],
        "s/tool/t"
    );
    assert_eq!(
        record["classes"]["observed_but_undeclared"][0]["to"],
        "s/tool/u"
    );
    let (ok, _, err) = run(&["diff", &path("v3.json"), &path("observed.json")]);
    assert!(!ok && err.contains("--window"), "{err}");
    // A declared file where the observed one belongs is refused by side.
    let (ok, _, err) = run(&[
        "diff",
        &path("v3.json"),
        &path("v3.json"),
        "--window",
        window,
    ]);
    assert!(!ok && err.contains("observed"), "{err}");

    let (ok, dot, _) = run(&["dot", &path("v3.json")]);
    assert!(ok && dot.starts_with("digraph"), "{dot}");
    assert!(dot.contains("\"s/tool/t\""), "{dot}");
    let (ok, graphml, _) = run(&["graphml", &path("v3.json")]);
    assert!(ok && graphml.contains("<graphml"), "{graphml}");
    let (ok, _, err) = run(&["dot", &path("v2.json")]);
    assert!(!ok && err.contains("v2.json"), "{err}");
    let (ok, _, err) = run(&["render"]);
    assert!(!ok && err.contains("usage"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn options_a_subcommand_does_not_take_are_refused_by_name() {
    let dir = files("options");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let (v3, observed) = (path("v3.json"), path("observed.json"));
    let window = r#"{"ended_at":"b","started_at":"a"}"#;
    let cases: [(Vec<&str>, &str, &str); 8] = [
        (vec!["dot", &v3, "--digest", "abc"], "--digest", "dot"),
        (
            vec!["graphml", &v3, "--window", "{}"],
            "--window",
            "graphml",
        ),
        (
            vec!["verify", &v3, "--algorithm", "sha512"],
            "--algorithm",
            "verify",
        ),
        (
            vec!["verify", &v3, "--window", window],
            "--window",
            "verify",
        ),
        (vec!["verify", &v3, "--bogus", "1"], "--bogus", "verify"),
        (
            vec![
                "diff", &v3, &observed, "--window", window, "--digest", "abc",
            ],
            "--digest",
            "diff",
        ),
        (
            vec!["diff", &v3, &observed, "--window", window, "--bogus", "1"],
            "--bogus",
            "diff",
        ),
        // The option is refused by name before its value is looked for.
        (vec!["dot", &v3, "--bogus"], "--bogus", "dot"),
    ];
    for (args, option, command) in cases {
        let (ok, out, err) = run(&args);
        assert!(!ok, "{args:?} was accepted: {out}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(
            err.contains(option) && err.contains(&format!("`{command}`")),
            "{args:?}: {err}"
        );
    }
    // The subcommand comes first.
    let (ok, _, err) = run(&["--digest", "abc", "verify", &v3]);
    assert!(!ok && err.contains("usage"), "{err}");
    // Each subcommand still takes its own options.
    let (ok, _, err) = run(&["verify", &v3, "--digest", &"0".repeat(64)]);
    assert!(!ok && err.contains("digest mismatch"), "{err}");
    let (ok, out, err) = run(&[
        "diff",
        &v3,
        &observed,
        "--algorithm",
        "sha512",
        "--window",
        window,
    ]);
    assert!(ok && out.starts_with(r#"{"algorithm":"sha512""#), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A graph whose renderings are far bigger than any pipe buffer (1 MiB at most on Linux).
fn big_graph() -> Vec<u8> {
    let server = Identity::Server { server: "s".into() };
    let mut nodes = vec![Node::new(server, Labels::new()).unwrap()];
    let mut edges = Vec::new();
    for i in 0..15_000 {
        let tool = Identity::Tool {
            server: "s".into(),
            name: format!("tool-{i:05}"),
        };
        edges.push(Edge::new(
            "s/server",
            tool.id(),
            EdgeKind::Invoke,
            Provenance::Declared,
        ));
        nodes.push(Node::new(tool, Labels::new()).unwrap());
    }
    encode(&Graph::new(nodes, edges).unwrap(), Algorithm::Sha256).unwrap()
}

#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    let dir = files("pipe");
    let big = dir.join("big.json");
    std::fs::write(&big, big_graph()).unwrap();
    for command in ["dot", "graphml"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_connectome"))
            .args([command, big.to_str().unwrap()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // `connectome dot big.json | head -c 1`: one byte read, then the pipe is closed.
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0; 1];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{command}: {err}");
        assert_ne!(out.status.code(), Some(101), "{command}: {err}");
        assert!(out.status.success(), "{command}: {:?} {err}", out.status);
        assert!(err.is_empty(), "{command}: {err}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}
