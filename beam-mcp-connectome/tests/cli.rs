//! The `connectome` command, run as a process: digests checked, two files diffed, a graph
//! rendered; every refusal on stderr with a failing exit status.

use std::process::Command;

const V3: &str = r#"{"schema_version":3,"algorithm":"sha256","nodes":[{"id":"s/server","kind":"server","labels":{},"level":"server"},{"id":"s/tool/t","kind":"tool","labels":{"mode":"read_only"},"level":"server"}],"edges":[{"from":"s/server","kind":"invoke","provenance":"declared","sign":"unset","to":"s/tool/t"}]}"#;
const V2: &str = r#"{"schema_version":2,"nodes":[{"id":"s/server","kind":"server","labels":{},"level":"server"},{"id":"s/tool/t","kind":"tool","labels":{"mode":"read_only"},"level":"server"}],"edges":[{"from":"s/server","kind":"invoke","provenance":"declared","sign":"unset","to":"s/tool/t"}]}"#;
const OBSERVED: &str = r#"{"schema_version":3,"algorithm":"sha256","nodes":[{"id":"s/server","kind":"server","labels":{},"level":"server"},{"id":"s/tool/u","kind":"tool","labels":{},"level":"server"}],"edges":[{"from":"s/server","kind":"invoke","provenance":"observed","sign":"unset","to":"s/tool/u"}]}"#;

fn files() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("connectome-cli-{}", std::process::id()));
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
    let dir = files();
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
