//! Per-tool scopes with step-up over a real socket on 127.0.0.1: bearer JWTs the test signs
//! (HS256), `OAuth::step_up` as the server's middleware. A token without an item's scope gets
//! 403 with the RFC 6750 challenge naming the scopes to ask for; a token with it is served, at
//! 2026-07-28 and on a 2025-11-25 session alike; the list hides what the caller cannot use.

use std::net::SocketAddr;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::loopback::start;
use beam_mcp::Server;
use beam_mcp::transport::http::{Http, OAuth, Origins};
use beam_mcp_tests::http_client::{Connection, HttpResponse};
use beam_mcp_tests::modern_meta;
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use serde_json::{Value, json};

const RESOURCE: &str = "https://notes.example.com/mcp";
const ISSUER: &str = "https://auth.example.com";
const METADATA: &str = "https://notes.example.com/.well-known/oauth-protected-resource/mcp";
const SECRET: &[u8] = b"another test secret of thirty-two bytes or more";

/// Writes a note (needs `notes:write`).
#[beam_mcp::tool(scopes = ["notes:write"])]
fn write_note(text: String) -> String {
    format!("wrote {text}")
}

/// Lists the notes (needs nothing beyond the server's own scope).
#[beam_mcp::tool]
fn list_notes() -> String {
    "no notes".to_owned()
}

fn serve() -> SocketAddr {
    let oauth = OAuth::resource(RESOURCE)
        .issuer(ISSUER)
        .hmac_secret(SECRET)
        .unwrap()
        .scopes(["mcp:tools"]);
    let server = Server::builder()
        .tool(write_note::DEF)
        .tool(list_notes::DEF)
        .middleware(oauth.step_up().hide_unusable())
        .build()
        .unwrap();
    let http = Http::builder(server)
        .oauth(oauth)
        .allowed_origins(Origins::Loopback)
        .build()
        .unwrap();
    start(http)
}

fn token(scope: &str) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let claims = json!({ "iss": ISSUER, "sub": "alice", "aud": RESOURCE,
        "exp": now + 300, "nbf": now - 10, "scope": scope });
    encode(
        &Header::new(Algorithm::HS256),
        &claims,
        &EncodingKey::from_secret(SECRET).unwrap(),
    )
    .unwrap()
}

/// A POST at 2026-07-28 (`session: None`) or on a 2025-11-25 session.
fn post(
    addr: SocketAddr,
    token: &str,
    session: Option<&str>,
    method: &str,
    params: Value,
) -> HttpResponse {
    let host = format!("127.0.0.1:{}", addr.port());
    let auth = format!("Bearer {token}");
    let name = params["name"].as_str().unwrap_or_default().to_owned();
    let mut headers = vec![
        ("host", host.as_str()),
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("authorization", auth.as_str()),
    ];
    let mut params = params;
    match session {
        None => {
            headers.push(("mcp-protocol-version", "2026-07-28"));
            headers.push(("mcp-method", method));
            if !name.is_empty() {
                headers.push(("mcp-name", &name));
            }
            let mut meta = modern_meta();
            if let Some(extra) = params.get("_meta").cloned() {
                for (k, v) in extra.as_object().unwrap() {
                    meta[k] = v.clone();
                }
            }
            params["_meta"] = meta;
        }
        Some(session) => {
            if method != "initialize" {
                headers.push(("mcp-protocol-version", "2025-11-25"));
                headers.push(("mcp-session-id", session));
            }
        }
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    Connection::open(addr).post(&headers, body.to_string().as_bytes())
}

fn refused_with_step_up(r: &HttpResponse) {
    assert_eq!(r.status, 403, "{:?}", String::from_utf8_lossy(&r.body));
    // The server's own scope and the tool's: what the client asks its authorization server for.
    let step_up = format!(
        r#"Bearer error="insufficient_scope", scope="mcp:tools notes:write", resource_metadata="{METADATA}""#
    );
    assert_eq!(r.header("www-authenticate"), Some(step_up.as_str()));
    let answer = r.json();
    assert_eq!(answer["error"]["code"], -31403, "{answer}");
    assert_eq!(
        answer["error"]["message"],
        "Insufficient scope: notes:write"
    );
    assert_eq!(
        answer["error"]["data"],
        json!({"requiredScopes": ["notes:write"]})
    );
}

#[test]
fn a_missing_scope_is_403_naming_it_and_a_stepped_up_token_is_served() {
    let addr = serve();
    let call = json!({"name": "write_note", "arguments": {"text": "hi"}});
    let weak = token("mcp:tools");
    refused_with_step_up(&post(addr, &weak, None, "tools/call", call.clone()));
    // A request that asked for a stream is refused the same way: the refusal is its only
    // message, answered as JSON with its status.
    let mut streamed = call.clone();
    streamed["_meta"] = json!({"progressToken": "p"});
    refused_with_step_up(&post(addr, &weak, None, "tools/call", streamed));
    // The token the challenge asked for.
    let strong = token("mcp:tools notes:write");
    let r = post(addr, &strong, None, "tools/call", call);
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["result"]["content"][0]["text"], "wrote hi");
}

#[test]
fn a_2025_11_25_session_steps_up_too() {
    let addr = serve();
    let weak = token("mcp:tools");
    let hello = json!({"protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "e2e", "version": "0"}});
    let r = post(addr, &weak, Some(""), "initialize", hello);
    assert_eq!(r.status, 200);
    let session = r.header("mcp-session-id").unwrap().to_owned();
    let call = json!({"name": "write_note", "arguments": {"text": "on a session"}});
    refused_with_step_up(&post(
        addr,
        &weak,
        Some(&session),
        "tools/call",
        call.clone(),
    ));
    // The same caller (issuer and subject) with the scope, on the same session.
    let strong = token("mcp:tools notes:write");
    let r = post(addr, &strong, Some(&session), "tools/call", call);
    assert_eq!(r.status, 200, "{:?}", String::from_utf8_lossy(&r.body));
    assert_eq!(
        r.json()["result"]["content"][0]["text"],
        "wrote on a session"
    );
}

#[test]
fn tools_a_caller_cannot_use_are_hidden_from_its_list_privately() {
    let addr = serve();
    let names = |token: &str| {
        let r = post(addr, token, None, "tools/list", json!({}));
        assert_eq!(r.status, 200);
        let result = r.json()["result"].clone();
        assert_eq!(result["cacheScope"], "private", "{result}");
        result["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&token("mcp:tools")), ["list_notes"]);
    assert_eq!(
        names(&token("mcp:tools notes:write")),
        ["list_notes", "write_note"]
    );
}

#[test]
fn the_scopes_items_declare_are_published_in_the_metadata() {
    let addr = serve();
    let host = format!("127.0.0.1:{}", addr.port());
    let mut c = Connection::open(addr);
    c.write(
        format!(
            "GET /.well-known/oauth-protected-resource/mcp HTTP/1.1\r\nhost: {host}\r\nconnection: close\r\n\r\n"
        )
        .as_bytes(),
    )
    .unwrap();
    let r = c.read_response().unwrap();
    assert_eq!(r.status, 200);
    assert_eq!(
        r.json()["scopes_supported"],
        json!(["mcp:tools", "notes:write"])
    );
}
