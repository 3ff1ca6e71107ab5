//! OAuth 2.1 for a protected HTTP endpoint (feature `client-http`): a `401` (or a `403` with
//! `insufficient_scope`) names the server's RFC 9728 metadata in `WWW-Authenticate`; the client
//! reads it and asks the host's token source for a token for that resource, its authorization
//! servers and scopes, then sends the request again with it. How the token is got (a browser,
//! a client-credentials grant, a vault) is the host's: the client never sees a secret but the
//! token.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::Value;

/// What a protected endpoint said it wants, for the host's token source: the resource (RFC 8707
/// `resource` of the token request), the authorization servers that issue for it, the scopes it
/// asks, and why it refused (`invalid_token`, `insufficient_scope`, or nothing for a first
/// request).
///
/// ```
/// use beam_mcp::client::Challenge;
/// let challenge = Challenge::default();
/// assert!(challenge.authorization_servers.is_empty());
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct Challenge {
    /// The protected resource's identifier, from its metadata (`resource`).
    pub resource: Option<String>,
    /// The authorization servers that issue tokens for it (`authorization_servers`).
    pub authorization_servers: Vec<String>,
    /// The scopes asked: the challenge's `scope`, else the metadata's `scopes_supported`.
    pub scopes: Vec<String>,
    /// The challenge's `error`, when it gave one.
    pub error: Option<String>,
    /// The metadata document as the server wrote it, when it was read.
    pub metadata: Option<Value>,
}

/// The host's token source: a challenge in, a bearer token (or why there is none) out.
pub(crate) type TokenSource = Arc<
    dyn Fn(Challenge) -> Pin<Box<dyn Future<Output = Result<String, String>> + Send>> + Send + Sync,
>;

/// The parameters of a `Bearer` challenge (`WWW-Authenticate: Bearer k="v", k2="v2"`), by name.
pub(crate) fn bearer_parameters(header: &str) -> Vec<(String, String)> {
    let Some(rest) = header
        .trim()
        .strip_prefix("Bearer")
        .or_else(|| header.trim().strip_prefix("bearer"))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut chars = rest.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| *c == ',' || c.is_whitespace()) {
            chars.next();
        }
        let name: String =
            std::iter::from_fn(|| chars.next_if(|c| *c != '=' && *c != ',')).collect();
        if name.is_empty() || chars.next() != Some('=') {
            return out;
        }
        let value = if chars.peek() == Some(&'"') {
            chars.next();
            let mut value = String::new();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => value.extend(chars.next()),
                    '"' => break,
                    c => value.push(c),
                }
            }
            value
        } else {
            std::iter::from_fn(|| chars.next_if(|c| *c != ','))
                .collect::<String>()
                .trim()
                .to_owned()
        };
        out.push((name.trim().to_owned(), value));
    }
}

/// The challenge of a refusal: its parameters, and the metadata document when it was read.
pub(crate) fn challenge(parameters: &[(String, String)], metadata: Option<Value>) -> Challenge {
    let find = |key: &str| {
        parameters
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    };
    let strings = |key: &str| -> Vec<String> {
        metadata
            .as_ref()
            .and_then(|m| m.get(key))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect()
    };
    let scopes = match find("scope") {
        Some(scope) => scope.split_whitespace().map(str::to_owned).collect(),
        None => strings("scopes_supported"),
    };
    Challenge {
        resource: metadata
            .as_ref()
            .and_then(|m| m.get("resource"))
            .and_then(Value::as_str)
            .map(str::to_owned),
        authorization_servers: strings("authorization_servers"),
        scopes,
        error: find("error"),
        metadata,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_bearer_challenge_reads_as_its_parameters() {
        let header = r#"Bearer resource_metadata="http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp", scope="notes:read notes:write", error="insufficient_scope", error_description="a \"quoted\" word""#;
        let parameters = bearer_parameters(header);
        assert_eq!(
            parameters[0],
            (
                "resource_metadata".into(),
                "http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp".into()
            )
        );
        assert_eq!(parameters[3].1, "a \"quoted\" word");
        let metadata = json!({ "resource": "http://127.0.0.1:9/mcp", "authorization_servers": ["https://auth.example"], "scopes_supported": ["notes:read"] });
        let read = challenge(&parameters, Some(metadata));
        assert_eq!(read.resource.as_deref(), Some("http://127.0.0.1:9/mcp"));
        assert_eq!(read.authorization_servers, ["https://auth.example"]);
        assert_eq!(read.scopes, ["notes:read", "notes:write"]);
        assert_eq!(read.error.as_deref(), Some("insufficient_scope"));
        assert!(bearer_parameters("Basic realm=x").is_empty());
    }
}
