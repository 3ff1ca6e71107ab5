//! `serve!(http, ..)` as a process: SIGTERM (and SIGINT) stop it gracefully. The call in flight
//! is answered, a new connection is refused, and the process exits 0 within the grace (10 s by
//! default); a second signal ends the grace at once.

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

use beam_mcp_tests::http_client::{Connection, HttpResponse, request};
use beam_mcp_tests::{catches_signal, modern_meta, wait_until};
use serde_json::{Value, json};

fn fixture_path() -> &'static PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| beam_mcp_tests::workspace_binary("beam-mcp-fixture", "fixture"))
}

/// The fixture serving HTTP, whose process id and exit status the test needs.
struct Fixture {
    child: Child,
    addr: SocketAddr,
}

impl Fixture {
    fn spawn() -> Fixture {
        let mut child = Command::new(fixture_path())
            .args(["--http", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn the fixture");
        let mut stderr = BufReader::new(child.stderr.take().expect("piped stderr"));
        let addr = loop {
            let mut line = String::new();
            assert!(
                stderr.read_line(&mut line).expect("read stderr") > 0,
                "the server ended before listening"
            );
            if let Some(rest) = line.trim().strip_prefix("beam_mcp: listening on http://") {
                break rest.trim_end_matches("/mcp").parse().expect("an address");
            }
        };
        // Keep draining its log, so it never blocks on a full pipe.
        thread::spawn(move || {
            let mut sink = String::new();
            while stderr.read_line(&mut sink).is_ok_and(|n| n > 0) {
                sink.clear();
            }
        });
        Fixture { child, addr }
    }

    /// Sends `signal` (`TERM`, `INT`) with the `kill` command.
    fn signal(&self, signal: &str) {
        let sent = Command::new("kill")
            .args([format!("-{signal}"), self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(sent.success(), "kill -{signal}");
    }

    /// The exit status, if the process ends within `wait`.
    fn exit_within(&mut self, wait: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + wait;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for the fixture") {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// A `sleepy` call of `ms` milliseconds, sent from another thread: its answer, if any.
    fn sleepy(&self, ms: u64) -> thread::JoinHandle<Option<HttpResponse>> {
        let addr = self.addr;
        thread::spawn(move || {
            let mut c = Connection::open(addr);
            c.write(&call(addr, 1, "sleepy", json!({ "ms": ms })))
                .unwrap();
            c.read_response()
        })
    }

    /// How many `sleepy` calls started, finished and were dropped.
    fn counts(&self) -> Value {
        let mut c = Connection::open(self.addr);
        c.write(&call(self.addr, 2, "counts", json!({}))).unwrap();
        c.read_response().expect("counts").json()["result"]["structuredContent"].clone()
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn call(addr: SocketAddr, id: i64, tool: &str, arguments: Value) -> Vec<u8> {
    let body = json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": { "name": tool, "arguments": arguments, "_meta": modern_meta() } });
    let host = format!("127.0.0.1:{}", addr.port());
    let headers = [
        ("host", host.as_str()),
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", tool),
    ];
    request("POST", &headers, body.to_string().as_bytes())
}

/// Waits until `sleepy` calls have started `n` times.
fn until_started(server: &Fixture, n: u64) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while server.counts()["started"] != n {
        assert!(Instant::now() < deadline, "the call never started");
        thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn sigterm_answers_the_call_in_flight_refuses_new_connections_and_exits_0_within_the_grace() {
    let mut server = Fixture::spawn();
    // Long enough that the refusal below comes while it runs, however loaded the machine; and
    // well inside the 10 s grace.
    let answer = server.sleepy(5000);
    until_started(&server, 1);
    let signalled = Instant::now();
    server.signal("TERM");
    // The listener closes: a new connection is refused while the call still runs.
    wait_until("a new connection is refused after SIGTERM", || {
        match TcpStream::connect(server.addr) {
            Err(error) => {
                // Refused, or reset when the handshake met the listener as it closed.
                assert!(
                    matches!(
                        error.kind(),
                        std::io::ErrorKind::ConnectionRefused | std::io::ErrorKind::ConnectionReset
                    ),
                    "{error}"
                );
                true
            }
            Ok(_) => false,
        }
    });
    assert!(!answer.is_finished(), "refused while the call runs");
    let answer = answer
        .join()
        .unwrap()
        .expect("the call in flight is answered");
    assert_eq!(answer.status, 200);
    assert_eq!(answer.json()["result"]["content"][0]["text"], "slept");
    let status = server
        .exit_within(Duration::from_secs(10))
        .expect("the process exits within the 10 s grace");
    assert_eq!(status.code(), Some(0), "{status}");
    assert!(signalled.elapsed() < Duration::from_secs(10));
}

#[test]
fn sigint_on_an_idle_server_exits_0_at_once() {
    let mut server = Fixture::spawn();
    server.signal("INT");
    let status = server
        .exit_within(Duration::from_secs(5))
        .expect("the process exits");
    assert_eq!(status.code(), Some(0), "{status}");
}

#[test]
fn a_second_signal_ends_the_grace_at_once() {
    let mut server = Fixture::spawn();
    let answer = server.sleepy(60_000);
    until_started(&server, 1);
    server.signal("TERM");
    // Refused from the first signal on; the call runs on, inside the grace.
    wait_until("a new connection is refused after SIGTERM", || {
        TcpStream::connect(server.addr).is_err()
    });
    assert_eq!(server.exit_within(Duration::from_millis(300)), None);
    let hurried = Instant::now();
    server.signal("TERM");
    let status = server
        .exit_within(Duration::from_secs(5))
        .expect("the process exits at the second signal");
    assert_eq!(status.code(), Some(0), "{status}");
    assert!(hurried.elapsed() < Duration::from_secs(5));
    assert!(
        answer.join().unwrap().is_none(),
        "dropped without an answer"
    );
}

/// The fixture serving its stdin and stdout: the process, its input and its output.
fn spawn_stdio() -> (Child, ChildStdin, BufReader<ChildStdout>) {
    let mut child = Command::new(fixture_path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn the fixture");
    let stdin = child.stdin.take().expect("piped stdin");
    let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
    (child, stdin, stdout)
}

/// Sends SIGTERM to `child` with the `kill` command.
fn sigterm(child: &Child) {
    let sent = Command::new("kill")
        .args(["-TERM".to_owned(), child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(sent.success());
}

#[test]
fn stdio_sigterm_is_an_end_of_input_the_running_call_is_answered_and_the_process_exits_0() {
    use std::io::Write;
    let (mut child, mut stdin, mut stdout) = spawn_stdio();
    let sleepy = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "sleepy", "arguments": { "ms": 3000 } } });
    writeln!(stdin, "{sleepy}").unwrap();
    stdin.flush().unwrap();
    // Signalled only once SIGTERM is caught (before that it ends the process) and the call
    // runs (the fixture counts starts; `counts` is answered while `sleepy` sleeps).
    wait_until("the fixture catches SIGTERM", || {
        catches_signal(child.id(), 15)
    });
    let mut id = 1;
    wait_until("sleepy runs", || {
        id += 1;
        let counts = json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "name": "counts", "arguments": {} } });
        writeln!(stdin, "{counts}").unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).expect("read the counts");
        let answer: Value = serde_json::from_str(&line).expect("one JSON line");
        assert_eq!(answer["id"], id, "sleepy ended before the signal: {answer}");
        answer["result"]["structuredContent"]["started"] == 1
    });
    sigterm(&child);
    // stdin stays open: the signal alone ends the input.
    let mut line = String::new();
    stdout.read_line(&mut line).expect("read the answer");
    let answer: Value = serde_json::from_str(&line).expect("one JSON line");
    assert_eq!(answer["id"], 1, "{answer}");
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "still running after SIGTERM");
        thread::sleep(Duration::from_millis(10));
    };
    assert!(status.success(), "{status:?}");
    drop(stdin);
}

#[test]
fn stdio_sigterm_after_calls_answered_at_once_does_not_wait_out_the_grace() {
    use std::io::Write;
    // The reader keeps the slot a call answered at once ran in, for the next message; the
    // graceful end takes it back. Were it kept, the end would wait for it until the 10 s grace
    // ran out.
    let (mut child, mut stdin, mut stdout) = spawn_stdio();
    wait_until("the fixture catches SIGTERM", || {
        catches_signal(child.id(), 15)
    });
    for id in 1..=3 {
        // An async tool that answers at its first poll, at 2026-07-28 with no log level asked
        // (a synchronous tool runs on the blocking pool, and a request that streams its logs
        // runs in a task: each holds its own slot).
        let steps = json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "name": "steps", "arguments": { "count": 0, "delay_ms": 0 },
                "_meta": modern_meta() } });
        writeln!(stdin, "{steps}").unwrap();
        stdin.flush().unwrap();
        // Anything it sends before its answer (none is asked for) is passed over.
        let answer = loop {
            let mut line = String::new();
            stdout.read_line(&mut line).expect("read the answer");
            let message: Value = serde_json::from_str(&line).expect("one JSON line");
            if message.get("id").is_some() {
                break message;
            }
        };
        assert_eq!(answer["id"], id, "{answer}");
        assert_eq!(answer["result"]["isError"], false, "{answer}");
    }
    let signalled = Instant::now();
    sigterm(&child);
    // stdin stays open: the reader is blocked in a read, holding no lock the end waits for.
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            signalled.elapsed() < Duration::from_secs(5),
            "still running 5 s after SIGTERM with nothing in flight"
        );
        thread::sleep(Duration::from_millis(10));
    };
    assert!(status.success(), "{status:?}");
    drop(stdin);
}
