//! Asking the client at 2026-07-28 (multi-round-trip requests, SEP-2322), in process: asks
//! become an `InputRequiredResult`, answers come back in `inputResponses`, earlier answers ride
//! in a sealed `requestState`, and every kind of bad state is refused.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use beam_mcp::protocol::Session;
use beam_mcp::{AskError, Context, Elicit, Elicited, SamplingRequest, Server, State, ToolError};
use common::send;
use serde_json::{Value, json};

#[derive(serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Name {
    name: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema, Elicit, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Size {
    Small,
    Large,
}

#[derive(serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Order {
    size: Size,
    count: Option<u8>,
}

#[derive(serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Party {
    #[schemars(range(min = 1, max = 9))]
    guests: u8,
    #[schemars(length(min = 2, max = 5))]
    code: String,
}

/// Asks for a party of 1 to 9 with a code of 2 to 5 characters.
#[beam_mcp::tool]
async fn party(ctx: Context) -> String {
    match ctx.elicit::<Party>("Who comes?").key("party").await {
        Ok(Elicited::Accepted(p)) => format!("{} guests, code {}", p.guests, p.code),
        Ok(_) => "no party".into(),
        Err(e) => e.to_string(),
    }
}

/// How many times the host function started, per server.
#[derive(Clone, Default)]
struct Runs(Arc<AtomicUsize>);

fn failed(e: AskError) -> ToolError {
    ToolError::new(e.to_string())
}

/// Three asks in one round.
#[beam_mcp::tool]
async fn three(ctx: Context) -> Result<String, ToolError> {
    let (name, model, roots) = tokio::join!(
        ctx.elicit::<Name>("Name?").key("name"),
        ctx.sample(SamplingRequest::new(10).user("Hi")).key("model"),
        ctx.roots().key("roots"),
    );
    let name = match name.map_err(failed)? {
        Elicited::Accepted(n) => n.name,
        Elicited::Declined => "declined".into(),
        Elicited::Cancelled => "cancelled".into(),
    };
    let model = model.map_err(failed)?;
    let roots = roots.map_err(failed)?;
    Ok(format!(
        "{name}|{}|{}|{}",
        model.text().unwrap_or("-"),
        model.model,
        roots
            .iter()
            .map(|r| r.uri.as_str())
            .collect::<Vec<_>>()
            .join(",")
    ))
}

/// Two rounds, counting how often it starts; the order form has an enum field.
#[beam_mcp::tool]
async fn two_rounds(State(runs): State<Runs>, ctx: Context) -> Result<String, ToolError> {
    runs.0.fetch_add(1, Ordering::SeqCst);
    let Elicited::Accepted(name) = ctx.elicit::<Name>("Name?").await.map_err(failed)? else {
        return Ok("no name".into());
    };
    let Elicited::Accepted(order) = ctx.elicit::<Order>("Order?").await.map_err(failed)? else {
        return Ok(format!("{} ordered nothing", name.name));
    };
    Ok(format!(
        "{}: {:?} x{}",
        name.name,
        order.size,
        order.count.unwrap_or(1)
    ))
}

/// Asks only when it can, and says what it could not ask.
#[beam_mcp::tool]
async fn polite(ctx: Context) -> String {
    match ctx.elicit::<Name>("Name?").await {
        Ok(Elicited::Accepted(n)) => format!("hello {}", n.name),
        Ok(_) => "no answer".into(),
        Err(e) => format!("cannot ask: {e}"),
    }
}

/// Sends the user to a URL to sign in.
#[beam_mcp::tool]
async fn sign_in(ctx: Context) -> String {
    match ctx
        .elicit_url("Sign in to continue", "https://auth.example/login")
        .key("login")
        .await
    {
        Ok(Elicited::Accepted(())) => "signed in".into(),
        Ok(_) => "not signed in".into(),
        Err(e) => e.to_string(),
    }
}

/// Uses one key twice.
#[beam_mcp::tool]
async fn twice(ctx: Context) -> String {
    let (a, b) = tokio::join!(ctx.roots().key("same"), ctx.roots().key("same"),);
    format!("{:?} {:?}", a.map(|_| ()), b.map(|_| ()))
}

fn server_with(runs: Runs, key: &[u8], previous: Option<&[u8]>) -> Server {
    let mut builder = Server::builder()
        .crate_items(module_path!())
        .state(runs)
        .request_state_key(key.to_vec());
    if let Some(previous) = previous {
        builder = builder.previous_request_state_key(previous.to_vec());
    }
    builder.build().unwrap()
}

const KEY: &[u8] = b"a test key of thirty-two bytes!!";

fn server() -> Server {
    server_with(Runs::default(), KEY, None)
}

fn capabilities() -> Value {
    json!({ "elicitation": {}, "sampling": {}, "roots": {} })
}

/// A 2026-07-28 `tools/call` with the given client capabilities and round fields.
fn call(id: i64, name: &str, caps: Value, extra: Value) -> Value {
    let mut params = json!({ "name": name, "arguments": {}, "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": caps,
    } });
    if let Value::Object(extra) = extra {
        for (k, v) in extra {
            params[k] = v;
        }
    }
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params })
}

fn answer(server: &Server, session: &Session, message: Value) -> Value {
    send(server, session, message).expect("an answer")
}

fn accept(content: Value) -> Value {
    json!({ "action": "accept", "content": content })
}

#[test]
fn three_asks_go_out_in_one_round_and_their_answers_complete_the_call() {
    let s = server();
    let session = Session::new();
    let first = answer(&s, &session, call(1, "three", capabilities(), json!({})));
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required", "{first}");
    let requests = result["inputRequests"].as_object().unwrap();
    assert_eq!(requests.len(), 3);
    assert_eq!(requests["name"]["method"], "elicitation/create");
    assert_eq!(
        requests["name"]["params"]["requestedSchema"],
        json!({ "type": "object", "properties": { "name": { "type": "string" } }, "required": ["name"] })
    );
    assert_eq!(requests["model"]["method"], "sampling/createMessage");
    assert_eq!(requests["model"]["params"]["maxTokens"], 10);
    assert_eq!(
        requests["roots"],
        json!({ "method": "roots/list", "params": {} })
    );
    let state = result["requestState"].as_str().unwrap().to_owned();
    let responses = json!({
        "name": accept(json!({ "name": "Ada" })),
        "model": { "role": "assistant", "model": "m1", "content": { "type": "text", "text": "Hello" } },
        "roots": { "roots": [{ "uri": "file:///a" }, { "uri": "file:///b", "name": "b" }] },
        "ignored": 42,
    });
    let done = answer(
        &s,
        &session,
        call(
            2,
            "three",
            capabilities(),
            json!({ "inputResponses": responses, "requestState": state }),
        ),
    );
    assert_eq!(done["result"]["resultType"], "complete", "{done}");
    assert_eq!(done["result"]["isError"], false);
    assert_eq!(
        done["result"]["content"][0]["text"],
        "Ada|Hello|m1|file:///a,file:///b"
    );
}

#[test]
fn answers_ride_in_the_state_across_rounds_and_the_function_reruns_from_the_start() {
    let runs = Runs::default();
    let s = server_with(runs.clone(), KEY, None);
    let session = Session::new();
    let caps = json!({ "elicitation": {} });
    let r1 = answer(&s, &session, call(1, "two_rounds", caps.clone(), json!({})));
    assert_eq!(
        r1["result"]["inputRequests"]["elicit-1"]["params"]["message"],
        "Name?"
    );
    let r2 = answer(
        &s,
        &session,
        call(
            2,
            "two_rounds",
            caps.clone(),
            json!({
                "inputResponses": { "elicit-1": accept(json!({ "name": "Ada" })) },
                "requestState": r1["result"]["requestState"],
            }),
        ),
    );
    let order = &r2["result"]["inputRequests"]["elicit-2"];
    assert_eq!(order["params"]["message"], "Order?", "{r2}");
    assert_eq!(
        order["params"]["requestedSchema"]["properties"]["size"]["enum"],
        json!(["small", "large"])
    );
    // Round 3 sends only the new answer: the name comes from the sealed state.
    let r3 = answer(
        &s,
        &session,
        call(
            3,
            "two_rounds",
            caps.clone(),
            json!({
                "inputResponses": { "elicit-2": accept(json!({ "size": "large", "count": 2 })) },
                "requestState": r2["result"]["requestState"],
            }),
        ),
    );
    assert_eq!(r3["result"]["content"][0]["text"], "Ada: Large x2", "{r3}");
    assert_eq!(runs.0.load(Ordering::SeqCst), 3, "one run per round");
}

#[test]
fn a_missing_or_malformed_answer_is_asked_again_and_a_decline_reaches_the_host() {
    let s = server();
    let session = Session::new();
    let caps = json!({ "elicitation": {} });
    let first = answer(&s, &session, call(1, "two_rounds", caps.clone(), json!({})));
    let state = first["result"]["requestState"].clone();
    assert!(state.is_string(), "{first}");
    for bad in [
        json!({}),
        json!({ "elicit-1": 12345 }),
        json!({ "elicit-1": { "action": "accept" } }),
        json!({ "elicit-1": accept(json!({ "name": 7 })) }),
        json!({ "elicit-1": { "action": "maybe" } }),
        json!({ "wrong_key": accept(json!({ "name": "Ada" })) }),
    ] {
        let r = answer(
            &s,
            &session,
            call(
                1,
                "two_rounds",
                caps.clone(),
                json!({ "inputResponses": bad, "requestState": state }),
            ),
        );
        assert_eq!(r["result"]["resultType"], "input_required", "{bad}: {r}");
        assert!(r["result"]["inputRequests"]["elicit-1"].is_object(), "{r}");
    }
    let declined = answer(
        &s,
        &session,
        call(
            2,
            "two_rounds",
            caps,
            // A first round may carry answers too (the official suite sends them so): they
            // answer this run's questions.
            json!({
                "inputResponses": { "elicit-1": { "action": "decline" } },
            }),
        ),
    );
    assert_eq!(
        declined["result"]["content"][0]["text"], "no name",
        "{declined}"
    );
    // inputResponses that is not an object at all is a protocol error.
    let r = answer(
        &s,
        &session,
        call(
            3,
            "two_rounds",
            json!({ "elicitation": {} }),
            json!({ "inputResponses": null }),
        ),
    );
    assert_eq!(r["error"]["code"], -32602);
    assert_eq!(
        r["error"]["message"],
        "Invalid params: inputResponses must be an object"
    );
}

#[test]
fn tampered_foreign_expired_and_oversize_states_are_refused_with_32602() {
    let s = server();
    let session = Session::new();
    let caps = json!({ "elicitation": {} });
    let r1 = answer(&s, &session, call(1, "two_rounds", caps.clone(), json!({})));
    let state = r1["result"]["requestState"].as_str().unwrap().to_owned();
    let refused = |server: &Server, session: &Session, name: &str, state: Value| {
        let r = answer(
            server,
            session,
            call(9, name, caps.clone(), json!({ "requestState": state })),
        );
        assert_eq!(r["error"]["code"], -32602, "{r}");
        r["error"]["message"].as_str().unwrap().to_owned()
    };
    let tampered = refused(
        &s,
        &session,
        "two_rounds",
        json!(format!("{state}-TAMPERED")),
    );
    assert!(
        tampered.starts_with("Invalid params: requestState "),
        "{tampered}"
    );
    // Issued for another tool (other params): foreign.
    assert_eq!(
        refused(&s, &session, "three", json!(state)),
        "Invalid params: requestState was issued for another request"
    );
    // Issued to another caller.
    let alice = Session::new().with_principal("alice".to_owned());
    let bob = Session::new().with_principal("bob".to_owned());
    let of_alice = answer(&s, &alice, call(1, "two_rounds", caps.clone(), json!({})));
    assert_eq!(
        refused(
            &s,
            &bob,
            "two_rounds",
            of_alice["result"]["requestState"].clone()
        ),
        "Invalid params: requestState was issued for another request"
    );
    // Sealed by another server's key.
    let other = server_with(Runs::default(), b"another key, also thirty-two byte", None);
    assert_eq!(
        refused(&other, &session, "two_rounds", json!(state)),
        "Invalid params: requestState failed its integrity check"
    );
    // Not a string, and far too long.
    assert_eq!(
        refused(&s, &session, "two_rounds", json!(7)),
        "Invalid params: requestState is malformed"
    );
    assert_eq!(
        refused(&s, &session, "two_rounds", json!("v1.".repeat(30_000))),
        "Invalid params: requestState exceeds 65536 bytes"
    );
    // Expired.
    let brief = Server::builder()
        .crate_items(module_path!())
        .state(Runs::default())
        .request_state_key(KEY.to_vec())
        .request_state_lifetime(Duration::ZERO)
        .build()
        .unwrap();
    let r = answer(
        &brief,
        &session,
        call(1, "two_rounds", caps.clone(), json!({})),
    );
    std::thread::sleep(Duration::from_millis(1100));
    assert_eq!(
        refused(
            &brief,
            &session,
            "two_rounds",
            r["result"]["requestState"].clone()
        ),
        "Invalid params: requestState has expired"
    );
}

#[test]
fn a_rotated_key_still_opens_states_of_the_previous_one() {
    let old = server();
    let session = Session::new();
    let caps = json!({ "elicitation": {} });
    let r1 = answer(
        &old,
        &session,
        call(1, "two_rounds", caps.clone(), json!({})),
    );
    let next = json!({
        "inputResponses": { "elicit-2": accept(json!({ "size": "small" })) },
        "requestState": r1["result"]["requestState"],
    });
    let new_key = b"the next key, thirty-two bytes!!";
    let rotated = server_with(Runs::default(), new_key, Some(KEY));
    let r = answer(
        &rotated,
        &session,
        call(2, "two_rounds", caps.clone(), next.clone()),
    );
    assert!(r.get("result").is_some(), "{r}");
    let dropped = server_with(Runs::default(), new_key, None);
    let r = answer(&dropped, &session, call(2, "two_rounds", caps, next));
    assert_eq!(
        r["error"]["message"],
        "Invalid params: requestState failed its integrity check"
    );
}

#[test]
fn an_ask_the_client_cannot_answer_is_an_error_the_host_can_match() {
    let s = server();
    let session = Session::new();
    // No elicitation capability in this request.
    let r = answer(
        &s,
        &session,
        call(1, "polite", json!({ "sampling": {} }), json!({})),
    );
    assert_eq!(
        r["result"]["content"][0]["text"],
        "cannot ask: the client did not declare the elicitation capability for this request"
    );
    // URL mode only: no form.
    let r = answer(
        &s,
        &session,
        call(
            2,
            "polite",
            json!({ "elicitation": { "url": {} } }),
            json!({}),
        ),
    );
    assert_eq!(
        r["result"]["content"][0]["text"],
        "cannot ask: the client did not declare the elicitation capability for this request"
    );
    // A bare 2025-11-25 request on a session that never said what its client can do.
    let legacy = json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call",
                         "params": { "name": "polite", "arguments": {} } });
    let r = answer(&s, &session, legacy);
    assert!(
        r["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("cannot ask: the client did not declare the elicitation capability"),
        "{r}"
    );
    // A key used twice in one request.
    let r = answer(
        &s,
        &session,
        call(4, "twice", json!({ "roots": {} }), json!({})),
    );
    assert_eq!(r["result"]["resultType"], "input_required", "{r}");
    assert_eq!(r["result"]["inputRequests"].as_object().unwrap().len(), 1);
}

#[test]
fn methods_that_cannot_ask_never_return_input_required() {
    let s = server();
    let session = Session::new();
    let list = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {
        "inputResponses": { "x": 1 }, "requestState": "junk", "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities() } } });
    let r = answer(&s, &session, list);
    assert_eq!(r["result"]["resultType"], "complete", "{r}");
}

#[test]
fn a_url_elicitation_needs_the_url_capability_and_carries_no_form() {
    let s = server();
    let session = Session::new();
    let r = answer(
        &s,
        &session,
        call(1, "sign_in", json!({ "elicitation": {} }), json!({})),
    );
    assert_eq!(
        r["result"]["content"][0]["text"],
        "the client did not declare the elicitation.url capability for this request"
    );
    let caps = json!({ "elicitation": { "url": {} } });
    let r = answer(&s, &session, call(2, "sign_in", caps.clone(), json!({})));
    assert_eq!(
        r["result"]["inputRequests"]["login"],
        json!({ "method": "elicitation/create", "params": {
            "mode": "url", "message": "Sign in to continue", "url": "https://auth.example/login" } })
    );
    let done = answer(
        &s,
        &session,
        call(
            3,
            "sign_in",
            caps,
            json!({
                "requestState": r["result"]["requestState"],
                "inputResponses": { "login": { "action": "accept" } },
            }),
        ),
    );
    assert_eq!(done["result"]["content"][0]["text"], "signed in", "{done}");
}

#[test]
fn an_answer_outside_the_bounds_the_form_advertised_is_asked_again() {
    let s = server();
    let session = Session::new();
    let caps = json!({ "elicitation": {} });
    let first = answer(&s, &session, call(1, "party", caps.clone(), json!({})));
    let schema = &first["result"]["inputRequests"]["party"]["params"]["requestedSchema"];
    assert_eq!(
        schema["properties"]["guests"],
        json!({ "type": "integer", "minimum": 1, "maximum": 9 }),
        "bounds advertised, no schemars format on a number"
    );
    let state = first["result"]["requestState"].clone();
    for content in [
        json!({ "guests": 0, "code": "ab" }),
        json!({ "guests": 10, "code": "ab" }),
        json!({ "guests": 3, "code": "a" }),
        json!({ "guests": 3, "code": "abcdef" }),
    ] {
        let r = answer(
            &s,
            &session,
            call(
                2,
                "party",
                caps.clone(),
                json!({
            "requestState": state, "inputResponses": { "party": accept(content.clone()) } }),
            ),
        );
        assert_eq!(
            r["result"]["resultType"], "input_required",
            "{content}: {r}"
        );
    }
    let ok = answer(
        &s,
        &session,
        call(
            3,
            "party",
            caps,
            json!({
        "requestState": state, "inputResponses": { "party": accept(json!({ "guests": 9, "code": "éé" })) } }),
        ),
    );
    assert_eq!(
        ok["result"]["content"][0]["text"], "9 guests, code éé",
        "{ok}"
    );
}
