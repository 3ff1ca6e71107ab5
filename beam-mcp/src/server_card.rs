//! The Server Card (SEP-2127): a static document describing a server for discovery before a
//! client connects (its name, version, description and the endpoint with the protocol
//! versions it serves), in the shape of the experimental-ext-server-card repository's
//! `schema.json` (v2, `$schema`
//! `https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json`; draft, commit
//! 056d9f2). Written as canonical JSON with its SHA-256, so a host's test pins it as it pins
//! the catalog export; the HTTP endpoint serves it at `<endpoint>/server-card`
//! ([`HttpBuilder::server_card`](crate::transport::http::HttpBuilder::server_card), feature
//! `http`).
//!
//! The card lists no tools, resources or prompts (the schema leaves them to the protocol's
//! lists); its `_meta` carries the SHA-256 of the canonical catalog export at each revision
//! (`beam-mcp/advertised`), so the card changes when the surface does.

use std::path::{Path, PathBuf};

use beam_mcp_connectome::{Algorithm, canonical};
use serde_json::{Map, Value, json};

use crate::advertised::{Advertised, AdvertisedError};
use crate::pin::Pinned;
use crate::server::Server;

/// The `$schema` of every card: the Server Card schema v2.
pub const SERVER_CARD_SCHEMA: &str =
    "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json";

/// The media type a card is served with (`Content-Type`) and asked for (`Accept`).
pub const SERVER_CARD_MEDIA_TYPE: &str = "application/mcp-server-card+json";

/// The `_meta` key holding the catalog export's digest at each revision.
const ADVERTISED_META: &str = "beam-mcp/advertised";

/// A Server Card as canonical bytes and their SHA-256.
///
/// ```
/// use beam_mcp::{Server, ServerCard};
///
/// /// Says hello.
/// #[beam_mcp::tool(read_only)]
/// fn hello(name: String) -> String {
///     format!("Hello, {name}!")
/// }
///
/// let server = Server::builder()
///     .name("greeter")
///     .version("1.2.0")
///     .description("Greets people by name.")
///     .tool(hello::DEF)
///     .build()?;
/// let card = ServerCard::of(&server, "com.example/greeter", Some("https://mcp.example.com/mcp"))?;
/// let text = std::str::from_utf8(card.bytes())?;
/// assert!(text.contains(r#""name":"com.example/greeter""#));
/// assert!(text.contains(r#""remotes":[{"supportedProtocolVersions":["2026-07-28","2025-11-25"],"type":"streamable-http","url":"https://mcp.example.com/mcp"}]"#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerCard {
    bytes: Vec<u8>,
    digest_hex: String,
}

/// Why a card could not be made, or did not match its pin.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServerCardError {
    /// The name is not reverse-DNS with one `/` (`com.example/weather`), 3 to 200 characters.
    #[error(
        "server card name {0:?}: a reverse-DNS namespace, one '/', and a name (`com.example/weather`), 3 to 200 characters of [a-zA-Z0-9.-] before the '/' and [a-zA-Z0-9._-] after"
    )]
    Name(String),
    /// The server has no description, or one outside 1 to 100 characters (the card requires
    /// one of that length).
    #[error(
        "server card description: {0}; give the server a description of 1 to 100 characters (ServerBuilder::description)"
    )]
    Description(String),
    /// The endpoint's URL is not an `http://` or `https://` URL.
    #[error("server card url {0:?} is not an http:// or https:// URL")]
    Url(String),
    /// The server's version is missing or too long (at most 255 characters).
    #[error("server card version: {0}")]
    Version(String),
    /// Listing the catalog failed.
    #[error(transparent)]
    Advertised(#[from] AdvertisedError),
    /// The card has no canonical bytes.
    #[error("the card has no canonical bytes: {0}")]
    Canonical(#[from] beam_mcp_connectome::CanonicalError),
    /// The pin file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The pin file.
        path: PathBuf,
        /// What failed.
        #[source]
        source: std::io::Error,
    },
    /// No pin file yet (write it with `BEAM_MCP_PIN=overwrite`).
    #[error(
        "{path} does not exist: the card is not pinned (sha256 {digest}); run with BEAM_MCP_PIN=overwrite to write it"
    )]
    NotPinned {
        /// The pin file.
        path: PathBuf,
        /// The digest now.
        digest: String,
    },
    /// The card differs from its pin.
    #[error(
        "the server card changed: {path} pins sha256 {pinned}, the card now is {digest}; review it and run with BEAM_MCP_PIN=overwrite"
    )]
    Changed {
        /// The pin file.
        path: PathBuf,
        /// The pinned digest.
        pinned: String,
        /// The digest now.
        digest: String,
    },
}

impl ServerCard {
    /// The card of `server`, named `name` (`com.example/weather`), reached at `url` (its
    /// Streamable HTTP endpoint, when it has one): the server's version, title, description,
    /// icons and website from its builder, the revisions it serves, and the digest of its
    /// catalog export at each.
    pub fn of(
        server: &Server,
        name: &str,
        url: Option<&str>,
    ) -> Result<ServerCard, ServerCardError> {
        let exports = server
            .revisions()
            .iter()
            .map(|&revision| Advertised::of(server, revision))
            .collect::<Result<Vec<_>, _>>()?;
        ServerCard::from_info(name, server.info(), url, &exports)
    }

    /// The card of a server whose `serverInfo` is `info` (as `server/discover` or
    /// `initialize` gave it), reached at `url`, whose catalog exports are `exports` (one per
    /// revision it serves, in its order): what `cargo beam-mcp card` makes of a running server.
    ///
    /// ```
    /// use beam_mcp::ServerCard;
    /// let info = serde_json::json!({ "name": "weather", "version": "0.3.0", "description": "Weather by city." });
    /// let card = ServerCard::from_info("com.example/weather", &info, None, &[])?;
    /// assert_eq!(card.digest_hex().len(), 64);
    /// # Ok::<(), beam_mcp::ServerCardError>(())
    /// ```
    pub fn from_info(
        name: &str,
        info: &Value,
        url: Option<&str>,
        exports: &[Advertised],
    ) -> Result<ServerCard, ServerCardError> {
        if !valid_name(name) {
            return Err(ServerCardError::Name(name.to_owned()));
        }
        let text = |key: &str| info.get(key).and_then(Value::as_str);
        let description = text("description")
            .ok_or_else(|| ServerCardError::Description("the server has none".into()))?;
        let length = description.chars().count();
        if !(1..=100).contains(&length) {
            return Err(ServerCardError::Description(format!("{length} characters")));
        }
        let version = text("version")
            .ok_or_else(|| ServerCardError::Version("the server has none".into()))?;
        if version.chars().count() > 255 {
            return Err(ServerCardError::Version(
                "longer than 255 characters".into(),
            ));
        }
        let mut card = Map::new();
        card.insert("$schema".into(), json!(SERVER_CARD_SCHEMA));
        card.insert("name".into(), json!(name));
        card.insert("version".into(), json!(version));
        card.insert("description".into(), json!(description));
        if let Some(title) = text("title").filter(|t| (1..=100).contains(&t.chars().count())) {
            card.insert("title".into(), json!(title));
        }
        if let Some(icons) = info.get("icons").filter(|i| i.is_array()) {
            card.insert("icons".into(), icons.clone());
        }
        if let Some(website) = text("websiteUrl") {
            card.insert("websiteUrl".into(), json!(website));
        }
        if let Some(url) = url {
            let web = url
                .strip_prefix("https://")
                .or_else(|| url.strip_prefix("http://"))
                .is_some_and(|rest| !rest.is_empty() && !rest.chars().any(char::is_whitespace));
            if !web {
                return Err(ServerCardError::Url(url.to_owned()));
            }
            let versions: Vec<&str> = exports.iter().map(|e| e.revision().as_str()).collect();
            let mut remote = json!({ "type": "streamable-http", "url": url });
            if !versions.is_empty() {
                remote["supportedProtocolVersions"] = json!(versions);
            }
            card.insert("remotes".into(), json!([remote]));
        }
        if !exports.is_empty() {
            let digests: Map<String, Value> = exports
                .iter()
                .map(|e| (e.revision().as_str().to_owned(), json!(e.digest_hex())))
                .collect();
            card.insert("_meta".into(), json!({ ADVERTISED_META: digests }));
        }
        let bytes = canonical::encode_value_with_floats(&Value::Object(card))?;
        let digest_hex = canonical::hash_hex(&bytes, Algorithm::Sha256);
        Ok(ServerCard { bytes, digest_hex })
    }

    /// The canonical bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Their SHA-256, lowercase hex.
    pub fn digest_hex(&self) -> &str {
        &self.digest_hex
    }

    /// Compares the bytes with the file at `path`; with `BEAM_MCP_PIN=overwrite`, writes them
    /// there instead (as [`Advertised::check_pinned`]).
    pub fn check_pinned(&self, path: impl AsRef<Path>) -> Result<(), ServerCardError> {
        let path = path.as_ref();
        match crate::pin::compare(path, &self.bytes) {
            Ok(Pinned::Same) => Ok(()),
            Ok(Pinned::Missing) => Err(ServerCardError::NotPinned {
                path: path.to_owned(),
                digest: self.digest_hex.clone(),
            }),
            Ok(Pinned::Differs(pinned)) => Err(ServerCardError::Changed {
                path: path.to_owned(),
                pinned: canonical::hash_hex(&pinned, Algorithm::Sha256),
                digest: self.digest_hex.clone(),
            }),
            Err(source) => Err(ServerCardError::Io {
                path: path.to_owned(),
                source,
            }),
        }
    }
}

/// `^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`, 3 to 200 characters.
fn valid_name(name: &str) -> bool {
    let Some((namespace, rest)) = name.split_once('/') else {
        return false;
    };
    (3..=200).contains(&name.len())
        && !namespace.is_empty()
        && !rest.is_empty()
        && namespace
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
        && rest
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_name_is_reverse_dns_with_one_slash() {
        assert!(valid_name("com.example/weather"));
        assert!(valid_name("io.github.user/my_server-2.0"));
        for bad in [
            "weather",
            "a/",
            "/b",
            "com.example/a/b",
            "com example/x",
            "a/b c",
            "x/",
        ] {
            assert!(!valid_name(bad), "{bad}");
        }
        assert!(!valid_name(&format!("a/{}", "b".repeat(199))));
    }

    #[test]
    fn a_card_without_a_fitting_description_is_refused_with_the_fix() {
        let info = json!({ "name": "w", "version": "1" });
        let error = ServerCard::from_info("com.example/w", &info, None, &[]).unwrap_err();
        assert!(
            error.to_string().contains("ServerBuilder::description"),
            "{error}"
        );
        let long = json!({ "name": "w", "version": "1", "description": "x".repeat(101) });
        assert!(matches!(
            ServerCard::from_info("com.example/w", &long, None, &[]),
            Err(ServerCardError::Description(_))
        ));
        let info = json!({ "name": "w", "version": "1", "description": "d" });
        assert!(matches!(
            ServerCard::from_info("com.example/w", &info, Some("ftp://x"), &[]),
            Err(ServerCardError::Url(_))
        ));
    }
}
