//! The lab's load client (bench/README.md). Every contestant gets the same request bytes.
//!
//!   load stdio-seq  REV N -- CMD..   N calls one at a time: p50/p99 latency, peak RSS
//!   load stdio-pipe REV N -- CMD..   N calls written without waiting: messages/s, peak RSS
//!   load stdio-cold REV   -- CMD..   start to the first tools/list answer
//!   load stdio-hol  REV N -- CMD..   N fast calls while one slow call runs: p50 latency
//!   load http-seq   REV N URL        N calls one at a time on one keep-alive connection
//!   load http-sessions  N URL        N 2025-11-25 sessions opened and left open
//!   load http-listen    N URL        N listen streams held until stdin ends
//!
//! Prints one JSON object. A wrong answer is a failure (exit 1), never a number.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

const EXPECTED: &str = "Paris: 21C, clear";
const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn call(rev: &str, id: u64, tool: &str, arguments: &str) -> String {
    let meta = if rev == "2026-07-28" {
        format!("{META},")
    } else {
        String::new()
    };
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{{meta}"name":"{tool}","arguments":{arguments}}}}}"#
    )
}

fn weather(rev: &str, id: u64) -> String {
    call(rev, id, "get_weather", r#"{"place":"Paris"}"#)
}

fn fail(why: impl std::fmt::Display) -> ! {
    eprintln!("load: {why}");
    std::process::exit(1)
}

fn check(line: &str, text: &str) {
    let value: serde_json::Value =
        serde_json::from_str(line).unwrap_or_else(|e| fail(format!("not JSON ({e}): {line}")));
    let got = value["result"]["content"][0]["text"].as_str();
    if got != Some(text) || value["result"]["isError"] == true {
        fail(format!("unexpected answer: {line}"));
    }
}

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Server {
    fn start(cmd: &[String]) -> Server {
        let mut child = Command::new(&cmd[0])
            .args(&cmd[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| fail(format!("cannot start {cmd:?}: {e}")));
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::with_capacity(1 << 20, child.stdout.take().unwrap());
        Server {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, line: &str) {
        self.stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.write_all(b"\n"))
            .unwrap_or_else(|e| fail(e));
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        if self.stdout.read_line(&mut line).unwrap_or(0) == 0 {
            fail("the server closed its output");
        }
        line
    }

    /// The 2025-11-25 handshake; nothing at 2026-07-28.
    fn open(&mut self, rev: &str) {
        if rev == "2025-11-25" {
            self.send(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"lab","version":"1"}}}"#);
            self.line();
            self.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        }
    }

    /// Peak resident set (VmHWM), then EOF and wait.
    fn finish(mut self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        let hwm = status
            .lines()
            .find(|l| l.starts_with("VmHWM:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        drop(self.stdin);
        let _ = self.child.wait();
        hwm
    }
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1e6
}

fn stdio_seq(rev: &str, n: u64, cmd: &[String], warm_up: bool) {
    let mut server = Server::start(cmd);
    server.open(rev);
    let warm = if warm_up { n / 10 } else { 0 };
    let mut times = Vec::with_capacity(n as usize);
    for i in 0..warm + n {
        let line = weather(rev, i + 1);
        let began = Instant::now();
        server.send(&line);
        let answer = server.line();
        let took = began.elapsed();
        check(&answer, EXPECTED);
        if i >= warm {
            times.push(took);
        }
    }
    times.sort();
    let rss = server.finish();
    println!(
        r#"{{"p50_us":{:.1},"p99_us":{:.1},"rss_kib":{rss},"calls":{n}}}"#,
        percentile(&times, 0.5),
        percentile(&times, 0.99)
    );
}

fn stdio_pipe(rev: &str, n: u64, cmd: &[String]) {
    let mut server = Server::start(cmd);
    server.open(rev);
    // Warm up, then write everything from one thread while this one reads.
    for i in 0..1000 {
        server.send(&weather(rev, i + 1));
        check(&server.line(), EXPECTED);
    }
    let mut batch = String::with_capacity(n as usize * 200);
    for i in 0..n {
        batch.push_str(&weather(rev, 10_000 + i));
        batch.push('\n');
    }
    let mut stdin = server.stdin.try_clone_fd();
    let began = Instant::now();
    let writer = std::thread::spawn(move || {
        stdin
            .write_all(batch.as_bytes())
            .unwrap_or_else(|e| fail(e))
    });
    for _ in 0..n {
        check(&server.line(), EXPECTED);
    }
    let took = began.elapsed();
    writer.join().unwrap();
    let rss = server.finish();
    println!(
        r#"{{"msgs_per_s":{:.0},"rss_kib":{rss},"calls":{n}}}"#,
        n as f64 / took.as_secs_f64()
    );
}

fn stdio_cold(rev: &str, cmd: &[String]) {
    let began = Instant::now();
    let mut server = Server::start(cmd);
    server.open(rev);
    let list = if rev == "2026-07-28" {
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{META}}}}}"#)
    } else {
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.to_owned()
    };
    server.send(&list);
    let answer = server.line();
    let took = began.elapsed();
    if !answer.contains("get_weather") {
        fail(format!("tools/list: {answer}"));
    }
    server.finish();
    println!(r#"{{"cold_ms":{:.2}}}"#, took.as_secs_f64() * 1e3);
}

fn stdio_hol(rev: &str, n: u64, cmd: &[String]) {
    let mut server = Server::start(cmd);
    server.open(rev);
    // One slow call (2 s) first; the fast ones must not wait behind it.
    server.send(&call(rev, 999_999, "slow_weather", r#"{"place":"Paris"}"#));
    let mut times = Vec::with_capacity(n as usize);
    let began_all = Instant::now();
    for i in 0..n {
        let began = Instant::now();
        server.send(&weather(rev, i + 1));
        let mut answer = server.line();
        if answer.contains("999999") {
            fail("the slow call answered before the fast ones ended: raise its time");
        }
        while !answer.contains(&format!("\"id\":{}", i + 1)) {
            answer = server.line();
        }
        times.push(began.elapsed());
        check(&answer, EXPECTED);
    }
    let fast_done = began_all.elapsed();
    times.sort();
    let slow = server.line();
    check(&slow, "Paris: 21C, clear (slowly)");
    server.finish();
    println!(
        r#"{{"p50_us":{:.1},"p99_us":{:.1},"fast_calls_ms":{:.1}}}"#,
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        fast_done.as_secs_f64() * 1e3
    );
}

/// One HTTP/1.1 response: status, headers, body (Content-Length or chunked).
fn http_response(reader: &mut BufReader<TcpStream>) -> (u16, String, Vec<u8>) {
    let (status, content_type, body, _) = http_response_with_session(reader);
    (status, content_type, body)
}

/// A response with its `Mcp-Session-Id`, if any.
fn http_response_with_session(
    reader: &mut BufReader<TcpStream>,
) -> (u16, String, Vec<u8>, Option<String>) {
    let mut session = None;
    let mut status_line = String::new();
    reader
        .read_line(&mut status_line)
        .unwrap_or_else(|e| fail(e));
    let status: u16 = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| fail(format!("status: {status_line:?}")));
    let (mut length, mut chunked, mut content_type) = (None, false, String::new());
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap_or_else(|e| fail(e));
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':').unwrap_or((line, ""));
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse::<usize>().ok(),
            "transfer-encoding" => chunked = value.to_ascii_lowercase().contains("chunked"),
            "content-type" => content_type = value.trim().to_owned(),
            "mcp-session-id" => session = Some(value.trim().to_owned()),
            _ => {}
        }
    }
    let mut body = Vec::new();
    if let Some(length) = length {
        body.resize(length, 0);
        reader.read_exact(&mut body).unwrap_or_else(|e| fail(e));
    } else if chunked {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).unwrap_or_else(|e| fail(e));
            let size = usize::from_str_radix(size.trim(), 16)
                .unwrap_or_else(|_| fail(format!("chunk size {size:?}")));
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk).unwrap_or_else(|e| fail(e));
            if size == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    }
    (status, content_type, body, session)
}

fn port_of(url: &str) -> u16 {
    url.rsplit(':')
        .next()
        .and_then(|p| p.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| fail(format!("url {url}")))
}

fn post(port: u16, headers: &[(&str, &str)], body: &str) -> String {
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    request
}

/// N 2025-11-25 sessions opened (initialize, then initialized) and left open on the server.
fn http_sessions(n: u64, url: &str) {
    let port = port_of(url);
    let stream = TcpStream::connect(("127.0.0.1", port)).unwrap_or_else(|e| fail(e));
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    for i in 0..n {
        let init = format!(
            r#"{{"jsonrpc":"2.0","id":{i},"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{}},"clientInfo":{{"name":"lab","version":"1"}}}}}}"#
        );
        writer
            .write_all(post(port, &[], &init).as_bytes())
            .unwrap_or_else(|e| fail(e));
        let (status, _, body, session) = http_response_with_session(&mut reader);
        let Some(session) = session.filter(|_| status == 200) else {
            fail(format!(
                "initialize: HTTP {status} {}",
                String::from_utf8_lossy(&body)
            ));
        };
        let done = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        let headers = [
            ("Mcp-Session-Id", session.as_str()),
            ("MCP-Protocol-Version", "2025-11-25"),
        ];
        writer
            .write_all(post(port, &headers, done).as_bytes())
            .unwrap_or_else(|e| fail(e));
        let (status, _, body, _) = http_response_with_session(&mut reader);
        if status != 202 && status != 200 {
            fail(format!(
                "initialized: HTTP {status} {}",
                String::from_utf8_lossy(&body)
            ));
        }
    }
    println!(r#"{{"sessions":{n}}}"#);
}

/// N `subscriptions/listen` streams (2026-07-28) opened, each on its own connection, held until
/// stdin ends; prints `{"listening":N}` once every stream has its acknowledgement.
fn http_listen(n: u64, url: &str) {
    let port = port_of(url);
    let mut held = Vec::with_capacity(n as usize);
    for i in 0..n {
        let stream = TcpStream::connect(("127.0.0.1", port)).unwrap_or_else(|e| fail(e));
        let mut writer = stream.try_clone().unwrap();
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{i},"method":"subscriptions/listen","params":{{{META},"notifications":{{"toolsListChanged":true}}}}}}"#
        );
        let headers = [
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "subscriptions/listen"),
        ];
        writer
            .write_all(post(port, &headers, &body).as_bytes())
            .unwrap_or_else(|e| fail(e));
        let mut reader = BufReader::new(stream);
        let mut status = String::new();
        reader.read_line(&mut status).unwrap_or_else(|e| fail(e));
        if !status.contains(" 200 ") {
            fail(format!("listen: {status}"));
        }
        // Headers, then the first event (the acknowledgement).
        let mut saw_data = false;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                fail("listen: the stream ended");
            }
            if line.contains("data:") {
                saw_data = true;
            }
            if saw_data && line.trim().is_empty() {
                break;
            }
        }
        held.push(reader);
    }
    println!(r#"{{"listening":{n}}}"#);
    std::io::stdout().flush().ok();
    let mut rest = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut rest);
    drop(held);
}

/// The JSON-RPC answer in a JSON or SSE body.
fn answer_of(content_type: &str, body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    if content_type.starts_with("text/event-stream") {
        for line in text.lines() {
            if let Some(data) = line.strip_prefix("data:") {
                if data.contains("\"id\"") {
                    return data.trim().to_owned();
                }
            }
        }
        fail(format!("no answer in the stream: {text}"));
    }
    text.into_owned()
}

pub fn http_request(port: u16, rev: &str, body: &str) -> String {
    format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: {rev}\r\nMcp-Method: tools/call\r\nMcp-Name: get_weather\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

fn http_seq(rev: &str, n: u64, url: &str) {
    let port: u16 = url
        .rsplit(':')
        .next()
        .and_then(|p| p.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| fail(format!("url {url}")));
    let stream = TcpStream::connect(("127.0.0.1", port)).unwrap_or_else(|e| fail(e));
    stream.set_nodelay(true).ok();
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    let mut times = Vec::with_capacity(n as usize);
    for i in 0..n {
        let request = http_request(port, rev, &weather(rev, i + 1));
        let began = Instant::now();
        writer
            .write_all(request.as_bytes())
            .unwrap_or_else(|e| fail(e));
        let (status, content_type, body) = http_response(&mut reader);
        times.push(began.elapsed());
        if status != 200 {
            fail(format!("HTTP {status}: {}", String::from_utf8_lossy(&body)));
        }
        check(&answer_of(&content_type, &body), EXPECTED);
    }
    times.sort();
    println!(
        r#"{{"p50_us":{:.1},"p99_us":{:.1},"calls":{n}}}"#,
        percentile(&times, 0.5),
        percentile(&times, 0.99)
    );
}

trait CloneFd {
    fn try_clone_fd(&self) -> std::fs::File;
}

impl CloneFd for ChildStdin {
    fn try_clone_fd(&self) -> std::fs::File {
        use std::os::fd::AsFd;
        std::fs::File::from(
            self.as_fd()
                .try_clone_to_owned()
                .unwrap_or_else(|e| fail(e)),
        )
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cmd = args.iter().position(|a| a == "--").map(|i| &args[i + 1..]);
    let n = |i: usize| {
        args.get(i)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or_else(|| fail("a count"))
    };
    match args.first().map(String::as_str) {
        Some("stdio-seq") => stdio_seq(&args[1], n(2), cmd.unwrap_or_else(|| fail("-- CMD")), true),
        // Exactly N calls (no warm-up): for instruction counts.
        Some("stdio-seq-exact") => {
            stdio_seq(&args[1], n(2), cmd.unwrap_or_else(|| fail("-- CMD")), false)
        }
        Some("stdio-pipe") => stdio_pipe(&args[1], n(2), cmd.unwrap_or_else(|| fail("-- CMD"))),
        Some("stdio-cold") => stdio_cold(&args[1], cmd.unwrap_or_else(|| fail("-- CMD"))),
        Some("stdio-hol") => stdio_hol(&args[1], n(2), cmd.unwrap_or_else(|| fail("-- CMD"))),
        Some("http-seq") => http_seq(&args[1], n(2), &args[3]),
        Some("http-sessions") => http_sessions(n(1), &args[2]),
        Some("http-listen") => http_listen(n(1), &args[2]),
        _ => fail("usage: see the top of bench/lab/src/bin/load.rs"),
    }
}
