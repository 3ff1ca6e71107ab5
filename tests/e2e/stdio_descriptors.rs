//! stdio on descriptors a parent left non-blocking (`O_NONBLOCK` on the open file description
//! the server's stdin or stdout shares): the server waits for them to be ready, as it waits in
//! a blocking read or write, and takes no `EAGAIN` for an error.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use beam_mcp_tests::workspace_binary;
use serde_json::{Value, json};
use tokio::net::unix::pipe;

/// The requests written before any answer is read: their answers (4 KiB each) are well past
/// what a pipe holds, so the server's writes find stdout full.
const CALLS: u64 = 200;

#[test]
fn a_server_on_non_blocking_stdin_and_stdout_waits_for_them() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime for tokio's pipes");
    let _entered = runtime.enter();
    let (to_server, server_in) = pipe::pipe().expect("a pipe");
    let (server_out, from_server) = pipe::pipe().expect("a pipe");
    // The server's ends stay non-blocking; ours block (each end is a description of its own).
    let mut child = Command::new(workspace_binary("beam-mcp-fixture", "fixture"))
        .stdin(Stdio::from(
            server_in.into_nonblocking_fd().expect("stdin's fd"),
        ))
        .stdout(Stdio::from(
            server_out.into_nonblocking_fd().expect("stdout's fd"),
        ))
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn the fixture");
    let mut to_server = File::from(to_server.into_blocking_fd().expect("our end"));
    let mut from_server =
        BufReader::new(File::from(from_server.into_blocking_fd().expect("our end")));
    // The server's first read finds nothing to read.
    std::thread::sleep(Duration::from_millis(300));
    let ping = json!({ "jsonrpc": "2.0", "id": 0, "method": "ping" });
    writeln!(to_server, "{ping}").expect("write the ping");
    let mut line = String::new();
    from_server.read_line(&mut line).expect("read the answer");
    let answer: Value = serde_json::from_str(&line).expect("one JSON line");
    assert_eq!(answer, json!({ "jsonrpc": "2.0", "id": 0, "result": {} }));
    // Answers pile up unread: the server's writes find stdout full, and wait.
    let text = "x".repeat(4096);
    let writer = std::thread::spawn(move || {
        for id in 1..=CALLS {
            let call = json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": { "name": "echo", "arguments": { "text": text } } });
            writeln!(to_server, "{call}").expect("write a call");
        }
        to_server
    });
    std::thread::sleep(Duration::from_millis(500));
    let mut ids = Vec::new();
    for _ in 1..=CALLS {
        line.clear();
        from_server.read_line(&mut line).expect("read an answer");
        let answer: Value = serde_json::from_str(&line).expect("one JSON line");
        assert_eq!(answer["result"]["isError"], false, "{answer}");
        ids.push(answer["id"].as_u64().expect("an integer id"));
    }
    ids.sort_unstable();
    assert_eq!(
        ids,
        (1..=CALLS).collect::<Vec<_>>(),
        "every call answered once"
    );
    // The end of input ends the server, with 0.
    drop(writer.join().expect("the writer"));
    let status = child.wait().expect("the server exits");
    assert!(status.success(), "{status}");
}
