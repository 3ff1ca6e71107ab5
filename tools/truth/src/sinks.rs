//! Sinks: the functions of other crates that touch the world (files, processes, the network,
//! the environment, sleeping), and the key a call into one is compared by on both sides.
//!
//! A sink is a function under `std::fs`, `std::process`, `std::net`, `std::env`,
//! `std::thread::sleep`, `tokio::fs`, `tokio::process` or `tokio::net`. Its key is the crate,
//! the family (the module under the crate) and the function's last segment, with its type
//! when it is a method (`std::fs::File::open`): so `tokio::fs::read` (as written) and
//! `tokio::fs::read::read` (where it is defined) agree, and so do `std::net::TcpStream::connect`
//! and `<std::net::tcp::TcpStream>::connect`.

use crate::names::split_path;

/// The families of each crate whose functions are sinks.
const FAMILIES: &[(&str, &[&str])] = &[
    ("std", &["fs", "process", "net", "env"]),
    ("tokio", &["fs", "process", "net"]),
];

/// The sink key of a path (written, or demangled with generic arguments removed), or `None`
/// when the path is no sink.
///
/// ```
/// use beam_mcp_truth::sinks::key;
///
/// assert_eq!(key("std::fs::File::open").as_deref(), Some("std::fs::File::open"));
/// assert_eq!(key("tokio::fs::read::read").as_deref(), Some("tokio::fs::read"));
/// assert_eq!(key("tokio::fs::read"), key("tokio::fs::read::read"));
/// assert_eq!(key("std::net::tcp::TcpStream::connect"), key("std::net::TcpStream::connect"));
/// assert_eq!(key("std::thread::sleep").as_deref(), Some("std::thread::sleep"));
/// assert_eq!(key("std::thread::spawn"), None);
/// assert_eq!(key("core::ptr::drop_in_place"), None);
/// ```
pub fn key(path: &str) -> Option<String> {
    let segments: Vec<String> = split_path(path.trim().trim_start_matches("::"))
        .into_iter()
        .filter(|s| !s.starts_with('<'))
        .map(|s| s.split('<').next().unwrap_or_default().trim().to_owned())
        .collect();
    let [krate, family, .., last] = segments.as_slice() else {
        return None;
    };
    if krate == "std" && family == "thread" && last == "sleep" && segments.len() == 3 {
        return Some("std::thread::sleep".to_owned());
    }
    let families = FAMILIES.iter().find(|(k, _)| k == krate)?.1;
    if !families.contains(&family.as_str()) {
        return None;
    }
    let n = segments.len();
    let tail = match segments.get(n.wrapping_sub(2)) {
        Some(ty) if n >= 4 && ty.starts_with(|c: char| c.is_ascii_uppercase()) => {
            format!("{ty}::{last}")
        }
        _ if n >= 3 => last.clone(),
        _ => return None,
    };
    Some(format!("{krate}::{family}::{tail}"))
}

#[cfg(test)]
mod tests {
    use super::key;

    #[test]
    fn families() {
        assert_eq!(
            key("std::process::Command::new").as_deref(),
            Some("std::process::Command::new")
        );
        assert_eq!(key("std::env::var").as_deref(), Some("std::env::var"));
        assert_eq!(
            key("<tokio::process::Command>::spawn"),
            None,
            "qualified paths are turned into plain ones before"
        );
        assert_eq!(key("std::fs"), None);
        assert_eq!(key(""), None);
        assert_eq!(key("tokio::time::sleep"), None);
        assert_eq!(key("::std::fs::read").as_deref(), Some("std::fs::read"));
    }
}
