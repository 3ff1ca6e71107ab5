//! `cargo beam-mcp` run as a user runs it (the built binary, in a temporary directory) against
//! the weather example over stdio and HTTP and the conformance harness over HTTP: `inspect`,
//! `call`, `card`, `diff` and `install` (golden files per host under `tests/golden/install`).

mod common;

use std::path::{Path, PathBuf};

use common::{root, target_dir};
use std::process::{Command, Output};

use beam_mcp::schema::CompiledSchema;
use beam_mcp_tests::{HttpServerProcess, workspace_binary};
use serde_json::Value;

fn cli(args: &[&str]) -> Output {
    let dir = scratch("run");
    Command::new(env!("CARGO_BIN_EXE_cargo-beam-mcp"))
        .current_dir(&dir)
        .args(args)
        .output()
        .expect("the CLI runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn weather() -> String {
    workspace_binary("weather", "weather").display().to_string()
}

/// A fresh folder under the system's temporary one.
fn scratch(name: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!(
        "cargo-beam-mcp-test-{}-{name}-{n}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn inspect_prints_the_catalog_readably() {
    let weather = weather();
    let out = cli(&["inspect", "--", &weather]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for line in [
        "weather 0.1.0 \"Weather\"",
        "revision: 2026-07-28",
        "capabilities: completions, extensions, logging, prompts, resources, tools",
        "tools (7)",
        "  get_weather \"Current weather\"  [read-only]",
        "    Read the current weather for a place.",
        "      place: string, required — A city name, e.g. \"Paris\".",
        "      days: integer | null — How many days ahead, 1 to 7 (default 3).",
        "      celsius: number, required — Air temperature in degrees Celsius.",
        "  weather://stations  stations \"Stations\"  (text/plain)",
        "resource templates (1)",
        "  weather://station/{place}  station  (application/json)",
        "  plan_trip(place*, duration) \"Plan a trip\"",
    ] {
        assert!(
            stdout.lines().any(|l| l == line),
            "no line {line:?} in:\n{stdout}"
        );
    }
}

#[test]
fn inspect_json_is_the_pinned_export_at_each_revision() {
    let weather = weather();
    for (revision, args) in [
        ("2026-07-28", vec!["inspect", "--json", "--", &weather]),
        (
            "2025-11-25",
            vec![
                "inspect",
                "--json",
                "--revision",
                "2025-11-25",
                "--",
                &weather,
            ],
        ),
    ] {
        let out = cli(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let pinned =
            std::fs::read(root().join(format!("examples/weather/advertised/{revision}.json")))
                .unwrap();
        assert_eq!(out.stdout, [pinned, b"\n".to_vec()].concat(), "{revision}");
    }
}

#[test]
fn inspect_and_call_reach_the_conformance_harness_over_http() {
    let harness = HttpServerProcess::spawn_with_env(
        &workspace_binary("conformance-harness", "conformance-harness"),
        &[("PORT", "0")],
    );
    let url = format!("http://{}/mcp", harness.addr);
    let out = cli(&["inspect", &url]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("beam-mcp-conformance-harness "),
        "{stdout}"
    );
    assert!(
        stdout.lines().any(|l| l == "  test_simple_text"),
        "{stdout}"
    );
    let out = cli(&["call", &url, "test_simple_text"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "This is a simple text response for testing.\n"
    );
    let out = cli(&["call", &url, "test_image_content"]);
    assert_eq!(text(&out.stdout), "[image image/png, about 69 bytes]\n");
    let out = cli(&[
        "call",
        "--revision",
        "2025-11-25",
        &url,
        "test_error_handling",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("the tool failed (isError)"),
        "{}",
        text(&out.stderr)
    );
    // The harness gives no description, which a card requires: the command says where to give
    // one, and takes it.
    let out = cli(&["card", "--name", "com.example/harness", &url]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("or give one here: --description TEXT"),
        "{}",
        text(&out.stderr)
    );
    let out = cli(&[
        "card",
        "--name",
        "com.example/harness",
        "--description",
        "The conformance suite's server",
        &url,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let card: Value = serde_json::from_slice(&out.stdout).unwrap();
    card_schema().validate(&card).unwrap();
    assert_eq!(card["description"], "The conformance suite's server");
}

#[test]
fn call_prints_the_outcome_and_exits_by_it() {
    let weather = weather();
    let out = cli(&["call", &weather, "forecast", r#"{"place":"Oslo","days":2}"#]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "day 1: -2 °C, snow\nday 2: -1 °C, snow\n"
    );
    assert_eq!(
        text(&out.stderr),
        "progress 1/2 day 1\nprogress 2/2 day 2\n"
    );
    let out = cli(&["call", &weather, "reading", r#"{"place":"Lisbon"}"#]);
    assert_eq!(
        text(&out.stdout),
        "{\"celsius\":21.0,\"sky\":\"sunny\"}\nstructured: {\n  \"celsius\": 21.0,\n  \"sky\": \"sunny\"\n}\n"
    );
    // The tool's own failure, a refused call, and a command line that is wrong.
    let out = cli(&["call", &weather, "get_weather", r#"{"place":"Nowhere"}"#]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "no station for Nowhere\n");
    let out = cli(&["call", &weather, "no_such_tool"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("refused: -32602"),
        "{}",
        text(&out.stderr)
    );
    let out = cli(&["call", &weather, "get_weather", "{"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("the arguments are not JSON"));
    let out = cli(&["call", "/no/such/server", "x"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("/no/such/server"),
        "{}",
        text(&out.stderr)
    );
}

/// The Server Card schema (the SEP's `schema.json`, v2), rooted at its `ServerCard`.
fn card_schema() -> CompiledSchema {
    let schema: Value = serde_json::from_slice(
        &std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/server-card.schema.json"),
        )
        .unwrap(),
    )
    .unwrap();
    CompiledSchema::compile(
        &serde_json::json!({ "$ref": "#/$defs/ServerCard", "$defs": schema["$defs"] }),
    )
    .unwrap()
}

#[test]
fn card_is_the_pinned_card_and_valid_by_the_seps_schema() {
    let weather = weather();
    let out = cli(&[
        "card",
        "--name",
        "com.example/weather",
        "--url",
        "https://weather.example.com/mcp",
        "--",
        &weather,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let pinned = std::fs::read(root().join("examples/weather/server-card.json")).unwrap();
    assert_eq!(out.stdout, [pinned.clone(), b"\n".to_vec()].concat());
    let card: Value = serde_json::from_slice(&pinned).unwrap();
    let schema = card_schema();
    schema.validate(&card).unwrap();
    // The schema is no check that passes anything: a card without its name, or with a field the
    // schema does not have, is refused.
    let mut nameless = card.clone();
    nameless.as_object_mut().unwrap().remove("name");
    assert!(schema.validate(&nameless).is_err());
    let mut extra = card.clone();
    extra["tools"] = serde_json::json!([]);
    assert!(schema.validate(&extra).is_err());
    // Over HTTP the target is the card's remote; 127.0.0.1 gives no name to derive.
    let server = HttpServerProcess::spawn(&workspace_binary("weather", "weather"));
    let url = format!("http://{}/mcp", server.addr);
    let out = cli(&["card", &url]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("--name NAMESPACE/NAME"),
        "{}",
        text(&out.stderr)
    );
    let out = cli(&["card", "--name", "com.example/weather", &url]);
    let card: Value = serde_json::from_slice(&out.stdout).unwrap();
    schema.validate(&card).unwrap();
    assert_eq!(card["remotes"][0]["url"], url.as_str());
    assert_eq!(
        card["remotes"][0]["supportedProtocolVersions"],
        serde_json::json!(["2026-07-28", "2025-11-25"])
    );
}

#[test]
fn diff_classifies_the_weather_examples_history() {
    // Two commits of this repository between which the example's catalog changed (git must
    // see the repository: the CLI runs in its root here).
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_cargo-beam-mcp"))
            .current_dir(root())
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&[
        "diff",
        "--deny",
        "breaking",
        "cccf2fb:examples/weather/advertised/2026-07-28.json",
        "6b59046:examples/weather/advertised/2026-07-28.json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "2026-07-28:\n  additive  tool forecast: argument days: type integer | null (was integer)\nsummary: 0 breaking, 1 additive, 0 cosmetic; suggested bump: minor (0.x: patch)\n"
    );
    let out = run(&[
        "diff",
        "5de3885:examples/weather/advertised",
        "ed319a6:examples/weather/advertised",
    ]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("2025-11-25:\n  cosmetic  tool get_weather: icons changed\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("  additive  tool reading_fahrenheit: added\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("  additive  resource ui://weather/reading: added\n"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with(
            "summary: 0 breaking, 4 additive, 14 cosmetic; suggested bump: minor (0.x: patch)\n"
        ),
        "{stdout}"
    );
    // The same surfaces the other way: what was added is removed, and denied.
    let out = run(&[
        "diff",
        "--deny",
        "breaking",
        "ed319a6:examples/weather/advertised",
        "5de3885:examples/weather/advertised",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("  breaking  tool reading_fahrenheit: removed\n"));
    assert!(
        text(&out.stderr).contains("4 breaking change(s), denied"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn diff_reads_a_running_server_and_an_export() {
    let weather = weather();
    let folder = root().join("examples/weather/advertised");
    let out = cli(&["diff", folder.to_str().unwrap(), &weather]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "2025-11-25:\n  no change\n2026-07-28:\n  no change\nsummary: 0 breaking, 0 additive, 0 cosmetic; suggested bump: none\n"
    );
    let out = cli(&["diff", "/no/such/file.json", folder.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr)
            .contains("neither a file, a folder, REV:PATH, a git revision nor a server"),
        "{}",
        text(&out.stderr)
    );
}

/// Each host's case: its golden folder, the `install` arguments choosing it, and where its
/// file is (under the test's home or project).
const HOSTS: [(&str, &[&str], &str); 6] = [
    (
        "claude-desktop",
        &["claude-desktop"],
        "home/.config/Claude/claude_desktop_config.json",
    ),
    ("vscode", &["vscode"], "project/.vscode/mcp.json"),
    (
        "vscode-user",
        &["vscode", "--scope", "user"],
        "home/.config/Code/User/mcp.json",
    ),
    ("cursor", &["cursor"], "home/.cursor/mcp.json"),
    ("claude-code", &["claude-code"], "project/.mcp.json"),
    (
        "claude-code-user",
        &["claude-code", "--scope", "user"],
        "home/.claude.json",
    ),
];

/// Compares `got` with the golden file `name` of `host` (written instead with
/// `BEAM_MCP_PIN=overwrite`, for review).
fn golden(host: &str, name: &str, got: &str) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/golden/install/{host}/{name}"));
    if std::env::var("BEAM_MCP_PIN").is_ok_and(|v| v == "overwrite") {
        std::fs::write(&path, got).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(got, want, "{host}: {name}");
}

#[test]
fn install_writes_each_hosts_file_as_its_golden_file_and_changes_nothing_twice() {
    if !cfg!(target_os = "linux") {
        return; // the golden paths are Linux's (`~/.config`)
    }
    for (host, choose, file) in HOSTS {
        for case in ["missing", "existing"] {
            let dir = scratch(host);
            let (home, project) = (dir.join("home"), dir.join("project"));
            std::fs::create_dir_all(&project).unwrap();
            let path = dir.join(file);
            let input = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(format!("tests/golden/install/{host}/existing.json"));
            if case == "existing" {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::copy(&input, &path).unwrap();
            }
            let mut args = vec!["install"];
            args.extend_from_slice(choose);
            let (home_s, project_s) = (home.display().to_string(), project.display().to_string());
            args.extend_from_slice(&[
                "--name",
                "weather",
                "--env",
                "RUST_LOG=info",
                "--home",
                &home_s,
                "--project",
                &project_s,
                "--",
                "/opt/weather/bin/weather",
                "--stdio",
            ]);
            // --print shows the change and writes nothing.
            let mut printing = args.clone();
            printing.insert(1 + choose.len(), "--print");
            let out = cli(&printing);
            assert!(out.status.success(), "{host} {case}: {}", text(&out.stderr));
            let shown = text(&out.stdout).replace(&dir.display().to_string(), "DIR");
            golden(host, &format!("{case}.print"), &shown);
            assert_eq!(
                path.exists(),
                case == "existing",
                "{host} {case}: --print wrote nothing"
            );
            // Written: the golden file, a backup of what was there.
            let out = cli(&args);
            assert!(out.status.success(), "{host} {case}: {}", text(&out.stderr));
            let written = std::fs::read_to_string(&path).unwrap();
            golden(host, &format!("{case}.expected.json"), &written);
            let backup = path.with_file_name(format!(
                "{}.bak",
                path.file_name().unwrap().to_string_lossy()
            ));
            match case {
                "existing" => assert_eq!(
                    std::fs::read(&backup).unwrap(),
                    std::fs::read(&input).unwrap()
                ),
                _ => assert!(!backup.exists()),
            }
            let entry: Value = {
                // What the host reads back (VS Code's file is JSONC: its comments dropped).
                let plain: String = written
                    .lines()
                    .filter(|l| {
                        !l.trim_start().starts_with("//") && !l.trim_start().starts_with("/*")
                    })
                    .collect::<Vec<_>>()
                    .join("\n");
                let plain = plain
                    .replace(",\n\t}", "\n\t}")
                    .replace(",\n\t]", "\n\t]")
                    .replace(",\n}", "\n}");
                let document: Value =
                    serde_json::from_str(&plain).unwrap_or_else(|e| panic!("{host}: {e}\n{plain}"));
                let container = if host.starts_with("vscode") {
                    "servers"
                } else {
                    "mcpServers"
                };
                document[container]["weather"].clone()
            };
            assert_eq!(entry["command"], "/opt/weather/bin/weather", "{host}");
            assert_eq!(entry["args"], serde_json::json!(["--stdio"]), "{host}");
            assert_eq!(entry["env"]["RUST_LOG"], "info", "{host}");
            // A second run changes nothing, byte for byte, and backs nothing up.
            let _ = std::fs::remove_file(&backup);
            let out = cli(&args);
            assert!(
                text(&out.stdout).contains("nothing changed"),
                "{host} {case}: {}",
                text(&out.stdout)
            );
            assert_eq!(std::fs::read_to_string(&path).unwrap(), written);
            assert!(
                !backup.exists(),
                "{host} {case}: a second run backs nothing up"
            );
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

#[test]
fn install_refuses_a_file_it_cannot_read_and_leaves_it() {
    let dir = scratch("broken");
    let path = dir.join("project/.mcp.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, "{\n  \"mcpServers\": [1, 2]\n}\n").unwrap();
    let project = dir.join("project").display().to_string();
    let out = cli(&[
        "install",
        "claude-code",
        "--name",
        "w",
        "--project",
        &project,
        "--",
        "w",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("line 2: \"mcpServers\" is not an object"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "{\n  \"mcpServers\": [1, 2]\n}\n"
    );
    let out = cli(&[
        "install",
        "claude-desktop",
        "--scope",
        "project",
        "--name",
        "w",
        "--",
        "w",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("Claude Desktop has no project configuration"));
}

/// `method path` on 127.0.0.1 over a fresh connection: the status line, headers and body.
fn http(addr: std::net::SocketAddr, method: &str, path: &str) -> (String, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nhost: {addr}\r\naccept: application/mcp-server-card+json\r\nconnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    (head.to_ascii_lowercase(), body.to_owned())
}

#[test]
fn the_weather_endpoint_serves_its_pinned_card_where_the_draft_reserves_it() {
    let server = HttpServerProcess::spawn(&workspace_binary("weather", "weather"));
    let (head, body) = http(server.addr, "GET", "/mcp/server-card");
    assert!(head.starts_with("http/1.1 200"), "{head}");
    for header in [
        "content-type: application/mcp-server-card+json",
        "access-control-allow-origin: *",
        "access-control-allow-methods: get",
        "cache-control: public, max-age=3600",
    ] {
        assert!(head.lines().any(|l| l == header), "no {header:?} in {head}");
    }
    let pinned = std::fs::read_to_string(root().join("examples/weather/server-card.json")).unwrap();
    let body = if head.contains("transfer-encoding: chunked") {
        // One chunk: its size line, the bytes, the last chunk.
        let (_, rest) = body.split_once("\r\n").unwrap();
        rest.rsplit_once("\r\n0\r\n").unwrap().0.to_owned()
    } else {
        body
    };
    assert_eq!(body, pinned);
    card_schema()
        .validate(&serde_json::from_str(&body).unwrap())
        .unwrap();
    let (head, _) = http(server.addr, "OPTIONS", "/mcp/server-card");
    assert!(head.starts_with("http/1.1 204"), "{head}");
    let (head, _) = http(server.addr, "DELETE", "/mcp/server-card");
    assert!(head.starts_with("http/1.1 405"), "{head}");
    assert!(
        head.lines().any(|l| l == "allow: get, head, options"),
        "{head}"
    );
}

#[test]
fn new_makes_a_crate_whose_tests_pass_and_that_answers() {
    let dir = scratch("new");
    let beam_mcp = root().join("beam-mcp").display().to_string();
    for (name, flavor) in [
        ("notes", None),
        ("web-notes", Some("--http")),
        ("both-ways", Some("--both")),
    ] {
        let mut args = vec!["new", name, "--beam-mcp", &beam_mcp];
        args.extend(flavor);
        let out = Command::new(env!("CARGO_BIN_EXE_cargo-beam-mcp"))
            .current_dir(&dir)
            .args(&args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(
            text(&out.stdout),
            format!("created {name} (6 files)\nnext: cd {name} && cargo test\n")
        );
        let krate = dir.join(name);
        // The workspace's lock: the versions this checkout was tested with, no registry asked.
        std::fs::copy(root().join("Cargo.lock"), krate.join("Cargo.lock")).unwrap();
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let tested = Command::new(&cargo)
            .current_dir(&krate)
            .env("CARGO_TARGET_DIR", target_dir())
            .args(["test", "--offline", "--quiet"])
            .output()
            .unwrap();
        assert!(
            tested.status.success(),
            "{name}: cargo test:\n{}\n{}",
            text(&tested.stdout),
            text(&tested.stderr)
        );
        let formatted = Command::new(&cargo)
            .current_dir(&krate)
            .args(["fmt", "--check"])
            .output()
            .unwrap();
        assert!(
            formatted.status.success(),
            "{name}: {}",
            text(&formatted.stdout)
        );
        if flavor != Some("--http") {
            let binary = target_dir().join("debug").join(name).display().to_string();
            let out = cli(&["call", &binary, "hello", r#"{"name":"Ada"}"#]);
            assert_eq!(
                text(&out.stdout),
                "Hello, Ada!\n",
                "{name}: {}",
                text(&out.stderr)
            );
        }
    }
    let again = Command::new(env!("CARGO_BIN_EXE_cargo-beam-mcp"))
        .current_dir(&dir)
        .args(["new", "notes"])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(1));
    assert!(text(&again.stderr).contains("notes exists already"));
    let out = cli(&["new", "2fast"]);
    assert!(
        text(&out.stderr).contains("is no crate name"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diff_builds_two_git_revisions_of_a_crate() {
    let dir = scratch("gitdiff");
    let made = Command::new(env!("CARGO_BIN_EXE_cargo-beam-mcp"))
        .current_dir(&dir)
        .args(["new", "gitnotes", "--beam-mcp"])
        .arg(root().join("beam-mcp"))
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", text(&made.stderr));
    let krate = dir.join("gitnotes");
    std::fs::copy(root().join("Cargo.lock"), krate.join("Cargo.lock")).unwrap();
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .current_dir(&krate)
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
    };
    git(&["init", "--quiet"]);
    git(&["add", "."]);
    git(&["commit", "--quiet", "-m", "first"]);
    let main = krate.join("src/main.rs");
    let source = std::fs::read_to_string(&main).unwrap();
    let source = source
        .replace(
            "    name: String,\n) -> String {",
            "    name: String,\n    /// How to greet.\n    greeting: String,\n) -> String {\n    let _ = greeting;",
        )
        .replace(
            "beam_mcp::serve!",
            "/// Waves.\n#[beam_mcp::tool]\nfn wave() -> String {\n    \"~\".into()\n}\n\nbeam_mcp::serve!",
        );
    std::fs::write(&main, source).unwrap();
    git(&["commit", "--quiet", "-am", "second"]);
    let target = target_dir().display().to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_cargo-beam-mcp"))
        .current_dir(&krate)
        .args([
            "diff",
            "--deny",
            "breaking",
            "--target-dir",
            &target,
            "HEAD~1",
            "HEAD",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for revision in ["2025-11-25:", "2026-07-28:"] {
        assert!(stdout.contains(revision), "{stdout}");
    }
    assert_eq!(
        stdout
            .matches("  breaking  tool hello: argument greeting: required now\n")
            .count(),
        2,
        "{stdout}"
    );
    assert_eq!(
        stdout.matches("  additive  tool wave: added\n").count(),
        2,
        "{stdout}"
    );
    assert!(
        stdout.ends_with("suggested bump: major (0.x: minor)\n"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
