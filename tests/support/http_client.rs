//! A deliberately small HTTP/1.1 client over a real `TcpStream`, written by hand so tests can
//! send exactly the bytes they mean (repeated headers, dripped bodies, lying lengths) and see
//! exactly what comes back, including whether the server closed the connection.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use serde_json::Value;

/// One parsed response.
#[derive(Debug, Clone)]
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// Header (lowercased name, value) pairs, in order.
    pub headers: Vec<(String, String)>,
    /// The body bytes.
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// The first value of header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON (panics with the body when it is not).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "status {}: body is not JSON ({e}): {:?}",
                self.status,
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    /// The JSON-RPC answer a POST got: the body when it is JSON, the last event carrying an
    /// `id` when it is an event stream, `Null` when the body is empty (a 202).
    pub fn answer(&self) -> Value {
        if self.header("content-type") == Some("text/event-stream") {
            let text = String::from_utf8_lossy(&self.body);
            let data = text
                .lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .map(str::trim)
                .rfind(|d| d.contains("\"id\""))
                .unwrap_or("null");
            serde_json::from_str(data).unwrap()
        } else if self.body.is_empty() {
            Value::Null
        } else {
            self.json()
        }
    }
}

/// One connection to the server.
pub struct Connection {
    stream: TcpStream,
    buffer: Vec<u8>,
    /// De-chunked bytes of a streamed body not yet returned as events.
    events: Vec<u8>,
    /// The chunked body ended.
    stream_done: bool,
    /// What each request written and not yet answered asked (its method, if a request, and
    /// its revision): what the server sends back is validated against it.
    asked: VecDeque<Asked>,
    /// What the stream being read answers.
    streaming: Option<Asked>,
}

/// One request's method (`None`: a notification, a response or not JSON-RPC) and revision.
#[derive(Clone, Debug)]
struct Asked {
    method: Option<String>,
    revision: String,
}

impl Asked {
    /// Read off raw request bytes: a request naming a version in `params._meta` is of it; else
    /// the `MCP-Protocol-Version` header; else 2025-11-25 (served with its shapes).
    fn of(bytes: &[u8]) -> Asked {
        let (head, body) = match find(bytes, b"\r\n\r\n") {
            Some(i) => (&bytes[..i], &bytes[i + 4..]),
            None => (bytes, &[][..]),
        };
        let header = String::from_utf8_lossy(head)
            .lines()
            .filter_map(|l| l.split_once(':'))
            .find(|(n, _)| n.trim().eq_ignore_ascii_case("mcp-protocol-version"))
            .map(|(_, v)| v.trim().to_owned());
        let message: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
        let method = message
            .get("id")
            .and(message["method"].as_str())
            .map(str::to_owned);
        let revision = message["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"]
            .as_str()
            .map(str::to_owned)
            .or(header)
            .unwrap_or_else(|| "2025-11-25".to_owned());
        Asked { method, revision }
    }

    /// Validates a message the server sent in answer (see [`crate::check_sent`]); what is not
    /// a JSON-RPC message (a health check, a metadata document) is not held to the schema.
    fn check(&self, data: &[u8]) {
        let Ok(message) = serde_json::from_slice::<Value>(data) else {
            return;
        };
        if message.get("jsonrpc").is_some() {
            crate::check_sent(&self.revision, self.method.as_deref(), &message);
        }
    }
}

impl Connection {
    /// Connects to `addr`.
    pub fn open(addr: SocketAddr) -> Connection {
        let stream = TcpStream::connect(addr).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        stream.set_nodelay(true).unwrap();
        Connection {
            stream,
            buffer: Vec::new(),
            events: Vec::new(),
            stream_done: false,
            asked: VecDeque::new(),
            streaming: None,
        }
    }

    /// True once the server has read every byte sent on this connection (its end's receive
    /// queue is empty): the sign that it has begun a request whose bytes were sent.
    pub fn all_read_by_server(&self) -> bool {
        sockets(self.peer(), self.local())
            .iter()
            .any(|s| s.state == ESTABLISHED && s.unread == 0)
    }

    /// The inode of the server's end of this connection, to see the server close it after this
    /// end is dropped ([`socket_open_here`]).
    pub fn server_socket(&self) -> u64 {
        sockets(self.peer(), self.local())
            .iter()
            .find(|s| s.inode != 0)
            .expect("the server's end, accepted, in /proc/net/tcp")
            .inode
    }

    fn local(&self) -> SocketAddr {
        self.stream.local_addr().unwrap()
    }

    fn peer(&self) -> SocketAddr {
        self.stream.peer_addr().unwrap()
    }

    /// Writes raw bytes.
    pub fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        // A request line starts a request (the rest of a dripped body does not).
        let first_line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
        if first_line.ends_with(b" HTTP/1.1\r") {
            self.asked.push_back(Asked::of(bytes));
        }
        self.stream.write_all(bytes)?;
        self.stream.flush()
    }

    /// Sends a POST to `/mcp` with `headers` (name, value) and `body`, and reads the answer.
    pub fn post(&mut self, headers: &[(&str, &str)], body: &[u8]) -> HttpResponse {
        self.write(&request("POST", headers, body)).expect("write");
        self.read_response().expect("a response")
    }

    /// Reads one response (status line, headers, `content-length` body).
    pub fn read_response(&mut self) -> Option<HttpResponse> {
        let head_end = loop {
            if let Some(i) = find(&self.buffer, b"\r\n\r\n") {
                break i;
            }
            if !self.fill()? {
                return None;
            }
        };
        let head = String::from_utf8_lossy(&self.buffer[..head_end]).into_owned();
        let mut lines = head.split("\r\n");
        let status: u16 = lines.next()?.split(' ').nth(1)?.parse().ok()?;
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        let length: usize = headers
            .iter()
            .find(|(n, _)| n == "content-length")
            .map_or(0, |(_, v)| v.parse().unwrap_or(0));
        let start = head_end + 4;
        while self.buffer.len() < start + length {
            if !self.fill()? {
                return None;
            }
        }
        let body = self.buffer[start..start + length].to_vec();
        self.buffer.drain(..start + length);
        if let Some(asked) = self.asked.pop_front() {
            asked.check(&body);
        }
        Some(HttpResponse {
            status,
            headers,
            body,
        })
    }

    /// Sends a POST whose answer may be a stream, and reads only the status line and headers.
    pub fn post_head(&mut self, headers: &[(&str, &str)], body: &[u8]) -> HttpResponse {
        self.head("POST", headers, body)
    }

    /// Sends a request with any method whose answer may be a stream, and reads only the status
    /// line and headers.
    pub fn head(&mut self, method: &str, headers: &[(&str, &str)], body: &[u8]) -> HttpResponse {
        self.write(&request(method, headers, body)).expect("write");
        let head_end = loop {
            if let Some(i) = find(&self.buffer, b"\r\n\r\n") {
                break i;
            }
            assert!(
                self.fill() == Some(true),
                "the connection ended before the head"
            );
        };
        let head = String::from_utf8_lossy(&self.buffer[..head_end]).into_owned();
        self.buffer.drain(..head_end + 4);
        self.events.clear();
        self.stream_done = false;
        self.streaming = self.asked.pop_front();
        let mut lines = head.split("\r\n");
        let status: u16 = lines
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .and_then(|s| s.parse().ok())
            .expect("a status line");
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        HttpResponse {
            status,
            headers,
            body: Vec::new(),
        }
    }

    /// The next server-sent event of a chunked `text/event-stream` body after
    /// [`post_head`](Self::post_head): its `data:` lines joined, or `None` when the body
    /// ended. Comment lines are skipped.
    pub fn next_event(&mut self) -> Option<String> {
        loop {
            if let Some(end) = find(&self.events, b"\n\n") {
                let event: Vec<u8> = self.events.drain(..end + 2).collect();
                let text = String::from_utf8(event).expect("events are UTF-8");
                let data: Vec<&str> = text
                    .lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .map(str::trim_start)
                    .collect();
                if data.is_empty() {
                    continue; // a comment (keep-alive)
                }
                let data = data.join("\n");
                if let Some(asked) = &self.streaming {
                    asked.check(data.as_bytes());
                }
                return Some(data);
            }
            if self.stream_done || !self.next_chunk() {
                return None;
            }
        }
    }

    /// The next event if one comes within `wait`, or `None`: the stream stays readable after.
    pub fn next_event_within(&mut self, wait: Duration) -> Option<String> {
        self.stream.set_read_timeout(Some(wait)).unwrap();
        let event = self.next_event();
        self.stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        event
    }

    /// Like [`next_event`](Self::next_event), with the event's `id:` (if any); an event with
    /// an id and empty data (a resumption point) is returned too, with `""`.
    pub fn next_event_with_id(&mut self) -> Option<(Option<String>, String)> {
        loop {
            if let Some(end) = find(&self.events, b"\n\n") {
                let event: Vec<u8> = self.events.drain(..end + 2).collect();
                let text = String::from_utf8(event).expect("events are UTF-8");
                let id = text
                    .lines()
                    .find_map(|l| l.strip_prefix("id:"))
                    .map(|v| v.trim().to_owned());
                let data: Vec<&str> = text
                    .lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .map(str::trim_start)
                    .collect();
                if data.is_empty() && id.is_none() {
                    continue; // a comment (keep-alive)
                }
                let data = data.join("\n");
                if let Some(asked) = &self.streaming {
                    asked.check(data.as_bytes());
                }
                return Some((id, data));
            }
            if self.stream_done || !self.next_chunk() {
                return None;
            }
        }
    }

    /// Reads one chunk of a chunked body into `events`; false at the last chunk or EOF.
    fn next_chunk(&mut self) -> bool {
        let line_end = loop {
            if let Some(i) = find(&self.buffer, b"\r\n") {
                break i;
            }
            if self.fill() != Some(true) {
                return false;
            }
        };
        let size_text = String::from_utf8_lossy(&self.buffer[..line_end]).into_owned();
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
            .unwrap_or_else(|_| panic!("a chunk size, not {size_text:?}"));
        while self.buffer.len() < line_end + 2 + size + 2 {
            if self.fill() != Some(true) {
                return false;
            }
        }
        let start = line_end + 2;
        self.events
            .extend_from_slice(&self.buffer[start..start + size]);
        self.buffer.drain(..start + size + 2);
        if size == 0 {
            self.stream_done = true;
            return false;
        }
        true
    }

    /// True when the server has closed the connection: EOF (or a reset) within `wait`; a
    /// read that times out means the connection is still open.
    pub fn is_closed_by_server(&mut self, wait: Duration) -> bool {
        use std::io::ErrorKind::{TimedOut, WouldBlock};
        self.stream.set_read_timeout(Some(wait)).unwrap();
        let mut byte = [0u8; 1];
        let closed = match self.stream.read(&mut byte) {
            Ok(0) => true,
            Ok(_) => false,
            Err(e) => !matches!(e.kind(), WouldBlock | TimedOut),
        };
        self.stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        closed
    }

    fn fill(&mut self) -> Option<bool> {
        let mut chunk = [0u8; 16 * 1024];
        match self.stream.read(&mut chunk) {
            Ok(0) => Some(false),
            Ok(n) => {
                self.buffer.extend_from_slice(&chunk[..n]);
                Some(true)
            }
            Err(_) => None,
        }
    }
}

/// The bytes of an HTTP/1.1 request to `/mcp` with a `content-length`.
pub fn request(method: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut out = format!("{method} /mcp HTTP/1.1\r\n").into_bytes();
    for (name, value) in headers {
        out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
    }
    if !headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("content-length"))
    {
        out.extend_from_slice(format!("content-length: {}\r\n", body.len()).as_bytes());
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(body);
    out
}

const ESTABLISHED: u8 = 0x01;

/// One socket of `/proc/net/tcp`: its state, the bytes its process has not read yet, its inode.
struct Socket {
    state: u8,
    unread: u64,
    inode: u64,
}

/// The sockets at `local` connected to `remote` (Linux: `/proc/net/tcp` and `tcp6`).
fn sockets(local: SocketAddr, remote: SocketAddr) -> Vec<Socket> {
    let port = |field: &str| u16::from_str_radix(field.rsplit_once(':')?.1, 16).ok();
    let mut found = Vec::new();
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let Ok(text) = std::fs::read_to_string(table) else {
            continue;
        };
        for line in text.lines().skip(1) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            // sl, local, remote, state, tx_queue:rx_queue, tr:when, retransmits, uid,
            // timeout, inode, ...
            let [_, at, to, state, queues, _, _, _, _, inode, ..] = fields[..] else {
                continue;
            };
            if port(at) != Some(local.port()) || port(to) != Some(remote.port()) {
                continue;
            }
            let unread = queues
                .split_once(':')
                .and_then(|(_, rx)| u64::from_str_radix(rx, 16).ok());
            if let (Ok(state), Some(unread), Ok(inode)) =
                (u8::from_str_radix(state, 16), unread, inode.parse())
            {
                found.push(Socket {
                    state,
                    unread,
                    inode,
                });
            }
        }
    }
    found
}

/// True while a descriptor of this process refers to socket `inode` (Linux: `/proc/self/fd`):
/// for a server running in the test process, false once it has closed that connection.
pub fn socket_open_here(inode: u64) -> bool {
    let name = format!("socket:[{inode}]");
    std::fs::read_dir("/proc/self/fd")
        .expect("/proc/self/fd")
        .filter_map(Result::ok)
        .any(|fd| {
            std::fs::read_link(fd.path()).is_ok_and(|target| target.as_os_str() == name.as_str())
        })
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
