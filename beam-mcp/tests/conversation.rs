//! The exchange in process: notifications then exactly one response, nothing after it even
//! from a clone of the context, cancellation by id, and the request's `_meta` as host code sees it.

use std::sync::{Arc, Mutex};

use beam_mcp::protocol::{Outbound, Reply, Session};
use beam_mcp::{Context, LogLevel, NotSent, Server, State};
use serde_json::{Value, json};

/// A clone of the last context `keep` saw (state of one server, not a static shared by tests).
#[derive(Clone, Default)]
struct Kept(Arc<Mutex<Option<Context>>>);

/// Keeps a clone of its context, reports progress once, and answers.
#[beam_mcp::tool]
async fn keep(State(kept): State<Kept>, ctx: Context) -> String {
    ctx.progress(1.0, None, Some("once"))
        .expect("asked for progress");
    assert_eq!(
        ctx.progress(1.0, None, None),
        Err(NotSent::NotIncreasing {
            last: 1.0,
            given: 1.0
        })
    );
    *kept.0.lock().unwrap() = Some(ctx.clone());
    "kept".into()
}

/// Reports progress once.
#[beam_mcp::tool]
async fn report(ctx: Context) -> String {
    ctx.progress(1.0, None, None).expect("asked for progress");
    "reported".into()
}

/// Waits until cancelled; says so if it ever finishes.
#[beam_mcp::tool]
async fn wait(ctx: Context) -> String {
    ctx.cancelled().await;
    "cancelled, but answered".into()
}

fn server() -> Server {
    server_keeping(Kept::default())
}

fn server_keeping(kept: Kept) -> Server {
    Server::builder()
        .crate_items(module_path!())
        .state(kept)
        .build()
        .unwrap()
}

async fn drain(reply: Reply) -> Vec<Value> {
    let Reply::Pending(mut exchange) = reply else {
        panic!("host code runs later")
    };
    let mut out = Vec::new();
    while let Some(message) = exchange.next().await {
        out.push(match message {
            Outbound::Notification(n) => n,
            Outbound::Response(r) => r.to_value(),
        });
    }
    assert!(exchange.next().await.is_none(), "nothing after the end");
    out
}

#[tokio::test]
async fn nothing_follows_the_response_even_from_a_clone_of_the_context() {
    let kept = Kept::default();
    let server = server_keeping(kept.clone());
    let session = Session::new();
    let call = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "keep", "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": { "roots": {} },
            "io.modelcontextprotocol/clientInfo": { "name": "t", "version": "1" },
            "progressToken": 5, "traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            "example.com/custom": true } } });
    let out = drain(server.handle(&session, call.to_string().as_bytes())).await;
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(out[0]["method"], "notifications/progress");
    assert_eq!(out[1]["result"]["content"][0]["text"], "kept");
    let kept = kept.0.lock().unwrap().take().expect("the tool ran");
    assert_eq!(kept.progress(2.0, None, None), Err(NotSent::Finished));
    assert_eq!(
        kept.log(LogLevel::Emergency, "late"),
        Err(NotSent::NotRequested)
    );
    // What the host saw of its caller.
    assert_eq!(kept.client_info().unwrap()["name"], "t");
    assert!(kept.client_capabilities().unwrap().contains_key("roots"));
    assert_eq!(kept.progress_token(), Some(&json!(5)));
    assert_eq!(kept.meta()["example.com/custom"], true);
    assert!(kept.meta().contains_key("traceparent"));
    assert_eq!(session.running(), 0, "a finished request leaves no entry");
}

#[tokio::test]
async fn notifications_cancelled_drops_the_call_and_nothing_is_answered() {
    let server = server();
    let session = Session::new();
    let call = json!({ "jsonrpc": "2.0", "id": "w", "method": "tools/call", "params": { "name": "wait" } });
    let Reply::Pending(mut exchange) = server.handle(&session, call.to_string().as_bytes()) else {
        panic!("host code runs later")
    };
    assert_eq!(session.running(), 1);
    let cancel = json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": "w" } });
    assert!(matches!(
        server.handle(&session, cancel.to_string().as_bytes()),
        Reply::Silent
    ));
    assert!(
        exchange.next().await.is_none(),
        "a cancelled request is never answered"
    );
    drop(exchange);
    assert_eq!(session.running(), 0);
    // Another request with the same id is a new request.
    let Reply::Pending(again) = server.handle(&session, call.to_string().as_bytes()) else {
        panic!("host code runs later")
    };
    assert_eq!(session.running(), 1);
    drop(again);
    assert_eq!(
        session.running(),
        0,
        "dropping an exchange cancels and releases it"
    );
}

#[tokio::test]
async fn a_legacy_meta_without_a_version_is_kept_and_a_bad_token_refused() {
    let server = server();
    let session = Session::new();
    let call = |meta: Value| {
        json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": { "name": "report", "_meta": meta } }).to_string()
    };
    let out =
        drain(server.handle(&session, call(json!({ "progressToken": "p" })).as_bytes())).await;
    assert_eq!(out[0]["params"]["progressToken"], "p");
    assert!(
        out[1]["result"].get("resultType").is_none(),
        "served legacy-shaped"
    );
    let refused = server
        .handle(&session, call(json!({ "progressToken": 1.5 })).as_bytes())
        .resolve()
        .await
        .unwrap()
        .to_value();
    assert_eq!(refused["error"]["code"], -32602);
    // Naming client capabilities without a version is a 2026-07-28 request missing its version.
    let refused = server
        .handle(
            &session,
            call(json!({ "io.modelcontextprotocol/clientCapabilities": {} })).as_bytes(),
        )
        .resolve()
        .await
        .unwrap()
        .to_value();
    assert_eq!(refused["error"]["code"], -32602);
}
