//! Caller text in the server's log is cut and escaped: a panic message carrying a caller's
//! newline and half a mebibyte forges no line and runs no line long.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

#[test]
fn a_panic_carrying_caller_text_is_logged_cut_and_escaped() {
    let fixture = beam_mcp_tests::workspace_binary("beam-mcp-fixture", "fixture");
    let mut child = Command::new(fixture)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the fixture");
    let text = format!(
        "first line\nFORGED level=ERROR beam_mcp: the admin logged in\n{}",
        "x".repeat(500_000)
    );
    let call = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "explode", "arguments": { "text": text } } });
    // Read apart, so that a long write to it cannot block the server.
    let mut stderr = child.stderr.take().unwrap();
    let log = std::thread::spawn(move || {
        let mut log = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut log).map(|_| log)
    });
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{call}").unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let answer: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    drop(stdin);
    assert!(child.wait().unwrap().success());
    let log = log.join().unwrap().unwrap();
    let panicked: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("tool panicked"))
        .collect();
    assert_eq!(panicked.len(), 1, "{log}");
    // The caller's newline is escaped, not written: no line of its own.
    assert!(
        panicked[0].contains(r"first line\nFORGED"),
        "{}",
        panicked[0]
    );
    assert!(!log.lines().any(|l| l.starts_with("FORGED")), "{log}");
    // Cut to 256 bytes of the message (the text, after where it happened), with how long it
    // was.
    let (_, length) = panicked[0]
        .rsplit_once("… (")
        .unwrap_or_else(|| panic!("not cut: {}", panicked[0]));
    let length: usize = length.trim_end_matches(" bytes)").parse().unwrap();
    assert!(length > text.len(), "{}", panicked[0]);
    // Where it happened is kept (the hook that printed it raw is quiet for host code).
    assert!(
        panicked[0].contains("at tests/fixture/src/main.rs:"),
        "{}",
        panicked[0]
    );
    let longest = log.lines().map(str::len).max().unwrap_or(0);
    assert!(longest < 2048, "a log line of {longest} bytes");
}
