//! OAuth 2.1 resource server (DIGEST §A20): bearer JWTs checked before the body is read, and
//! the RFC 9728 protected-resource metadata served for clients to find the authorization
//! server.
//!
//! A token passes when its signature verifies under a key the host gave (a JWK set, a PEM
//! public key, or an HMAC secret), its `iss` is the configured issuer, its `aud` names this
//! server's resource URL (RFC 8707), `exp` and `nbf` hold within a 30 s leeway, and it carries
//! every required scope. Otherwise 401 (`error="invalid_token"` when a token was given), or 403
//! `error="insufficient_scope"`, each with `WWW-Authenticate: Bearer resource_metadata=".."`.

use std::collections::HashSet;
use std::sync::Arc;

use axum::Router;
use axum::http::request::Parts;
use axum::http::{HeaderValue, header};
use axum::response::IntoResponse;
use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::Deserialize;
use serde_json::{Value, json};

use super::Refusal;

/// The well-known path of RFC 9728 metadata.
const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// Seconds of clock skew allowed on `exp` and `nbf`.
const LEEWAY_SECONDS: u64 = 30;

/// Why an [`OAuth`] configuration was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OAuthError {
    /// The resource URL is not an absolute `https://` (or `http://`) URL without a fragment.
    #[error("the resource {0:?} is not an absolute http(s) URL without query or fragment")]
    Resource(String),
    /// The JWK set is not JSON of the RFC 7517 shape, or holds a key that cannot verify.
    #[error("bad JWK set: {0}")]
    BadJwks(String),
    /// A JWK set with several keys has one without a `kid`: a token could not name it.
    #[error("a JWK set with several keys needs a kid on each")]
    MissingKeyId,
    /// A PEM key or HMAC secret that cannot be read.
    #[error("bad key: {0}")]
    BadKey(String),
    /// No verification key was given (`jwks_json`, `rsa_pem`, `ec_pem`, `hmac_secret`).
    #[error(
        "OAuth needs a verification key: .jwks_json(..), .rsa_pem(..), .ec_pem(..) or .hmac_secret(..)"
    )]
    NoKeys,
    /// No authorization server was named (`issuer` or `authorization_server`).
    #[error("OAuth needs .authorization_server(..) or .issuer(..) for the metadata")]
    NoAuthorizationServer,
    /// `offline_access` among the scopes: it is never named in challenges or metadata.
    #[error("offline_access is not a resource scope")]
    OfflineAccess,
    /// No issuer: without one a token of any issuer sharing the keys would be accepted.
    #[error("OAuth needs .issuer(..): the iss every token must carry")]
    NoIssuer,
    /// A scope outside RFC 6749's scope-token grammar (printable ASCII but space, quote and backslash).
    #[error("the scope {0:?} is not a scope token (RFC 6749 §3.3)")]
    Scope(String),
    /// `authorize` (or `authorize_async`) was set too: one would silently replace the other.
    #[error("the endpoint has both .oauth(..) and .authorize(..): keep one")]
    WithAuthorize,
}

/// Who a validated token speaks for: handed to host code as the principal
/// ([`Context::principal::<OAuthPrincipal>`](crate::Context::principal)). Its `Hash` (what a
/// `requestState` binds) covers the issuer and subject only, so a refreshed token with other
/// scopes is the same caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthPrincipal {
    issuer: Option<String>,
    subject: String,
    scopes: Vec<String>,
}

impl OAuthPrincipal {
    /// The token's `iss`, if any.
    pub fn issuer(&self) -> Option<&str> {
        self.issuer.as_deref()
    }

    /// The token's `sub`.
    pub fn subject(&self) -> &str {
        &self.subject
    }

    /// The scopes the token carries (`scope`, space-separated, or `scp`).
    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }
}

impl crate::middleware::Scoped for OAuthPrincipal {
    fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }
}

impl std::hash::Hash for OAuthPrincipal {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.issuer.hash(state);
        self.subject.hash(state);
    }
}

/// A verification key and the algorithms it accepts.
#[derive(Clone)]
struct Key {
    id: Option<String>,
    key: DecodingKey,
    algorithms: Vec<Algorithm>,
}

/// An OAuth 2.1 resource server's configuration, installed with
/// [`HttpBuilder::oauth`](super::HttpBuilder::oauth).
///
/// ```
/// use beam_mcp::transport::http::{Http, OAuth, Origins};
///
/// let jwks = r#"{"keys":[{"kty":"oct","kid":"k1","alg":"HS256","k":"c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA"}]}"#;
/// let oauth = OAuth::resource("https://mcp.example.com/mcp")
///     .issuer("https://auth.example.com")
///     .authorization_server("https://auth.example.com")
///     .jwks_json(jwks)
///     .unwrap()
///     .scopes(["mcp:tools"]);
/// # let server = beam_mcp::Server::builder().build().unwrap();
/// let endpoint = Http::builder(server)
///     .oauth(oauth)
///     .allowed_origins(Origins::Loopback)
///     .build()
///     .unwrap();
/// # let _ = endpoint;
/// ```
#[derive(Clone)]
#[must_use = "an OAuth configuration does nothing until given to HttpBuilder::oauth"]
pub struct OAuth {
    inner: Arc<Config>,
}

#[derive(Clone, Default)]
struct Config {
    resource: String,
    issuer: Option<String>,
    authorization_servers: Vec<String>,
    scopes: Vec<String>,
    /// The scopes the catalog's items declare: published, required only by those items.
    item_scopes: Vec<String>,
    keys: Vec<Key>,
}

impl std::fmt::Debug for OAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuth")
            .field("resource", &self.inner.resource)
            .field("issuer", &self.inner.issuer)
            .field("authorization_servers", &self.inner.authorization_servers)
            .field("scopes", &self.inner.scopes)
            .field("keys", &self.inner.keys.len())
            .finish()
    }
}

impl OAuth {
    /// A resource server for `resource`, this endpoint's canonical URL (what tokens' `aud`
    /// must name), such as `https://mcp.example.com/mcp`.
    pub fn resource(resource: impl Into<String>) -> Self {
        OAuth {
            inner: Arc::new(Config {
                resource: resource.into(),
                ..Config::default()
            }),
        }
    }

    fn config(&mut self) -> &mut Config {
        // Copied only when a clone is changed: each is a configuration of its own.
        Arc::make_mut(&mut self.inner)
    }

    /// The `iss` every token must carry. It is also the authorization server published when
    /// none is set with [`authorization_server`](Self::authorization_server).
    pub fn issuer(mut self, issuer: impl Into<String>) -> Self {
        self.config().issuer = Some(issuer.into());
        self
    }

    /// An authorization server to publish in the metadata (may be repeated).
    pub fn authorization_server(mut self, server: impl Into<String>) -> Self {
        self.config().authorization_servers.push(server.into());
        self
    }

    /// The scopes every token must carry; published as `scopes_supported` and named in
    /// challenges. A token lacking one is answered 403 `insufficient_scope`.
    pub fn scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Self {
        self.config().scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Verification keys from a JWK set (RFC 7517) as JSON: RSA, EC (P-256, P-384), Ed25519 or
    /// HMAC (`oct`, at least 32 bytes) keys. A key's `alg`, when present, is the only algorithm
    /// it accepts. Keys not for signatures (`"use": "enc"`, or `key_ops` without `verify`) are
    /// left out, as an authorization server's published set may hold them; a set with no
    /// signature key is refused.
    ///
    /// ```
    /// use beam_mcp::transport::http::{OAuth, OAuthError};
    /// let bad = OAuth::resource("https://mcp.example.com/mcp").jwks_json("{}").unwrap_err();
    /// assert!(matches!(bad, OAuthError::BadJwks(_)));
    /// ```
    pub fn jwks_json(mut self, jwks: &str) -> Result<Self, OAuthError> {
        let set: JwkSet =
            serde_json::from_str(jwks).map_err(|e| OAuthError::BadJwks(e.to_string()))?;
        let signing: Vec<&Jwk> = set.keys.iter().filter(|k| verifies(k)).collect();
        if signing.is_empty() {
            return Err(OAuthError::BadJwks("no signature keys".into()));
        }
        if signing.len() > 1 && signing.iter().any(|k| k.common.key_id.is_none()) {
            return Err(OAuthError::MissingKeyId);
        }
        for jwk in signing {
            let key = jwk_key(jwk)?;
            self.config().keys.push(key);
        }
        Ok(self)
    }

    /// An RSA public key in PEM (RS256/384/512, PS256/384/512).
    pub fn rsa_pem(self, pem: &[u8]) -> Result<Self, OAuthError> {
        let key = DecodingKey::from_rsa_pem(pem).map_err(|e| OAuthError::BadKey(e.to_string()))?;
        Ok(self.with_key(key))
    }

    /// An EC public key in PEM (ES256, ES384).
    pub fn ec_pem(self, pem: &[u8]) -> Result<Self, OAuthError> {
        let key = DecodingKey::from_ec_pem(pem).map_err(|e| OAuthError::BadKey(e.to_string()))?;
        Ok(self.with_key(key))
    }

    /// A shared HMAC secret (HS256/384/512), at least 32 bytes.
    ///
    /// ```
    /// use beam_mcp::transport::http::OAuth;
    /// let oauth = OAuth::resource("https://mcp.example.com/mcp")
    ///     .issuer("https://auth.example.com")
    ///     .hmac_secret(b"a shared secret of at least 32 bytes")
    ///     .unwrap();
    /// # let _ = oauth;
    /// ```
    pub fn hmac_secret(self, secret: &[u8]) -> Result<Self, OAuthError> {
        if secret.len() < 32 {
            return Err(OAuthError::BadKey(
                "an HMAC secret needs at least 32 bytes".into(),
            ));
        }
        let key =
            DecodingKey::from_secret(secret).map_err(|e| OAuthError::BadKey(e.to_string()))?;
        Ok(self.with_key(key))
    }

    fn with_key(mut self, key: DecodingKey) -> Self {
        let algorithms = key.family().algorithms().to_vec();
        self.config().keys.push(Key {
            id: None,
            key,
            algorithms,
        });
        self
    }

    /// Checks the configuration (at [`HttpBuilder::build`](super::HttpBuilder::build)).
    pub(super) fn check(&self) -> Result<(), OAuthError> {
        let c = &self.inner;
        // The resource goes into a quoted challenge and, its path, into a route: printable
        // ASCII only, and no route pattern characters in the path.
        let printable = |t: &str| {
            t.bytes()
                .all(|b| (0x21..=0x7e).contains(&b) && b != b'"' && b != b'\\')
        };
        let literal_path = |p: &str| !p.contains([':', '*', '{', '}']);
        match split_resource(&c.resource) {
            Some((_, path)) if printable(&c.resource) && literal_path(path) => {}
            _ => return Err(OAuthError::Resource(c.resource.clone())),
        }
        if c.issuer.is_none() {
            return Err(OAuthError::NoIssuer);
        }
        if let Some(bad) = c.scopes.iter().find(|s| s.is_empty() || !printable(s)) {
            return Err(OAuthError::Scope(bad.clone()));
        }
        if c.keys.is_empty() {
            return Err(OAuthError::NoKeys);
        }
        if c.authorization_servers.is_empty() && c.issuer.is_none() {
            return Err(OAuthError::NoAuthorizationServer);
        }
        if c.scopes.iter().any(|s| s == "offline_access") {
            return Err(OAuthError::OfflineAccess);
        }
        Ok(())
    }

    /// The URL of the metadata document (RFC 9728 §3.1: the well-known path inserted between
    /// the host and the resource's path), as named in challenges.
    ///
    /// ```
    /// use beam_mcp::transport::http::OAuth;
    /// let oauth = OAuth::resource("https://mcp.example.com/mcp");
    /// assert_eq!(
    ///     oauth.metadata_url(),
    ///     "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
    /// );
    /// ```
    pub fn metadata_url(&self) -> String {
        let (origin, path) = split_resource(&self.inner.resource).unwrap_or_default();
        format!("{origin}{WELL_KNOWN}{path}")
    }

    /// The RFC 9728 metadata document.
    ///
    /// ```
    /// use beam_mcp::transport::http::OAuth;
    /// let oauth = OAuth::resource("https://mcp.example.com/mcp")
    ///     .authorization_server("https://auth.example.com")
    ///     .scopes(["mcp:tools"]);
    /// assert_eq!(
    ///     oauth.metadata(),
    ///     serde_json::json!({
    ///         "resource": "https://mcp.example.com/mcp",
    ///         "authorization_servers": ["https://auth.example.com"],
    ///         "scopes_supported": ["mcp:tools"],
    ///         "bearer_methods_supported": ["header"],
    ///     })
    /// );
    /// ```
    pub fn metadata(&self) -> Value {
        let c = &self.inner;
        let servers = if c.authorization_servers.is_empty() {
            c.issuer.iter().cloned().collect()
        } else {
            c.authorization_servers.clone()
        };
        let mut doc = json!({
            "resource": c.resource,
            "authorization_servers": servers,
            "bearer_methods_supported": ["header"],
        });
        let mut supported: Vec<&str> = c.scopes.iter().map(String::as_str).collect();
        for scope in &c.item_scopes {
            if !supported.contains(&scope.as_str()) {
                supported.push(scope);
            }
        }
        if !supported.is_empty() {
            doc["scopes_supported"] = json!(supported);
        }
        doc
    }

    /// A router serving [`metadata`](Self::metadata) with `GET` at
    /// `/.well-known/oauth-protected-resource` and at that path followed by the resource's
    /// path (`/.well-known/oauth-protected-resource/mcp`). [`serve`](super::serve) merges it;
    /// a host serving [`Http::router`](super::Http::router) itself merges it at its root.
    pub(crate) fn metadata_router(&self) -> Router {
        let body = self.metadata().to_string();
        let handler = move || {
            let body = body.clone();
            async move {
                let mut response = body.into_response();
                response.headers_mut().insert(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                );
                response
            }
        };
        let (_, path) = split_resource(&self.inner.resource).unwrap_or_default();
        let router = Router::new().route(WELL_KNOWN, axum::routing::get(handler.clone()));
        if path.is_empty() || path == "/" {
            router
        } else {
            router.route(&format!("{WELL_KNOWN}{path}"), axum::routing::get(handler))
        }
    }

    /// The per-item scopes middleware for this resource server: an item's missing scope is
    /// answered 403 with `WWW-Authenticate: Bearer error="insufficient_scope", scope="…",
    /// resource_metadata="…"`, the scope naming this server's own scopes and the item's, so a
    /// client can step up its token. Register it on the server this endpoint serves; the
    /// scopes the catalog's items declare are published in `scopes_supported`.
    ///
    /// ```
    /// use beam_mcp::transport::http::{Http, OAuth, Origins};
    ///
    /// let oauth = OAuth::resource("https://mcp.example.com/mcp")
    ///     .issuer("https://auth.example.com")
    ///     .scopes(["mcp:tools"])
    ///     .hmac_secret(b"an hmac secret of at least 32 bytes")
    ///     .unwrap();
    /// let server = beam_mcp::Server::builder()
    ///     .middleware(oauth.step_up())
    ///     .build()
    ///     .unwrap();
    /// let endpoint = Http::builder(server)
    ///     .oauth(oauth)
    ///     .allowed_origins(Origins::Loopback)
    ///     .build()
    ///     .unwrap();
    /// # let _ = endpoint;
    /// ```
    pub fn step_up(&self) -> crate::middleware::Scopes<OAuthPrincipal> {
        crate::middleware::scopes::<OAuthPrincipal>()
            .bearer_challenge(self.metadata_url(), self.inner.scopes.iter().cloned())
    }

    /// The same configuration, publishing the scopes the catalog's items declare.
    pub(super) fn with_item_scopes(mut self, scopes: Vec<String>) -> Self {
        self.config().item_scopes = scopes;
        self
    }

    /// The `authorize` step: the validated token's principal, or a refusal with its
    /// challenge.
    pub(super) fn authorize(&self, parts: &Parts) -> Result<OAuthPrincipal, Refusal> {
        let c = &self.inner;
        let metadata = self.metadata_url();
        let scope = (!c.scopes.is_empty()).then(|| c.scopes.join(" "));
        let with_scope = |mut challenge: String| {
            if let Some(scope) = &scope {
                challenge.push_str(&format!(r#", scope="{scope}""#));
            }
            challenge
        };
        let Some(token) = bearer(parts) else {
            let challenge = with_scope(format!(r#"Bearer resource_metadata="{metadata}""#));
            return Err(Refusal::unauthorized("no bearer token", challenge));
        };
        let invalid = |why: String| {
            let challenge = with_scope(format!(
                r#"Bearer error="invalid_token", resource_metadata="{metadata}""#
            ));
            Refusal::unauthorized(format!("invalid bearer token: {why}"), challenge)
        };
        let claims = self.validate(token).map_err(invalid)?;
        let granted = claims.scopes();
        let missing = c.scopes.iter().any(|s| !granted.contains(s));
        if missing {
            let challenge = format!(
                r#"Bearer error="insufficient_scope", scope="{}", resource_metadata="{metadata}""#,
                c.scopes.join(" ")
            );
            return Err(Refusal::insufficient_scope(
                "the token lacks a required scope",
                challenge,
            ));
        }
        Ok(OAuthPrincipal {
            issuer: claims.iss,
            subject: claims.sub,
            scopes: granted,
        })
    }

    /// Signature, issuer, audience, expiry and not-before; the claims, or why not.
    fn validate(&self, token: &str) -> Result<Claims, String> {
        let c = &self.inner;
        let head = jsonwebtoken::decode_header(token).map_err(|e| e.to_string())?;
        // An access token is typed `at+jwt` (RFC 9068) or plainly `JWT`; another JWT type (a
        // DPoP proof, a logout or security-event token) signed by the same keys is no access
        // token, whatever its claims.
        if let Some(typ) = &head.typ
            && !ACCESS_TOKEN_TYPES
                .iter()
                .any(|t| t.eq_ignore_ascii_case(typ))
        {
            return Err(format!("typ {typ:?} is not an access token's"));
        }
        let candidates: Vec<&Key> = match &head.kid {
            Some(kid) => c
                .keys
                .iter()
                .filter(|k| k.id.is_none() || k.id.as_deref() == Some(kid))
                .collect(),
            None => c.keys.iter().collect(),
        };
        if candidates.is_empty() {
            return Err(format!("unknown key id {:?}", head.kid));
        }
        let mut last = String::from("no key accepts the token's algorithm");
        for key in candidates {
            if !key.algorithms.contains(&head.alg) {
                continue;
            }
            let mut validation = Validation::new(head.alg);
            validation.leeway = LEEWAY_SECONDS;
            validation.validate_nbf = true;
            validation.set_audience(&[&c.resource]);
            let mut required = vec!["exp", "aud", "sub"];
            if let Some(issuer) = &c.issuer {
                validation.set_issuer(&[issuer]);
                required.push("iss");
            }
            validation.set_required_spec_claims(&required);
            match jsonwebtoken::decode::<Claims>(token, &key.key, &validation) {
                Ok(data) => return Ok(data.claims),
                Err(e) => last = e.to_string(),
            }
        }
        Err(last)
    }
}

/// The `typ` header values of an access token (compared ignoring case); no `typ` is one too.
const ACCESS_TOKEN_TYPES: [&str; 3] = ["at+jwt", "application/at+jwt", "JWT"];

/// The claims read from a token; the rest were checked by `jsonwebtoken`.
#[derive(Deserialize)]
struct Claims {
    sub: String,
    #[serde(default)]
    iss: Option<String>,
    #[serde(default)]
    scope: Option<Scopes>,
    #[serde(default)]
    scp: Option<Scopes>,
}

/// A scope claim as issuers write it: one space-separated string (RFC 8693's `scope`, and
/// `scp` at some issuers) or an array of strings (`scp` at others, `scope` at a few).
#[derive(Deserialize)]
#[serde(untagged)]
enum Scopes {
    Words(String),
    List(Vec<String>),
}

impl Scopes {
    fn words(&self) -> impl Iterator<Item = &str> {
        let all: &[String] = match self {
            Scopes::Words(words) => std::slice::from_ref(words),
            Scopes::List(list) => list,
        };
        all.iter().flat_map(|s| s.split_whitespace())
    }
}

impl Claims {
    fn scopes(&self) -> Vec<String> {
        let mut seen = HashSet::new();
        self.scope
            .iter()
            .chain(&self.scp)
            .flat_map(Scopes::words)
            .filter(|s| seen.insert(*s))
            .map(str::to_owned)
            .collect()
    }
}

/// The token of `Authorization: Bearer <token>` (the scheme case-insensitive).
fn bearer(parts: &Parts) -> Option<&str> {
    let value = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// Whether a JWK is for checking signatures: not marked for encryption or another use, and
/// not limited to operations other than `verify`.
fn verifies(jwk: &Jwk) -> bool {
    use jsonwebtoken::jwk::{KeyOperations, PublicKeyUse};
    let use_fits = matches!(
        jwk.common.public_key_use,
        None | Some(PublicKeyUse::Signature)
    );
    let ops_fit = jwk
        .common
        .key_operations
        .as_ref()
        .is_none_or(|ops| ops.contains(&KeyOperations::Verify));
    use_fits && ops_fit
}

fn jwk_key(jwk: &Jwk) -> Result<Key, OAuthError> {
    if let jsonwebtoken::jwk::AlgorithmParameters::OctetKey(oct) = &jwk.algorithm {
        use base64::Engine as _;
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(oct.value.trim_end_matches('='))
            .map_err(|_| OAuthError::BadJwks("an oct key's k is not base64url".into()))?;
        if bytes.len() < 32 {
            return Err(OAuthError::BadJwks(
                "an HMAC (oct) key needs at least 32 bytes".into(),
            ));
        }
    }
    let key = DecodingKey::from_jwk(jwk).map_err(|e| OAuthError::BadJwks(e.to_string()))?;
    let algorithms = match jwk.common.key_algorithm {
        Some(alg) => {
            let alg: Algorithm = alg
                .to_string()
                .parse()
                .map_err(|_| OAuthError::BadJwks(format!("alg {alg} is not a signature")))?;
            if alg.family() != key.family() {
                return Err(OAuthError::BadJwks(format!(
                    "alg {alg:?} does not fit the key type"
                )));
            }
            vec![alg]
        }
        None => key.family().algorithms().to_vec(),
    };
    Ok(Key {
        id: jwk.common.key_id.clone(),
        key,
        algorithms,
    })
}

/// `https://host[:port]/path` → (`https://host[:port]`, `/path`), or `None` when it is not an
/// absolute http(s) URL without query or fragment.
fn split_resource(resource: &str) -> Option<(&str, &str)> {
    let rest = resource
        .strip_prefix("https://")
        .or_else(|| resource.strip_prefix("http://"))?;
    if rest.contains(['?', '#', ' ']) {
        return None;
    }
    let host_end = rest.find('/').unwrap_or(rest.len());
    if host_end == 0 {
        return None;
    }
    let split = resource.len() - rest.len() + host_end;
    let path = resource[split..].trim_end_matches('/');
    Some((&resource[..split], path))
}
