//! Entry points for the fuzz targets under `fuzz/` into parsers that are not public (the list
//! cursor, the HTTP header rules). Compiled only under `--cfg fuzzing`, which `cargo fuzz` sets,
//! so no host build ever has them.

#![allow(missing_docs, unreachable_pub)]

use serde_json::Value;

use crate::protocol::{Reply, Session};
use crate::server::Server;

/// The key a list cursor names, if `text` is a cursor of list `kind`.
pub fn decode_cursor(kind: &str, text: &str) -> Option<String> {
    crate::protocol::cursor::decode(kind, text).ok()
}

/// The cursor of list `kind` after `key`.
pub fn encode_cursor(kind: &str, key: &str) -> String {
    crate::protocol::cursor::encode(kind, key)
}

/// One POST body through the core with the HTTP header rules, as the endpoint calls them;
/// header pairs that are not valid HTTP are left out, as hyper would refuse them first.
#[cfg(feature = "http")]
pub fn through_header_rules(
    server: &Server,
    session: &Session,
    headers: &[(&[u8], &[u8])],
    message: Value,
) -> Reply {
    use axum::http::{HeaderMap, HeaderName, HeaderValue};
    let mut map = HeaderMap::new();
    for (name, value) in headers {
        if let (Ok(name), Ok(value)) =
            (HeaderName::from_bytes(name), HeaderValue::from_bytes(value))
        {
            map.append(name, value);
        }
    }
    let rules = crate::transport::http::headers::HeaderRules {
        headers: &map,
        extensions: &axum::http::Extensions::new(),
        version: axum::http::Version::HTTP_11,
        server,
    };
    server.handle_value_through(session, message, &rules)
}
