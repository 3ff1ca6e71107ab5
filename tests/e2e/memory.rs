//! stdio memory stays bounded: a client that never reads cannot grow the server, and a long
//! run of calls leaves the resident size flat.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use beam_mcp_tests::{ServerProcess, rss_kib, workspace_binary};
use serde_json::json;

/// The bound `docs/security.md` documents for a stdio server whose client stops reading, with
/// the default limits (64 requests in flight, 256 queued messages, a 64 KiB read buffer).
const NEVER_READ_BOUND_KIB: u64 = 48 * 1024;

fn echo_line(id: u64, text: &str) -> Vec<u8> {
    let mut line = json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": { "name": "echo", "arguments": { "text": text } } })
    .to_string()
    .into_bytes();
    line.push(b'\n');
    line
}

#[test]
fn a_client_that_never_reads_cannot_grow_the_server() {
    let mut server = ServerProcess::spawn(&workspace_binary("beam-mcp-fixture", "fixture"));
    let pid = server.pid();
    let mut stdin = server.take_stdin();
    let text = "x".repeat(4096);
    // The writer blocks once the server stops reading; killing the server ends it.
    let writer = std::thread::spawn(move || {
        let mut sent = 0u64;
        for id in 0.. {
            if stdin.write_all(&echo_line(id, &text)).is_err() {
                break;
            }
            sent += 1;
        }
        sent
    });
    let started = Instant::now();
    let mut peak = 0;
    while started.elapsed() < Duration::from_secs(20) {
        peak = peak.max(rss_kib(pid));
        std::thread::sleep(Duration::from_millis(250));
    }
    drop(server);
    let sent = writer.join().unwrap();
    eprintln!("a client that never reads: {sent} requests written, peak resident size {peak} KiB");
    assert!(
        sent > 64,
        "the server read a few requests before it stopped: {sent}"
    );
    assert!(
        peak < NEVER_READ_BOUND_KIB,
        "resident size reached {peak} KiB with a client that never reads (bound {NEVER_READ_BOUND_KIB} KiB)"
    );
}

#[test]
fn two_hundred_thousand_calls_leave_the_resident_size_flat() {
    const CALLS: u64 = 200_000;
    const WARM_UP: u64 = 20_000;
    let mut server = ServerProcess::spawn(&workspace_binary("beam-mcp-fixture", "fixture"));
    let pid = server.pid();
    let mut stdin = server.take_stdin();
    let writer = std::thread::spawn(move || {
        let mut out = std::io::BufWriter::new(&mut stdin);
        for id in 0..CALLS {
            out.write_all(&echo_line(id, "hello")).unwrap();
        }
        out.flush().unwrap();
        drop(out);
        stdin
    });
    let mut answers = server.take_stdout();
    let mut line = String::new();
    let mut after_warm_up = 0;
    for n in 1..=CALLS {
        line.clear();
        assert!(
            answers.read_line(&mut line).unwrap() > 0,
            "EOF after {n} answers"
        );
        if n == WARM_UP {
            after_warm_up = rss_kib(pid);
        }
    }
    let at_end = rss_kib(pid);
    eprintln!("{CALLS} calls: {after_warm_up} KiB after {WARM_UP}, {at_end} KiB at the end");
    drop(writer.join().unwrap());
    // Flat: what the last 180,000 calls added is noise, not 180,000 kept records.
    assert!(
        at_end <= after_warm_up + 2048,
        "resident size grew from {after_warm_up} KiB to {at_end} KiB over {} calls",
        CALLS - WARM_UP
    );
}
