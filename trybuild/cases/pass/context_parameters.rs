//! Tools, resource readers and prompts that take the request context (`Context`), sync and
//! async: their progress and logs reach the request's stream before its response.

#[path = "common/mod.rs"]
mod common;

use beam_mcp::protocol::{Outbound, Reply, Session};
use beam_mcp::{Context, LogLevel};
use serde_json::{Value, json};

/// Counts to three, reporting progress, synchronously.
#[beam_mcp::tool]
fn count(ctx: Context) -> String {
    for i in 1..=3 {
        ctx.progress(f64::from(i), Some(3.0), None).expect("the request asked for progress");
    }
    assert!(ctx.progress(1.0, None, None).is_err(), "progress only increases");
    "counted".into()
}

/// Logs, asynchronously.
#[beam_mcp::tool]
async fn chatty(ctx: beam_mcp::Context) -> String {
    tokio::task::yield_now().await;
    ctx.log(LogLevel::Warning, json!({ "said": "hi" })).expect("the session logs every level");
    "said hi".into()
}

/// A reader that logs.
#[beam_mcp::resource("ctx://note")]
fn note(ctx: Context) -> String {
    ctx.log(LogLevel::Info, "read").expect("logs flow");
    "a note".into()
}

/// A prompt that logs, whose argument an async completer completes.
#[beam_mcp::prompt(complete(topic = topics))]
fn ask(ctx: Context, topic: Option<String>) -> String {
    ctx.log(LogLevel::Info, "rendered").expect("logs flow");
    format!("ask about {}", topic.unwrap_or_default())
}

/// Waits, then suggests; it sees the request context too.
async fn topics(request: beam_mcp::completion::CompletionRequest) -> Vec<String> {
    tokio::task::yield_now().await;
    let who = if request.request_context().is_cancelled() { "cancelled" } else { "live" };
    vec![format!("{}-{who}", request.value())]
}

/// Everything the request sent: notifications, then the response.
fn conversation(server: &beam_mcp::Server, message: Value) -> Vec<Value> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let session = Session::new();
    let Reply::Pending(mut exchange) = server.handle(&session, message.to_string().as_bytes())
    else {
        panic!("host code runs later");
    };
    assert!(exchange.streams());
    runtime.block_on(async {
        let mut out = Vec::new();
        while let Some(next) = exchange.next().await {
            out.push(match next {
                Outbound::Notification(n) => n,
                Outbound::Response(r) => r.to_value(),
            });
        }
        out
    })
}

fn main() {
    let server = common::server();
    let caps = common::response(&server, "initialize", json!({ "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "t", "version": "0" } }));
    assert_eq!(caps["result"]["capabilities"]["logging"], json!({}));
    let call = |name: &str| json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": name, "_meta": { "progressToken": "t" } } });
    let got = conversation(&server, call("count"));
    let progress: Vec<&Value> = got[..3].iter().map(|n| &n["params"]["progress"]).collect();
    assert_eq!(progress, [&json!(1.0), &json!(2.0), &json!(3.0)]);
    assert_eq!(got[3]["result"]["content"][0]["text"], "counted");
    let got = conversation(&server, call("chatty"));
    assert_eq!(got[0]["params"], json!({ "level": "warning", "data": { "said": "hi" } }));
    assert_eq!(got.len(), 2);
    let read = json!({ "jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": { "uri": "ctx://note" } });
    assert_eq!(conversation(&server, read)[0]["params"]["data"], "read");
    let get = json!({ "jsonrpc": "2.0", "id": 3, "method": "prompts/get", "params": { "name": "ask" } });
    assert_eq!(conversation(&server, get)[0]["params"]["data"], "rendered");
    let complete = common::response(&server, "completion/complete", json!({
        "ref": { "type": "ref/prompt", "name": "ask" }, "argument": { "name": "topic", "value": "rust" } }));
    assert_eq!(complete["result"]["completion"]["values"], json!(["rust-live"]));
}
