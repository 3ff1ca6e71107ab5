//! The canonical catalog export: what a server advertises at one revision (`tools/list`,
//! `resources/list`, `resources/templates/list`, `prompts/list`, every page), as canonical JSON
//! with its SHA-256, for a host's test to pin so that a change to the advertised surface
//! fails review.

use std::path::{Path, PathBuf};

use beam_mcp_connectome::{Algorithm, canonical};
use serde_json::{Map, Value, json};

use crate::pin::{PIN_ENV, Pinned};
use crate::protocol::{Reply, Revision, Session};
use crate::server::Server;

/// The four list methods and the member of the export each fills.
const LISTS: [(&str, &str); 4] = [
    ("tools/list", "tools"),
    ("resources/list", "resources"),
    ("resources/templates/list", "resourceTemplates"),
    ("prompts/list", "prompts"),
];

/// What a server advertises at one revision, as canonical bytes (the rules of
/// `docs/connectome-canonical.md`, numbers as RFC 8785 writes them) and their SHA-256.
///
/// The bytes are one object: `revision`, and `tools`, `resources`, `resourceTemplates` and
/// `prompts`, each the concatenation of every page the server lists, in its order (an empty
/// array for a method the server does not serve).
///
/// ```
/// use beam_mcp::{Advertised, Server};
/// use beam_mcp::protocol::Revision;
///
/// /// Says hello.
/// #[beam_mcp::tool(read_only)]
/// fn hello(name: String) -> String {
///     format!("Hello, {name}!")
/// }
///
/// let server = Server::builder().tool(hello::DEF).build()?;
/// let advertised = Advertised::of(&server, Revision::V2026_07_28)?;
/// let text = std::str::from_utf8(advertised.bytes())?;
/// assert!(text.starts_with(r#"{"prompts":[],"resourceTemplates":[],"resources":[],"revision":"2026-07-28","tools":[{"annotations":{"readOnlyHint":true}"#));
/// assert_eq!(advertised.digest_hex().len(), 64);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Advertised {
    revision: Revision,
    bytes: Vec<u8>,
    digest_hex: String,
}

/// Why the advertised catalog could not be exported or did not match its pin.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AdvertisedError {
    /// The server does not serve this revision.
    #[error("the server does not serve revision {0}")]
    Revision(Revision),
    /// A list method answered an error (other than "not served").
    #[error("{method} answered an error: {error}")]
    List {
        /// The method.
        method: &'static str,
        /// The JSON-RPC error it answered.
        error: Value,
    },
    /// The listing has no canonical bytes (a string that is not NFC-distinct, say).
    #[error("the listing has no canonical bytes: {0}")]
    Canonical(#[from] beam_mcp_connectome::CanonicalError),
    /// The pin file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The pin file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// No pin file yet.
    #[error(
        "{path} does not exist: run the test once with {PIN_ENV}=overwrite to pin {digest}, and commit the file"
    )]
    NotPinned {
        /// The pin file.
        path: PathBuf,
        /// The digest it would pin.
        digest: String,
    },
    /// The advertised catalog differs from the pinned one.
    #[error(
        "the advertised catalog changed: {path} pins sha256 {pinned}, the server advertises {digest}; {summary}. If the change is meant, rerun with {PIN_ENV}=overwrite and commit the file"
    )]
    Changed {
        /// The pin file.
        path: PathBuf,
        /// The pinned digest.
        pinned: String,
        /// The digest now.
        digest: String,
        /// Which entries were added, removed or changed.
        summary: String,
    },
}

impl Advertised {
    /// Lists everything `server` advertises at `revision`, through its own core.
    pub fn of(server: &Server, revision: Revision) -> Result<Advertised, AdvertisedError> {
        if !server.revisions().contains(&revision) {
            return Err(AdvertisedError::Revision(revision));
        }
        let client = Client::open(server, revision)?;
        let mut lists = Vec::with_capacity(LISTS.len());
        for (method, member) in LISTS {
            lists.push(client.list_all(method, member)?);
        }
        let [tools, resources, templates, prompts] =
            <[Vec<Value>; 4]>::try_from(lists).unwrap_or_else(|_| unreachable!("four lists"));
        Ok(Advertised::from_lists(
            revision, tools, resources, templates, prompts,
        )?)
    }

    /// The export of four listings as a server answered them at `revision` (every page,
    /// in order): what the client's `advertised` builds from a server it is connected to, byte
    /// for byte what [`Advertised::of`] builds in process.
    pub(crate) fn from_lists(
        revision: Revision,
        tools: Vec<Value>,
        resources: Vec<Value>,
        templates: Vec<Value>,
        prompts: Vec<Value>,
    ) -> Result<Advertised, beam_mcp_connectome::CanonicalError> {
        let mut export = Map::new();
        export.insert("revision".into(), Value::from(revision.as_str()));
        for ((_, member), items) in LISTS.iter().zip([tools, resources, templates, prompts]) {
            export.insert((*member).into(), Value::Array(items));
        }
        let bytes = canonical::encode_value_with_floats(&Value::Object(export))?;
        let digest_hex = canonical::hash_hex(&bytes, Algorithm::Sha256);
        Ok(Advertised {
            revision,
            bytes,
            digest_hex,
        })
    }

    /// The revision listed.
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// The canonical bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Their SHA-256, lowercase hex.
    pub fn digest_hex(&self) -> &str {
        &self.digest_hex
    }

    /// Compares the bytes with the file at `path` (which holds exactly the canonical bytes);
    /// with `BEAM_MCP_PIN=overwrite` in the environment, writes them there instead. A
    /// difference names the entries added, removed and changed.
    pub fn check_pinned(&self, path: impl AsRef<Path>) -> Result<(), AdvertisedError> {
        let path = path.as_ref();
        match crate::pin::compare(path, &self.bytes) {
            Ok(Pinned::Same) => Ok(()),
            Ok(Pinned::Missing) => Err(AdvertisedError::NotPinned {
                path: path.to_owned(),
                digest: self.digest_hex.clone(),
            }),
            Ok(Pinned::Differs(pinned)) => Err(AdvertisedError::Changed {
                path: path.to_owned(),
                pinned: canonical::hash_hex(&pinned, Algorithm::Sha256),
                digest: self.digest_hex.clone(),
                summary: summarize(&pinned, &self.bytes),
            }),
            Err(source) => Err(AdvertisedError::Io {
                path: path.to_owned(),
                source,
            }),
        }
    }

    /// Writes the bytes to `path` (creating its folder): the pin [`check_pinned`] compares
    /// with. What `BEAM_MCP_PIN=overwrite` does.
    ///
    /// [`check_pinned`]: Advertised::check_pinned
    pub fn write_pin(&self, path: impl AsRef<Path>) -> Result<(), AdvertisedError> {
        let path = path.as_ref();
        crate::pin::write(path, &self.bytes).map_err(|source| AdvertisedError::Io {
            path: path.to_owned(),
            source,
        })
    }
}

/// "added tool x; removed prompt y; changed tool z", by each entry's name or URI.
fn summarize(pinned: &[u8], now: &[u8]) -> String {
    let Ok(pinned) = serde_json::from_slice::<Value>(pinned) else {
        return "the pinned file is not JSON".into();
    };
    let now: Value = serde_json::from_slice(now).unwrap_or_default();
    let mut parts = Vec::new();
    if pinned.get("revision") != now.get("revision") {
        parts.push("the revision differs".to_owned());
    }
    for (_, member) in LISTS {
        let entries = |v: &Value| -> Vec<(String, Value)> {
            let list = v
                .get(member)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            list.into_iter()
                .map(|entry| {
                    let key = ["uri", "uriTemplate", "name"]
                        .iter()
                        .find_map(|k| entry.get(*k).and_then(Value::as_str))
                        .unwrap_or("?")
                        .to_owned();
                    (key, entry)
                })
                .collect()
        };
        let (before, after) = (entries(&pinned), entries(&now));
        let find = |list: &[(String, Value)], key: &str| {
            list.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
        };
        for (key, entry) in &after {
            match find(&before, key) {
                None => parts.push(format!("added {member} {key:?}")),
                Some(old) if &old != entry => parts.push(format!("changed {member} {key:?}")),
                Some(_) => {}
            }
        }
        for (key, _) in &before {
            if find(&after, key).is_none() {
                parts.push(format!("removed {member} {key:?}"));
            }
        }
    }
    if parts.is_empty() {
        "the entries are the same but their order or bytes differ".into()
    } else {
        parts.join("; ")
    }
}

/// A client of the server's own core, at one revision.
struct Client<'s> {
    server: &'s Server,
    session: Session,
    revision: Revision,
}

impl<'s> Client<'s> {
    fn open(server: &'s Server, revision: Revision) -> Result<Client<'s>, AdvertisedError> {
        let client = Client {
            server,
            session: Session::new(),
            revision,
        };
        if !revision.is_stateless() {
            let hello = json!({
                "protocolVersion": revision.as_str(),
                "capabilities": {},
                "clientInfo": { "name": "beam-mcp advertised", "version": env!("CARGO_PKG_VERSION") },
            });
            client.request("initialize", hello)?;
            let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
            let _ = client.server.handle_value(&client.session, initialized);
        }
        Ok(client)
    }

    /// Every page of one list method, concatenated; empty when the method is not served.
    fn list_all(&self, method: &'static str, member: &str) -> Result<Vec<Value>, AdvertisedError> {
        let mut entries = Vec::new();
        let mut cursor: Option<Value> = None;
        loop {
            let params = match cursor.take() {
                Some(cursor) => json!({ "cursor": cursor }),
                None => json!({}),
            };
            let result = match self.request(method, params) {
                Ok(result) => result,
                Err(AdvertisedError::List { error, .. })
                    if error.get("code") == Some(&json!(-32601)) =>
                {
                    return Ok(entries);
                }
                Err(e) => return Err(e),
            };
            if let Some(Value::Array(page)) = result.get(member) {
                entries.extend(page.iter().cloned());
            }
            match result.get("nextCursor") {
                Some(next @ Value::String(_)) => cursor = Some(next.clone()),
                _ => return Ok(entries),
            }
        }
    }

    fn request(&self, method: &'static str, mut params: Value) -> Result<Value, AdvertisedError> {
        if self.revision.is_stateless() {
            params["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": self.revision.as_str(),
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": { "name": "beam-mcp advertised", "version": env!("CARGO_PKG_VERSION") },
            });
        }
        let message = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
        let response = match self.server.handle_value(&self.session, message) {
            Reply::Ready(response) => response.to_value(),
            // The list methods and `initialize` answer at once; nothing else is sent here.
            _ => {
                return Err(AdvertisedError::List {
                    method,
                    error: json!("no immediate answer"),
                });
            }
        };
        match response.get("result") {
            Some(result) => Ok(result.clone()),
            None => Err(AdvertisedError::List {
                method,
                error: response.get("error").cloned().unwrap_or(Value::Null),
            }),
        }
    }
}
