//! OAuth 2.1 resource server over a real socket on 127.0.0.1 (DIGEST §A20): bearer JWTs the
//! test signs itself (HS256 with a shared secret, RS256 with a fixed RSA key published as a
//! JWK set), the 401/403 challenges of RFC 6750 and RFC 9728, and the metadata document.

// In the tests crate, not beam-mcp's own: minting tokens takes jsonwebtoken, which as a
// dev-dependency of beam-mcp would turn on features (zeroize, sha2's oid, ...) in the beam-mcp
// every other test runs; here it is the same jsonwebtoken the `oauth` feature brings.

use std::net::SocketAddr;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::loopback::start;
use beam_mcp::tool::{BoxFuture, ToolFault};
use beam_mcp::transport::http::{Http, HttpError, OAuth, OAuthError, OAuthPrincipal, Origins};
use beam_mcp::{CallToolResult, Server, ToolContext};
use beam_mcp_tests::http_client::{Connection, HttpResponse};
use beam_mcp_tests::modern_meta;
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use serde_json::{Value, json};

const RESOURCE: &str = "https://mcp.example.com/mcp";
const ISSUER: &str = "https://auth.example.com";
const METADATA: &str = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";
const SECRET: &[u8] = b"a test secret of at least thirty-two bytes";

/// A fixed 2048-bit RSA key, for tests only.
const RSA_PRIVATE_PEM: &str = "-----BEGIN RSA PRIVATE KEY-----\n\
MIIEogIBAAKCAQEAjeS+SPUsQQY6vwYczcmxEEoGDenH2XJ0CJsWPpK4sLNnxpIk\n\
/ly5Y5X5S8Vc/8Wizh6eOrn8tdwZ9REo/T5GIxZEdGDOQPF96oMvvgj/Koozfl0I\n\
IjOUdf9fKHWclNxPK2aZsPLOC3vEQtkopsCGWkM4eYEDxGBrD35VDrugdl/6h8YW\n\
uIodwSmO4oJCPOjeN1AsYGVRmCk6bC3UgDb8XBZA6MUtqDUK/vi+3DrKuMOGDrdl\n\
d/tjO4JNtNoOBAxs1o4RnZkRdOfxedtZLjijPD3mDgGTD+t2FXP1d1qOZJ0fIkx1\n\
SnP2ZjUQRWAAJBkyaIDiuGdOBwTvnA5JZ6xaCwIDAQABAoIBACYj5kIWJN8VnZTb\n\
P8LRBBcszpPO0zlP2oC1rzUCm0Jj9vEZN3hn1C1AktIbKvRVW32sHTwL4jHAB/on\n\
sqzfoFquEZh2rPon74Cp4ptiL7RvkYfV2enXk4BkNF/bvUsGLQGtgoJdwaS0j/yo\n\
ApVQCs0YZIXEeA7BHAX+Hz7mkCtBGtB2UfuPPIDHPP3gbP0sSgZzibtQrvGfqHoX\n\
O6e6cPR5U1390KNKJ6B8ixwl5jjMAGVn5/mfq3gZjLrjJgMjK4gIrXWxYt+Um8Cg\n\
xdvtPJOEqEfNdyE19NOXgoP4Py/ojvaljZra5ExPsVOq61jS5NVG7M494H0iKd0J\n\
en6MKwECgYEAvuaSIi8Z0EfRY+ehnC9h0TYNtxjxx4Y7LSQ0TygIlM19D16qP/GX\n\
HCnGCwg3BDGYJvAr95eT3JQnNhmMkIWUDf+Cjfx/+8P6ijaPtxScx0jpTnNkANAQ\n\
wPw8Sxv9wwljaw9oj++E3vKBcvUXMUADCOQk2WrhvKjJMMidbuDZIDkCgYEAvkfm\n\
fe0rl+D9++/8oArVxOKaWLJB3Ub2vZ55jbrpdCDvHEYxgKW4DHCwykGD23kvp+BX\n\
ncCrz8iIXNT36UpA0YpA6bo5+j19oYxbHhQ3SetoL0F6ehZGvVSP7shBi0vETJ2i\n\
9lKsI6uuEYXRTy9ygUoPRpyniJrhqPsnCWDUBGMCgYAjQeJrfdd+qET79qPafMXM\n\
JfeSgYDmINx9Edq3Y+Vx1iHq3MkE1lHaWbzB/NpsY9x+FI2KROyCKLq1OzLC3mjh\n\
zPcH0kKw9Rkovbr9TUlHZSfx3U3y+HqfqfZYyOqtQuaht07QhqQ7qP5PhQSri+8D\n\
jV9g6GSYu3OtFuA8wjpXwQKBgE6ZJpV3pV0sO92YiRKWxyx3qeffYiOED6HN10n7\n\
Hjmw7PQR7prEWV0SI4S4QT4kNdIzch2gm5fNrr4h3nHIETQ81ol1OkOqqL1VW8H1\n\
+cyX58Y1VuEdWIUWbAnnQGPInUJEjy8OgTqOzO1CCG6cG8FaFStGxFFCINqLO9m8\n\
3HcfAoGAM2QZHVEfaOEFRCjkpP2TDG+mJMia43Luc9aD2Y7S4BuJLuZ9BAaS6ici\n\
LgEmyFg8YDaZ7l6ct2WKts833ry61L339d+vO+BUNcFtgncJyfrqA8mHZDwOJ3Bj\n\
ZoswktaIrAen3WLb0PzAp01rkcwEvRsFrSqu2/j2WWUcsl9WHec=\n\
-----END RSA PRIVATE KEY-----";
/// Its public half as a JWK set.
const RSA_N: &str = "jeS-SPUsQQY6vwYczcmxEEoGDenH2XJ0CJsWPpK4sLNnxpIk_ly5Y5X5S8Vc_8Wizh6eOrn8tdwZ9REo_T5GIxZEdGDOQPF96oMvvgj_Koozfl0IIjOUdf9fKHWclNxPK2aZsPLOC3vEQtkopsCGWkM4eYEDxGBrD35VDrugdl_6h8YWuIodwSmO4oJCPOjeN1AsYGVRmCk6bC3UgDb8XBZA6MUtqDUK_vi-3DrKuMOGDrdld_tjO4JNtNoOBAxs1o4RnZkRdOfxedtZLjijPD3mDgGTD-t2FXP1d1qOZJ0fIkx1SnP2ZjUQRWAAJBkyaIDiuGdOBwTvnA5JZ6xaCw";

/// Says who called, as the token named them.
#[beam_mcp::tool]
fn echo(text: String) -> String {
    text
}

fn whoami(_: Value, context: ToolContext) -> BoxFuture<Result<CallToolResult, ToolFault>> {
    let text = match context.request().principal::<OAuthPrincipal>() {
        Some(p) => format!(
            "{} from {} with {}",
            p.subject(),
            p.issuer().unwrap_or("-"),
            p.scopes().join(",")
        ),
        None => "nobody".into(),
    };
    Box::pin(async { Ok(CallToolResult::new(vec![beam_mcp::Content::text(text)])) })
}

fn server() -> Server {
    Server::builder()
        .tool(
            echo::DEF
                .with_name("whoami")
                .with_handler(whoami)
                .with_input_schema(|| json!({ "type": "object" }))
                .with_context(true),
        )
        .build()
        .unwrap()
}

fn jwks() -> String {
    json!({ "keys": [
        { "kty": "RSA", "kid": "rsa-1", "alg": "RS256", "use": "sig", "n": RSA_N, "e": "AQAB" },
    ] })
    .to_string()
}

fn serve(oauth: OAuth) -> SocketAddr {
    let http = Http::builder(server())
        .oauth(oauth)
        .allowed_origins(Origins::Loopback)
        .build()
        .unwrap();
    start(http)
}

fn hmac_server() -> SocketAddr {
    serve(
        OAuth::resource(RESOURCE)
            .issuer(ISSUER)
            .hmac_secret(SECRET)
            .unwrap()
            .scopes(["mcp:tools"]),
    )
}

fn rsa_server() -> SocketAddr {
    serve(
        OAuth::resource(RESOURCE)
            .issuer(ISSUER)
            .authorization_server(ISSUER)
            .jwks_json(&jwks())
            .unwrap(),
    )
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

fn claims() -> Value {
    json!({
        "iss": ISSUER,
        "sub": "alice",
        "aud": RESOURCE,
        "exp": now() + 300,
        "nbf": now() - 10,
        "scope": "mcp:tools other",
    })
}

fn hs256(claims: &Value, secret: &[u8]) -> String {
    encode(
        &Header::new(Algorithm::HS256),
        claims,
        &EncodingKey::from_secret(secret).unwrap(),
    )
    .unwrap()
}

fn rs256(claims: &Value, kid: &str) -> String {
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some(kid.to_owned());
    let key = EncodingKey::from_rsa_pem(RSA_PRIVATE_PEM.as_bytes()).unwrap();
    encode(&header, claims, &key).unwrap()
}

fn call(addr: SocketAddr, token: Option<&str>) -> HttpResponse {
    let host = format!("127.0.0.1:{}", addr.port());
    let auth = token.map(|t| format!("Bearer {t}"));
    let mut headers = vec![
        ("host", host.as_str()),
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", "whoami"),
    ];
    if let Some(auth) = &auth {
        headers.push(("authorization", auth.as_str()));
    }
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "whoami", "_meta": modern_meta() },
    })
    .to_string();
    Connection::open(addr).post(&headers, body.as_bytes())
}

fn get(addr: SocketAddr, path: &str) -> HttpResponse {
    let host = format!("127.0.0.1:{}", addr.port());
    let mut c = Connection::open(addr);
    c.write(format!("GET {path} HTTP/1.1\r\nhost: {host}\r\nconnection: close\r\n\r\n").as_bytes())
        .unwrap();
    c.read_response().unwrap()
}

fn invalid(addr: SocketAddr, token: &str, scope: bool) {
    let r = call(addr, Some(token));
    assert_eq!(r.status, 401, "{token}");
    let scope = if scope { r#", scope="mcp:tools""# } else { "" };
    assert_eq!(
        r.header("www-authenticate").unwrap(),
        format!(r#"Bearer error="invalid_token", resource_metadata="{METADATA}"{scope}"#),
        "{token}"
    );
}

#[test]
fn a_valid_hs256_token_reaches_host_code_as_its_principal() {
    let addr = hmac_server();
    let r = call(addr, Some(&hs256(&claims(), SECRET)));
    assert_eq!(r.status, 200);
    assert_eq!(
        r.json()["result"]["content"][0]["text"],
        "alice from https://auth.example.com with mcp:tools,other"
    );
}

#[test]
fn a_valid_rs256_token_from_the_jwk_set_is_served() {
    let addr = rsa_server();
    let r = call(addr, Some(&rs256(&claims(), "rsa-1")));
    assert_eq!(r.status, 200);
    assert_eq!(
        r.json()["result"]["content"][0]["text"],
        "alice from https://auth.example.com with mcp:tools,other"
    );
    // `aud` may be a list that names this server among others.
    let mut listed = claims();
    listed["aud"] = json!(["https://other.example.com", RESOURCE]);
    assert_eq!(call(addr, Some(&rs256(&listed, "rsa-1"))).status, 200);
}

#[test]
fn no_token_is_401_with_the_resource_metadata_challenge() {
    let addr = hmac_server();
    let r = call(addr, None);
    assert_eq!(r.status, 401);
    assert_eq!(
        r.header("www-authenticate").unwrap(),
        format!(r#"Bearer resource_metadata="{METADATA}", scope="mcp:tools""#)
    );
    let r = call(rsa_server(), None);
    assert_eq!(r.status, 401);
    assert_eq!(
        r.header("www-authenticate").unwrap(),
        format!(r#"Bearer resource_metadata="{METADATA}""#)
    );
}

#[test]
fn expired_foreign_tampered_and_unsigned_tokens_are_401_invalid_token() {
    let addr = hmac_server();
    let mut expired = claims();
    expired["exp"] = json!(now() - 120);
    invalid(addr, &hs256(&expired, SECRET), true);
    let mut early = claims();
    early["nbf"] = json!(now() + 120);
    invalid(addr, &hs256(&early, SECRET), true);
    let mut issuer = claims();
    issuer["iss"] = json!("https://evil.example.com");
    invalid(addr, &hs256(&issuer, SECRET), true);
    // A token for another resource (RFC 8707): never accepted here.
    let mut audience = claims();
    audience["aud"] = json!("https://other.example.com/mcp");
    invalid(addr, &hs256(&audience, SECRET), true);
    let mut no_audience = claims();
    no_audience.as_object_mut().unwrap().remove("aud");
    invalid(addr, &hs256(&no_audience, SECRET), true);
    invalid(
        addr,
        &hs256(&claims(), b"another secret of at least thirty-two bytes"),
        true,
    );
    // `alg: none`, with and without a signature.
    let signed = hs256(&claims(), SECRET);
    let mut parts = signed.split('.');
    let (_, payload, signature) = (parts.next(), parts.next().unwrap(), parts.next().unwrap());
    let none = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0";
    invalid(addr, &format!("{none}.{payload}."), true);
    invalid(addr, &format!("{none}.{payload}.{signature}"), true);
    invalid(addr, "not-a-jwt", true);

    let addr = rsa_server();
    invalid(addr, &rs256(&claims(), "rsa-2"), false);
    let mut expired = claims();
    expired["exp"] = json!(now() - 120);
    invalid(addr, &rs256(&expired, "rsa-1"), false);
    // An HMAC token signed with the RSA public key as its secret (algorithm confusion).
    let mut header = Header::new(Algorithm::HS256);
    header.kid = Some("rsa-1".into());
    let confused = encode(
        &header,
        &claims(),
        &EncodingKey::from_secret(RSA_N.as_bytes()).unwrap(),
    )
    .unwrap();
    invalid(addr, &confused, false);
}

#[test]
fn a_token_without_the_required_scope_is_403_insufficient_scope() {
    let addr = hmac_server();
    let mut narrow = claims();
    narrow["scope"] = json!("other");
    let r = call(addr, Some(&hs256(&narrow, SECRET)));
    assert_eq!(r.status, 403);
    assert_eq!(
        r.header("www-authenticate").unwrap(),
        format!(
            r#"Bearer error="insufficient_scope", scope="mcp:tools", resource_metadata="{METADATA}""#
        )
    );
    // `scp` as a list counts too, and either claim in either form (issuers differ).
    for (claim, value) in [
        ("scp", json!(["mcp:tools"])),
        ("scp", json!("other mcp:tools")),
        ("scope", json!(["other", "mcp:tools"])),
    ] {
        let mut form = claims();
        form.as_object_mut().unwrap().remove("scope");
        form[claim] = value.clone();
        assert_eq!(
            call(addr, Some(&hs256(&form, SECRET))).status,
            200,
            "{claim}: {value}"
        );
    }
    // A scope claim of another shape is no scope at all: the token is refused.
    let mut odd = claims();
    odd["scope"] = json!({"mcp:tools": true});
    invalid(addr, &hs256(&odd, SECRET), true);
}

#[test]
fn a_jwt_of_another_type_is_no_access_token() {
    let addr = hmac_server();
    let typed = |typ: Option<&str>| {
        let mut header = Header::new(Algorithm::HS256);
        header.typ = typ.map(str::to_owned);
        encode(
            &header,
            &claims(),
            &EncodingKey::from_secret(SECRET).unwrap(),
        )
        .unwrap()
    };
    for typ in [
        None,
        Some("JWT"),
        Some("at+jwt"),
        Some("application/at+JWT"),
    ] {
        assert_eq!(call(addr, Some(&typed(typ))).status, 200, "{typ:?}");
    }
    for typ in ["dpop+jwt", "logout+jwt", "secevent+jwt", "id+jwt"] {
        invalid(addr, &typed(Some(typ)), true);
    }
}

#[test]
fn a_jwk_set_keeps_only_signature_keys_and_strong_hmac_keys() {
    let base = || OAuth::resource(RESOURCE).issuer(ISSUER);
    // An encryption key beside the signature key (as published sets hold) is left out, so the
    // one signature key needs no kid.
    let mixed = json!({ "keys": [
        { "kty": "RSA", "use": "enc", "n": RSA_N, "e": "AQAB" },
        { "kty": "RSA", "key_ops": ["encrypt"], "n": RSA_N, "e": "AQAB" },
        { "kty": "RSA", "kid": "rsa-1", "use": "sig", "n": RSA_N, "e": "AQAB" },
    ] });
    let addr = serve(base().jwks_json(&mixed.to_string()).unwrap());
    assert_eq!(call(addr, Some(&rs256(&claims(), "rsa-1"))).status, 200);
    let only_enc = json!({ "keys": [{ "kty": "RSA", "use": "enc", "n": RSA_N, "e": "AQAB" }] });
    assert_eq!(
        base().jwks_json(&only_enc.to_string()).unwrap_err(),
        OAuthError::BadJwks("no signature keys".into())
    );
    // "short-secret" (12 bytes): an HMAC key that can be guessed offline from one token.
    let weak = json!({ "keys": [{ "kty": "oct", "k": "c2hvcnQtc2VjcmV0" }] });
    assert_eq!(
        base().jwks_json(&weak.to_string()).unwrap_err(),
        OAuthError::BadJwks("an HMAC (oct) key needs at least 32 bytes".into())
    );
}

#[test]
fn the_metadata_document_is_served_at_both_well_known_paths() {
    let addr = hmac_server();
    let expected = json!({
        "resource": RESOURCE,
        "authorization_servers": [ISSUER],
        "scopes_supported": ["mcp:tools"],
        "bearer_methods_supported": ["header"],
    });
    for path in [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
    ] {
        let r = get(addr, path);
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(r.header("content-type"), Some("application/json"));
        assert_eq!(r.json(), expected, "{path}");
    }
    let r = get(rsa_server(), "/.well-known/oauth-protected-resource/mcp");
    assert_eq!(
        r.json(),
        json!({
            "resource": RESOURCE,
            "authorization_servers": [ISSUER],
            "bearer_methods_supported": ["header"],
        })
    );
}

#[test]
fn bad_configurations_are_refused_with_what_is_wrong() {
    let base = || OAuth::resource(RESOURCE).issuer(ISSUER);
    assert!(matches!(
        base().jwks_json("{\"keys\": 3}").unwrap_err(),
        OAuthError::BadJwks(_)
    ));
    let two = json!({ "keys": [
        { "kty": "RSA", "n": RSA_N, "e": "AQAB" },
        { "kty": "RSA", "kid": "b", "n": RSA_N, "e": "AQAB" },
    ] });
    assert_eq!(
        base().jwks_json(&two.to_string()).unwrap_err(),
        OAuthError::MissingKeyId
    );
    assert!(matches!(
        base().hmac_secret(b"short").unwrap_err(),
        OAuthError::BadKey(_)
    ));
    assert!(matches!(
        base().rsa_pem(b"not pem").unwrap_err(),
        OAuthError::BadKey(_)
    ));
    let build = |oauth: OAuth| {
        Http::builder(server())
            .oauth(oauth)
            .allowed_origins(Origins::Loopback)
            .build()
            .unwrap_err()
    };
    assert_eq!(build(base()), HttpError::OAuth(OAuthError::NoKeys));
    assert_eq!(
        build(OAuth::resource(RESOURCE).hmac_secret(SECRET).unwrap()),
        HttpError::OAuth(OAuthError::NoIssuer)
    );
    // An authorization server alone does not say which iss to require.
    assert_eq!(
        build(
            OAuth::resource(RESOURCE)
                .authorization_server(ISSUER)
                .hmac_secret(SECRET)
                .unwrap()
        ),
        HttpError::OAuth(OAuthError::NoIssuer)
    );
    for scope in ["", "a\"b", "two words", "naïve"] {
        assert_eq!(
            build(base().hmac_secret(SECRET).unwrap().scopes([scope])),
            HttpError::OAuth(OAuthError::Scope(scope.to_owned())),
            "{scope:?}"
        );
    }
    for resource in [
        "https://h.example/:tenant/mcp",
        "https://h.example/*x",
        "https://h.example/{a}",
        "https://h.example/a\"b",
    ] {
        assert!(
            matches!(
                build(
                    OAuth::resource(resource)
                        .issuer(ISSUER)
                        .hmac_secret(SECRET)
                        .unwrap()
                ),
                HttpError::OAuth(OAuthError::Resource(_))
            ),
            "{resource}"
        );
    }
    // OAuth and a host's own authorize, in either order: one would replace the other.
    let oauth = || base().hmac_secret(SECRET).unwrap();
    let after = Http::builder(server())
        .oauth(oauth())
        .authorize(|_| Ok(()))
        .allowed_origins(Origins::Loopback)
        .build();
    let before = Http::builder(server())
        .authorize(|_| Ok(()))
        .oauth(oauth())
        .allowed_origins(Origins::Loopback)
        .build();
    for built in [after, before] {
        assert_eq!(
            built.unwrap_err(),
            HttpError::OAuth(OAuthError::WithAuthorize)
        );
    }
    assert!(matches!(
        build(
            OAuth::resource("mcp.example.com")
                .issuer(ISSUER)
                .hmac_secret(SECRET)
                .unwrap()
        ),
        HttpError::OAuth(OAuthError::Resource(_))
    ));
    assert_eq!(
        build(
            base()
                .hmac_secret(SECRET)
                .unwrap()
                .scopes(["offline_access"])
        ),
        HttpError::OAuth(OAuthError::OfflineAccess)
    );
}

/// Serves the OAuth-protected endpoint on a loopback socket whose address is its resource
/// (`http://127.0.0.1:PORT/mcp`), so that its metadata is one the client can read.
async fn protected_at_its_own_address() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let resource = format!("http://{}/mcp", listener.local_addr().unwrap());
    let oauth = OAuth::resource(&resource)
        .issuer(ISSUER)
        .authorization_server(ISSUER)
        .hmac_secret(SECRET)
        .unwrap()
        .scopes(["mcp:tools"]);
    let http = Http::builder(server())
        .oauth(oauth)
        .allowed_origins(Origins::Loopback)
        .build()
        .unwrap();
    tokio::spawn(async move {
        let _ = beam_mcp::transport::http::serve(listener, http).await;
    });
    resource
}

/// beam-mcp's client against the protected endpoint (issue 26): refused without a token, it
/// reads the RFC 9728 metadata the challenge names, asks the host's source for a token for that
/// resource, its authorization server and scopes, and sends again; the token is kept.
#[tokio::test]
async fn the_client_gets_its_token_through_the_endpoints_metadata() {
    use beam_mcp::client::{Challenge, Client};
    use std::sync::{Arc, Mutex};
    let resource = protected_at_its_own_address().await;
    let asked: Arc<Mutex<Vec<Challenge>>> = Arc::default();
    let to = Arc::clone(&asked);
    let audience = resource.clone();
    let client = Client::builder()
        .oauth(move |challenge| {
            to.lock().unwrap().push(challenge);
            let mut claims = claims();
            claims["aud"] = Value::from(audience.as_str());
            async move { Ok(hs256(&claims, SECRET)) }
        })
        .http(&resource, Vec::new())
        .await
        .unwrap();
    let who = client.call_tool("whoami", json!({})).await.unwrap();
    assert_eq!(
        who.text(),
        "alice from https://auth.example.com with mcp:tools,other"
    );
    let asked = asked.lock().unwrap().clone();
    assert_eq!(asked.len(), 1, "the token is kept: {asked:?}");
    assert_eq!(asked[0].resource.as_deref(), Some(resource.as_str()));
    assert_eq!(asked[0].authorization_servers, [ISSUER]);
    assert_eq!(asked[0].scopes, ["mcp:tools"]);
    assert_eq!(asked[0].error, None);
}

/// A token the endpoint refuses, or none at all, is a typed error carrying the challenge.
#[tokio::test]
async fn a_refused_token_is_an_unauthorized_error() {
    use beam_mcp::client::{Client, ClientError};
    let resource = protected_at_its_own_address().await;
    let audience = resource.clone();
    // At 2026-07-28, forced: the refusal is the same with auto (below).
    let modern = || Client::builder().revision(beam_mcp::protocol::Revision::V2026_07_28);
    let forged = modern()
        .oauth(move |_| {
            let mut claims = claims();
            claims["aud"] = Value::from(audience.as_str());
            async move {
                Ok(hs256(
                    &claims,
                    b"another secret of at least thirty-two bytes",
                ))
            }
        })
        .http(&resource, Vec::new())
        .await
        .unwrap_err();
    let ClientError::Unauthorized {
        status,
        challenge,
        detail,
    } = &forged
    else {
        panic!("{forged:?}");
    };
    assert_eq!(*status, 401);
    assert_eq!(challenge.error.as_deref(), Some("invalid_token"));
    assert_eq!(
        detail,
        "the endpoint refused the token the host's source gave"
    );
    let none = modern()
        .oauth(|_| async { Err::<String, String>("no login in a test".into()) })
        .http(&resource, Vec::new())
        .await
        .unwrap_err();
    assert_eq!(
        none.to_string(),
        "the endpoint refused the client's credentials (HTTP 401): the host's token source gave no token: no login in a test"
    );
    // Without a token source, at the negotiated revision as at a forced one, the refusal is
    // the same typed error, its challenge read (no fallback to the other revision).
    for builder in [Client::builder(), modern()] {
        let bare = builder.http(&resource, Vec::new()).await.unwrap_err();
        let ClientError::Unauthorized {
            status, challenge, ..
        } = &bare
        else {
            panic!("{bare:?}");
        };
        assert_eq!(*status, 401);
        assert_eq!(challenge.resource.as_deref(), Some(resource.as_str()));
    }
}
