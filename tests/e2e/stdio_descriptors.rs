//! stdio on descriptors a parent left non-blocking (`O_NONBLOCK` on the open file description
//! the server's stdin or stdout shares): the server waits for them to be ready, as it waits in
//! a blocking read or write, and takes no `EAGAIN` for an error.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use beam_mcp_tests::{wait_until, workspace_binary};
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
    // The server's first read finds nothing to read: its reader waits, asleep.
    let pid = child.id();
    wait_until("the server's reader waits for its first input", || {
        asleep(pid, "beam-mcp-stdin")
    });
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
    // Every call written, and the reader asleep again (all read, or waiting for room): the
    // answers of those read, far more than a pipe holds, found stdout full.
    wait_until("every call written", || writer.is_finished());
    wait_until("the server's reader waits again", || {
        asleep(pid, "beam-mcp-stdin")
    });
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

/// Whether the thread of process `pid` named `name` is asleep (state `S` in its
/// `/proc/PID/task/TID/stat`).
fn asleep(pid: u32, name: &str) -> bool {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return false;
    };
    tasks.flatten().any(|task| {
        let read = |file: &str| std::fs::read_to_string(task.path().join(file)).unwrap_or_default();
        read("comm").trim() == name
            && read("stat")
                .rsplit_once(')')
                .is_some_and(|(_, rest)| rest.trim_start().starts_with('S'))
    })
}
