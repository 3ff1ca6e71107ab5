//! The checks made before the body is read: Origin, Host, method, framing. A refusal here
//! closes the connection, because the unread body would otherwise be parsed as the next
//! request.

use axum::http::request::Parts;
use axum::http::{Method, header};

use super::refusal::HttpRefusal;
use crate::protocol::ProtocolError;

/// Which `Origin` values are served. An absent `Origin` (a non-browser client) always passes.
///
/// ```
/// use beam_mcp::transport::http::Origins;
/// let o = Origins::list(["https://app.example"]);
/// assert!(o.allows("https://APP.example"));
/// assert!(!o.allows("https://evil.example"));
/// assert!(Origins::Loopback.allows("http://127.0.0.1:5173"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Origins {
    /// Exactly these origins (`scheme://host[:port]`, compared ignoring ASCII case).
    List(Vec<String>),
    /// `http` or `https` origins on `localhost`, `127.0.0.1` or `[::1]`, any port: a local
    /// development setup.
    Loopback,
    /// Any origin: for an endpoint that authenticates every request and is meant for
    /// browsers on any site. Chosen explicitly, never a default.
    Any,
}

impl Origins {
    /// Exactly these origins.
    pub fn list<I: IntoIterator<Item = S>, S: Into<String>>(origins: I) -> Self {
        Origins::List(origins.into_iter().map(Into::into).collect())
    }

    /// True when `origin` is served.
    pub fn allows(&self, origin: &str) -> bool {
        match self {
            Origins::Any => true,
            Origins::List(list) => list.iter().any(|o| o.eq_ignore_ascii_case(origin)),
            Origins::Loopback => {
                let rest = origin
                    .strip_prefix("http://")
                    .or_else(|| origin.strip_prefix("https://"));
                rest.is_some_and(is_loopback_authority)
            }
        }
    }
}

/// Which `Host` values are served (DNS-rebinding protection).
///
/// ```
/// use beam_mcp::transport::http::Hosts;
/// assert!(Hosts::Loopback.allows("localhost:8080"));
/// assert!(Hosts::Loopback.allows("[::1]:3000"));
/// assert!(!Hosts::Loopback.allows("evil.example.com"));
/// assert!(Hosts::list(["mcp.example.com"]).allows("MCP.example.com"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Hosts {
    /// `localhost`, `127.0.0.1` or `[::1]`, with any port or none (the default: right for a
    /// server bound to loopback, and refusing everything else).
    #[default]
    Loopback,
    /// Exactly these `host[:port]` values, compared ignoring ASCII case.
    List(Vec<String>),
    /// Any host: for an endpoint behind a proxy that checks `Host` itself.
    Any,
}

impl Hosts {
    /// Exactly these hosts.
    pub fn list<I: IntoIterator<Item = S>, S: Into<String>>(hosts: I) -> Self {
        Hosts::List(hosts.into_iter().map(Into::into).collect())
    }

    /// True when `host` is served.
    pub fn allows(&self, host: &str) -> bool {
        match self {
            Hosts::Any => true,
            Hosts::List(list) => list.iter().any(|h| h.eq_ignore_ascii_case(host)),
            Hosts::Loopback => is_loopback_authority(host),
        }
    }
}

/// `localhost`, `127.0.0.1` or `[::1]`, optionally with a numeric port, and nothing else.
fn is_loopback_authority(authority: &str) -> bool {
    // "[::1]" alone has colons inside the brackets: only split after the closing bracket.
    if authority == "[::1]" {
        return true;
    }
    // Bytes, not chars: this runs on every request, and `:` is ASCII.
    let bytes = authority.as_bytes();
    let (host, port) = match bytes.iter().rposition(|&b| b == b':') {
        Some(colon) if colon > 0 && bytes[colon - 1] != b':' => {
            (&authority[..colon], Some(&bytes[colon + 1..]))
        }
        _ => (authority, None),
    };
    let host_ok = host == "127.0.0.1" || host.eq_ignore_ascii_case("localhost") || host == "[::1]";
    host_ok && port.is_none_or(is_port)
}

/// Decimal digits naming a port (0 to 65535; leading zeros allowed, as `u16::from_str` allows).
fn is_port(digits: &[u8]) -> bool {
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let significant = &digits[digits.iter().take_while(|&&d| d == b'0').count()..];
    significant.len() <= 5
        && significant
            .iter()
            .fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'))
            <= u32::from(u16::MAX)
}

/// A refusal issued before the body was read.
pub(crate) struct Early {
    pub(crate) status: u16,
    pub(crate) error: HttpRefusal,
    /// Set on 405: the methods the endpoint answers.
    pub(crate) allow: bool,
}

impl Early {
    fn new(status: u16, error: impl Into<HttpRefusal>) -> Self {
        Early {
            status,
            error: error.into(),
            allow: false,
        }
    }
}

/// Origin, Host, method and framing, in that order; every value of a repeated header.
/// With `sessions` (2025-11-25 sessions served), GET and DELETE naming a session
/// (`Mcp-Session-Id`) pass too.
pub(crate) fn check(
    parts: &Parts,
    origins: &Origins,
    hosts: &Hosts,
    sessions: bool,
) -> Result<(), Early> {
    for value in parts.headers.get_all(header::ORIGIN) {
        let Ok(origin) = std::str::from_utf8(value.as_bytes()) else {
            let error =
                ProtocolError::HeaderMismatch("Origin header value is not valid UTF-8".into());
            return Err(Early::new(400, error));
        };
        if !origins.allows(origin.trim()) {
            return Err(Early::new(403, HttpRefusal::OriginNotAllowed));
        }
    }
    check_host(parts, hosts)?;
    let session_method = sessions
        && (parts.method == Method::GET || parts.method == Method::DELETE)
        && parts.headers.contains_key("mcp-session-id");
    if parts.method != Method::POST && !session_method {
        let mut early = Early::new(
            405,
            HttpRefusal::HttpMethodNotAllowed(parts.method.to_string()),
        );
        early.allow = true;
        return Err(early);
    }
    if parts.headers.contains_key(header::TRANSFER_ENCODING) {
        return Err(Early::new(411, HttpRefusal::TransferEncodingRefused));
    }
    Ok(())
}

fn check_host(parts: &Parts, hosts: &Hosts) -> Result<(), Early> {
    if matches!(hosts, Hosts::Any) {
        return Ok(());
    }
    // An absolute-form target (`POST http://host/mcp`) names the host itself, and wins over
    // the header (RFC 9112 §3.2.2): check it too.
    if let Some(authority) = parts.uri.authority()
        && !hosts.allows(authority.as_str())
    {
        return Err(Early::new(403, HttpRefusal::HostNotAllowed));
    }
    let headers = &parts.headers;
    let mut seen = false;
    for value in headers.get_all(header::HOST) {
        seen = true;
        let host = std::str::from_utf8(value.as_bytes()).unwrap_or("");
        if !hosts.allows(host.trim()) {
            return Err(Early::new(403, HttpRefusal::HostNotAllowed));
        }
    }
    // Without a Host there is nothing to check the request against: refuse, not guess.
    if !seen {
        return Err(Early::new(400, HttpRefusal::HostNotAllowed));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_authorities() {
        for ok in [
            "localhost",
            "localhost:1",
            "LOCALHOST:65535",
            "127.0.0.1",
            "127.0.0.1:8080",
            "[::1]",
            "[::1]:3000",
        ] {
            assert!(is_loopback_authority(ok), "{ok}");
        }
        for bad in [
            "evil.example.com",
            "localhost.evil.com",
            "127.0.0.1.evil.com:80",
            "127.0.0.2:80",
            "localhost:",
            "localhost:abc",
            "localhost:123456",
            "localhost:99999",
            "localhost:+80",
            "[::2]:80",
            "",
            "::1",
            "localhost:80:80",
        ] {
            assert!(!is_loopback_authority(bad), "{bad}");
        }
    }

    #[test]
    fn ports_are_what_u16_reads_from_digits() {
        let mut cases: Vec<String> = [
            "",
            "0",
            "00000",
            "0000065535",
            "65535",
            "65536",
            "99999",
            "100000",
            "000001",
            "4294967296",
            "18446744073709551616",
            "+1",
            "-1",
            "1 ",
            "８０",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        cases.extend((0..70_000u32).step_by(7).map(|n| n.to_string()));
        cases.extend((0..12).map(|zeros| format!("{}{}", "0".repeat(zeros), 6553 + zeros)));
        for case in cases {
            let expected = case.bytes().all(|b| b.is_ascii_digit()) && case.parse::<u16>().is_ok();
            assert_eq!(is_port(case.as_bytes()), expected, "{case:?}");
        }
    }

    #[test]
    fn origins() {
        assert!(Origins::Loopback.allows("https://localhost"));
        assert!(!Origins::Loopback.allows("file://localhost"));
        assert!(!Origins::Loopback.allows("null"));
        assert!(!Origins::list(["https://a.example"]).allows("https://a.example.evil"));
        assert!(Origins::Any.allows("null"));
    }
}
