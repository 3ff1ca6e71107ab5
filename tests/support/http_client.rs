//! A deliberately small HTTP/1.1 client over a real `TcpStream`, written by hand so tests can
//! send exactly the bytes they mean (repeated headers, dripped bodies, lying lengths) and see
//! exactly what comes back, including whether the server closed the connection.

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
}

/// One connection to the server.
pub struct Connection {
    stream: TcpStream,
    buffer: Vec<u8>,
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
        }
    }

    /// Writes raw bytes.
    pub fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
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
        Some(HttpResponse {
            status,
            headers,
            body,
        })
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

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
