//! The host's middleware, end to end: the fixture with `BEAM_FIXTURE_MIDDLEWARE=1` over real
//! pipes and a real socket, at both revisions. Its middleware marks `echo`'s arguments on the
//! way in and its result on the way out (two of them, so the order shows), panics when `_meta`
//! asks, refuses items tagged "admin" (-31403, HTTP 403) and hides them from lists, and
//! checks items' scopes against a principal no caller has.

use serde_json::{Value, json};

use beam_mcp_tests::http_client::Connection;
use beam_mcp_tests::{HttpServerProcess, ServerProcess, modern_meta, workspace_binary};

const ON: [(&str, &str); 1] = [("BEAM_FIXTURE_MIDDLEWARE", "1")];

/// One way of reaching the fixture: sends a request (method, params less `_meta`, extra
/// `_meta` keys) and gives the HTTP status (200 on stdio) and the JSON-RPC answer.
trait Wire {
    fn ask(&mut self, method: &str, params: Value, meta: Value) -> (u16, Value);
}

/// stdio; `modern`: each request names 2026-07-28 in its `_meta`, else a 2025-11-25 session.
struct Stdio {
    server: ServerProcess,
    modern: bool,
    next_id: i64,
}

impl Stdio {
    fn start(modern: bool) -> Stdio {
        let mut server =
            ServerProcess::spawn_with_env(&workspace_binary("beam-mcp-fixture", "fixture"), &ON);
        if !modern {
            let hello = server.request(&json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                    "clientInfo": {"name": "e2e", "version": "0"}}}));
            assert!(hello.get("result").is_some(), "{hello}");
            server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        }
        Stdio {
            server,
            modern,
            next_id: 1,
        }
    }
}

impl Wire for Stdio {
    fn ask(&mut self, method: &str, mut params: Value, meta: Value) -> (u16, Value) {
        params["_meta"] = merged(self.modern, meta);
        if params["_meta"].as_object().is_some_and(|m| m.is_empty()) {
            params.as_object_mut().unwrap().remove("_meta");
        }
        self.next_id += 1;
        let request =
            json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params});
        (200, self.server.request(&request))
    }
}

/// Streamable HTTP; `modern`: stateless 2026-07-28, else a 2025-11-25 session.
struct Http {
    server: HttpServerProcess,
    modern: bool,
    session: Option<String>,
    next_id: i64,
}

impl Http {
    fn start(modern: bool) -> Http {
        let server = HttpServerProcess::spawn_with_env(
            &workspace_binary("beam-mcp-fixture", "fixture"),
            &ON,
        );
        let mut http = Http {
            server,
            modern,
            session: None,
            next_id: 1,
        };
        if !modern {
            let params = json!({"protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "e2e", "version": "0"}});
            let (status, hello, session) = http.post("initialize", None, &params, 0);
            assert_eq!(status, 200, "{hello}");
            http.session = session;
            assert!(http.session.is_some(), "no Mcp-Session-Id");
        }
        http
    }

    fn post(
        &mut self,
        method: &str,
        name: Option<&str>,
        params: &Value,
        id: i64,
    ) -> (u16, Value, Option<String>) {
        let host = format!("127.0.0.1:{}", self.server.addr.port());
        let version = if self.modern {
            "2026-07-28"
        } else {
            "2025-11-25"
        };
        let mut headers = vec![
            ("host", host.as_str()),
            ("content-type", "application/json"),
            ("accept", "application/json, text/event-stream"),
        ];
        if self.modern {
            headers.push(("mcp-protocol-version", version));
            headers.push(("mcp-method", method));
            if let Some(name) = name {
                headers.push(("mcp-name", name));
            }
        } else if method != "initialize" {
            headers.push(("mcp-protocol-version", version));
        }
        let session = self.session.clone();
        if let Some(session) = &session {
            headers.push(("mcp-session-id", session));
        }
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let mut connection = Connection::open(self.server.addr);
        let response = connection.post(&headers, body.to_string().as_bytes());
        let session = response.header("mcp-session-id").map(str::to_owned);
        let answer = response.answer();
        (response.status, answer, session)
    }
}

impl Wire for Http {
    fn ask(&mut self, method: &str, mut params: Value, meta: Value) -> (u16, Value) {
        params["_meta"] = merged(self.modern, meta);
        if params["_meta"].as_object().is_some_and(|m| m.is_empty()) {
            params.as_object_mut().unwrap().remove("_meta");
        }
        let name = params["name"].as_str().map(str::to_owned);
        self.next_id += 1;
        let (status, answer, _) = self.post(method, name.as_deref(), &params, self.next_id);
        (status, answer)
    }
}

fn merged(modern: bool, meta: Value) -> Value {
    let mut out = if modern { modern_meta() } else { json!({}) };
    for (k, v) in meta.as_object().into_iter().flatten() {
        out[k] = v.clone();
    }
    out
}

fn texts(answer: &Value) -> Vec<String> {
    answer["result"]["content"]
        .as_array()
        .unwrap_or_else(|| panic!("no content: {answer}"))
        .iter()
        .map(|c| c["text"].as_str().unwrap_or("").to_owned())
        .collect()
}

/// Every behaviour of the seam, through one wire.
fn holds(wire: &mut dyn Wire, modern: bool, refusal_status: u16) {
    let none = json!({});
    // Order: the first registered changes the arguments first and the result last.
    let (status, echo) = wire.ask(
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "hi"}}),
        none.clone(),
    );
    assert_eq!(status, 200);
    assert_eq!(
        texts(&echo),
        ["hi+first+second", "after:second", "after:first"],
        "{echo}"
    );
    assert_eq!(echo["result"]["isError"], false, "{echo}");

    // Arguments rewritten before validation are validated: 42 is not a string.
    let (_, invalid) = wire.ask(
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "make-invalid"}}),
        none.clone(),
    );
    assert_eq!(invalid["result"]["isError"], true, "{invalid}");
    assert!(
        texts(&invalid)[0].starts_with("echo: invalid arguments:"),
        "{invalid}"
    );

    // A refusal: the host's code, message and data, and over HTTP its status.
    let (status, refused) = wire.ask("tools/call", json!({"name": "wipe"}), none.clone());
    assert_eq!(refused["error"]["code"], -31403, "{refused}");
    assert_eq!(refused["error"]["message"], "admin items are refused here");
    assert_eq!(refused["error"]["data"], json!({"tag": "admin"}));
    assert!(refused.get("result").is_none());
    let (prompt_status, prompt) = wire.ask("prompts/get", json!({"name": "audit"}), none.clone());
    assert_eq!(prompt["error"]["code"], -31403, "{prompt}");
    assert_eq!((status, prompt_status), (refusal_status, refusal_status));

    // A scope the caller lacks: refused naming it, an ordinary JSON-RPC error (no OAuth here).
    let (status, secret) = wire.ask("tools/call", json!({"name": "secret"}), none.clone());
    assert_eq!(status, 200, "{secret}");
    assert_eq!(secret["error"]["code"], -31403, "{secret}");
    assert_eq!(
        secret["error"]["message"],
        "Insufficient scope: fixture:secret"
    );
    assert_eq!(
        secret["error"]["data"],
        json!({"requiredScopes": ["fixture:secret"]})
    );

    // A tag filter: the admin items are hidden from the lists, and a list that differs by
    // caller is private to caches (2026-07-28).
    let (_, tools) = wire.ask("tools/list", json!({}), none.clone());
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"echo") && !names.contains(&"wipe"),
        "{names:?}"
    );
    let (_, prompts) = wire.ask("prompts/list", json!({}), none.clone());
    assert_eq!(prompts["result"]["prompts"], json!([]), "{prompts}");
    if modern {
        assert_eq!(tools["result"]["cacheScope"], "private", "{tools}");
        assert_eq!(tools["result"]["resultType"], "complete", "{tools}");
    } else {
        assert!(tools["result"].get("cacheScope").is_none(), "{tools}");
    }

    // A panicking middleware: an item call is an error result, any other request -32603; the
    // server goes on.
    let panic = json!({"fixture/panic": true});
    let (_, call) = wire.ask(
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "x"}}),
        panic.clone(),
    );
    assert_eq!(call["result"]["isError"], true, "{call}");
    assert_eq!(
        texts(&call)[0],
        "the call failed with an internal error",
        "{call}"
    );
    let (status, list) = wire.ask("tools/list", json!({}), panic);
    assert_eq!(
        (status, &list["error"]["code"]),
        (200, &json!(-32603)),
        "{list}"
    );
    let (_, again) = wire.ask(
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "again"}}),
        none,
    );
    assert_eq!(texts(&again)[0], "again+first+second", "{again}");
}

#[test]
fn middleware_over_stdio_at_2025_11_25() {
    holds(&mut Stdio::start(false), false, 200);
}

#[test]
fn middleware_over_stdio_at_2026_07_28() {
    holds(&mut Stdio::start(true), true, 200);
}

#[test]
fn middleware_over_http_at_2026_07_28() {
    holds(&mut Http::start(true), true, 403);
}

#[test]
fn middleware_over_http_at_2025_11_25() {
    holds(&mut Http::start(false), false, 403);
}
