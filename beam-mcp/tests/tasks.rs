//! The tasks extension (SEP-2663, 2026-07-28) in process, on a runtime that keeps running
//! between requests so that tasks go on in the background: a call becomes a task the first
//! time it waits, is polled, answered, cancelled, and bound to its caller.

use std::time::Duration;

use beam_mcp::protocol::Session;
use beam_mcp::{Context, Elicit, Elicited, Server, ToolError};
use beam_mcp_tests::wait_until;
use serde_json::{Value, json};

#[derive(serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Confirm {
    confirm: bool,
}

/// Sleeps `ms` milliseconds.
#[beam_mcp::tool(task = "optional")]
async fn slow(ms: u64) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!("slept {ms} ms")
}

/// Fails after a while; only as a task.
#[beam_mcp::tool(task = "required")]
async fn doomed() -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_millis(20)).await;
    Err(ToolError::new("no luck"))
}

/// Panics after a while.
#[beam_mcp::tool(task = "optional")]
async fn broken() -> String {
    tokio::time::sleep(Duration::from_millis(20)).await;
    panic!("a bug")
}

/// Becomes a task, then asks twice at once.
#[beam_mcp::tool(task = "optional")]
async fn two_questions(ctx: Context) -> Result<String, ToolError> {
    ctx.detach().await;
    let (a, b) = tokio::join!(
        ctx.elicit::<Confirm>("First?").key("a"),
        ctx.elicit::<Confirm>("Second?").key("b"),
    );
    let yes = |r: Result<Elicited<Confirm>, beam_mcp::AskError>| {
        matches!(r, Ok(Elicited::Accepted(Confirm { confirm: true })))
    };
    Ok(format!("{} {}", yes(a), yes(b)))
}

/// Asks by rounds, then becomes a task.
#[beam_mcp::tool(task = "required")]
async fn rounds_then_task(ctx: Context) -> Result<String, ToolError> {
    let first = ctx.elicit::<Confirm>("Go?").key("go").await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    Ok(format!(
        "go={}",
        matches!(first, Ok(Elicited::Accepted(Confirm { confirm: true })))
    ))
}

/// A plain tool.
#[beam_mcp::tool]
fn plain() -> &'static str {
    "plain"
}

struct Harness {
    /// A current-thread runtime driven by a thread of its own (it blocks on a future that never
    /// ends), so that tasks go on between requests; current-thread, because the core needs no
    /// more (`rt`, which every feature set has: the feature step tests this without `stdio`).
    runtime: tokio::runtime::Handle,
    server: Server,
}

/// The handle of a current-thread runtime that a thread of its own keeps running.
fn background_runtime() -> tokio::runtime::Handle {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let handle = runtime.handle().clone();
    std::thread::spawn(move || runtime.block_on(std::future::pending::<()>()));
    handle
}

fn meta(tasks: bool) -> Value {
    let mut caps = json!({ "elicitation": {} });
    if tasks {
        caps["extensions"] = json!({ "io.modelcontextprotocol/tasks": {} });
    }
    json!({ "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": caps })
}

impl Harness {
    fn new() -> Self {
        Self::with(
            Server::builder()
                .crate_items(module_path!())
                .build()
                .unwrap(),
        )
    }

    fn with(server: Server) -> Self {
        Harness {
            runtime: background_runtime(),
            server,
        }
    }

    fn send(&self, session: &Session, method: &str, mut params: Value, tasks: bool) -> Value {
        params["_meta"] = meta(tasks);
        let message = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
        let reply = self.server.handle(session, message.to_string().as_bytes());
        let response = self.runtime.block_on(reply.resolve()).expect("an answer");
        response.to_value()
    }

    fn call(&self, tool: &str, arguments: Value, tasks: bool) -> Value {
        self.send(
            &Session::new(),
            "tools/call",
            json!({ "name": tool, "arguments": arguments }),
            tasks,
        )
    }

    fn get(&self, session: &Session, id: &str) -> Value {
        self.send(session, "tasks/get", json!({ "taskId": id }), true)["result"].clone()
    }

    /// Polls until the task leaves `working`.
    fn settle(&self, id: &str) -> Value {
        let mut task = Value::Null;
        wait_until(&format!("task {id} leaves working"), || {
            task = self.get(&Session::new(), id);
            task["status"] != "working"
        });
        task
    }
}

#[test]
fn a_waiting_call_becomes_a_task_that_completes_and_stays_readable() {
    let h = Harness::new();
    let created = h.call("slow", json!({ "ms": 50 }), true)["result"].clone();
    assert_eq!(created["resultType"], "task", "{created}");
    assert_eq!(created["status"], "working");
    for field in ["taskId", "createdAt", "lastUpdatedAt"] {
        assert!(created[field].is_string(), "{field}: {created}");
    }
    assert!(created["ttlMs"].as_u64().unwrap() > 0);
    assert!(created.get("content").is_none() && created.get("result").is_none());
    let id = created["taskId"].as_str().unwrap();
    // Readable at once (the task exists before its id is given out).
    assert_eq!(h.get(&Session::new(), id)["resultType"], "complete");
    let done = h.settle(id);
    assert_eq!(done["status"], "completed");
    assert_eq!(done["result"]["content"][0]["text"], "slept 50 ms");
    assert_eq!(h.get(&Session::new(), id)["status"], "completed");
    // Without the extension the same tool is a plain call; a plain tool never becomes a task.
    let sync = h.call("slow", json!({ "ms": 1 }), false)["result"].clone();
    assert_eq!(
        (
            sync["resultType"].clone(),
            sync["content"][0]["text"].clone()
        ),
        (json!("complete"), json!("slept 1 ms"))
    );
    assert_eq!(
        h.call("plain", json!({}), true)["result"]["resultType"],
        "complete"
    );
}

#[test]
fn a_tool_error_completes_a_panic_fails_and_a_cancel_wins() {
    let h = Harness::new();
    let id = |v: Value| v["result"]["taskId"].as_str().unwrap().to_owned();
    let doomed = id(h.call("doomed", json!({}), true));
    let done = h.settle(&doomed);
    assert_eq!(
        (done["status"].clone(), done["result"]["isError"].clone()),
        (json!("completed"), json!(true))
    );
    let broken = id(h.call("broken", json!({}), true));
    let failed = h.settle(&broken);
    assert_eq!(failed["status"], "failed");
    assert_eq!(
        failed["error"],
        json!({ "code": -32603, "message": "Internal error" })
    );
    assert!(failed.get("result").is_none());
    let slow = id(h.call("slow", json!({ "ms": 60_000 }), true));
    let ack = h.send(
        &Session::new(),
        "tasks/cancel",
        json!({ "taskId": slow }),
        true,
    );
    assert_eq!(ack["result"]["resultType"], "complete");
    assert!(ack["result"].get("taskId").is_none() && ack["result"].get("status").is_none());
    assert_eq!(h.get(&Session::new(), &slow)["status"], "cancelled");
    // Cancelling an ended task is the same acknowledgement, and changes nothing.
    let again = h.send(
        &Session::new(),
        "tasks/cancel",
        json!({ "taskId": doomed }),
        true,
    );
    assert_eq!(again["result"]["resultType"], "complete");
    assert_eq!(h.get(&Session::new(), &doomed)["status"], "completed");
}

#[test]
fn asks_in_a_task_park_it_until_tasks_update_answers_every_one() {
    let h = Harness::new();
    let created = h.call("two_questions", json!({}), true)["result"].clone();
    let id = created["taskId"].as_str().unwrap();
    let mut parked = Value::Null;
    wait_until("the task waits on both asks", || {
        parked = h.get(&Session::new(), id);
        parked["inputRequests"]
            .as_object()
            .is_some_and(|r| r.len() == 2)
    });
    assert_eq!(parked["status"], "input_required", "{parked}");
    assert_eq!(parked["inputRequests"]["a"]["method"], "elicitation/create");
    let update = |responses: Value| {
        h.send(
            &Session::new(),
            "tasks/update",
            json!({ "taskId": id, "inputResponses": responses }),
            true,
        )
    };
    let ack = update(json!({ "a": { "action": "accept", "content": { "confirm": true } } }));
    assert_eq!(
        ack["result"],
        json!({ "resultType": "complete", "_meta": ack["result"]["_meta"] })
    );
    let partial = h.get(&Session::new(), id);
    assert_eq!(partial["status"], "input_required");
    assert_eq!(
        partial["inputRequests"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["b"]
    );
    // A malformed answer is asked again (the update took the answer: a `b` seen after it is
    // the new ask).
    update(json!({ "b": { "action": "accept", "content": { "confirm": "yes" } } }));
    wait_until("the malformed answer is asked again", || {
        h.get(&Session::new(), id)["inputRequests"]["b"]["method"] == "elicitation/create"
    });
    update(json!({ "b": { "action": "decline" } }));
    let done = h.settle(id);
    assert_eq!(done["result"]["content"][0]["text"], "true false", "{done}");
}

#[test]
fn rounds_come_before_the_task_and_the_task_keeps_their_answer() {
    let h = Harness::new();
    let first = h.call("rounds_then_task", json!({}), true)["result"].clone();
    assert_eq!(first["resultType"], "input_required", "{first}");
    assert!(first.get("taskId").is_none());
    let session = Session::new();
    let second = h.send(
        &session,
        "tools/call",
        json!({ "name": "rounds_then_task", "arguments": {},
        "requestState": first["requestState"],
        "inputResponses": { "go": { "action": "accept", "content": { "confirm": true } } } }),
        true,
    )["result"]
        .clone();
    assert_eq!(second["resultType"], "task", "{second}");
    assert!(second.get("requestState").is_none());
    let done = h.settle(second["taskId"].as_str().unwrap());
    assert_eq!(done["result"]["content"][0]["text"], "go=true");
}

#[test]
fn the_extension_is_required_where_declared_and_tasks_are_their_callers() {
    let h = Harness::new();
    // A tool that runs only as a task, for a client without the extension: -32021.
    let refused = h.call("doomed", json!({}), false);
    assert_eq!(refused["error"]["code"], -32021);
    assert_eq!(
        refused["error"]["data"],
        json!({ "requiredCapabilities": { "extensions": { "io.modelcontextprotocol/tasks": {} } } })
    );
    // tasks/* without the extension: -32021; an unknown id: -32602; no id: -32602.
    let got = h.send(
        &Session::new(),
        "tasks/get",
        json!({ "taskId": "x" }),
        false,
    );
    assert_eq!(got["error"]["code"], -32021);
    let got = h.send(
        &Session::new(),
        "tasks/get",
        json!({ "taskId": "nope" }),
        true,
    );
    assert_eq!(
        (
            got["error"]["code"].clone(),
            got["error"]["message"].clone()
        ),
        (json!(-32602), json!("Invalid params: unknown task"))
    );
    let got = h.send(&Session::new(), "tasks/update", json!({}), true);
    assert_eq!(
        got["error"]["message"],
        "Invalid params: tasks/update requires a string taskId"
    );
    // The methods SEP-2663 removed are unknown.
    for method in ["tasks/result", "tasks/list"] {
        assert_eq!(
            h.send(&Session::new(), method, json!({}), true)["error"]["code"],
            -32601
        );
    }
    // Alice's task is not Bob's.
    let alice = Session::new().with_principal("alice".to_owned());
    let bob = Session::new().with_principal("bob".to_owned());
    let created = h.send(
        &alice,
        "tools/call",
        json!({ "name": "slow", "arguments": { "ms": 10 } }),
        true,
    );
    let id = created["result"]["taskId"].as_str().unwrap();
    assert_eq!(
        h.send(&bob, "tasks/get", json!({ "taskId": id }), true)["error"]["code"],
        -32602
    );
    assert!(
        h.send(&alice, "tasks/get", json!({ "taskId": id }), true)["result"]["status"].is_string()
    );
}

#[test]
fn an_ask_in_a_task_nobody_answers_times_out_and_the_task_ends() {
    let h = Harness::with(
        Server::builder()
            .crate_items(module_path!())
            .ask_time_limit(Duration::from_millis(200))
            .build()
            .unwrap(),
    );
    let created = h.call("two_questions", json!({}), true)["result"].clone();
    let id = created["taskId"].as_str().unwrap();
    let mut done = Value::Null;
    wait_until("the task ends", || {
        done = h.get(&Session::new(), id);
        ["completed", "failed", "cancelled"].contains(&done["status"].as_str().unwrap_or(""))
    });
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["result"]["content"][0]["text"], "false false");
}

/// Tasks have an in-flight bound of their own, each principal a share of it, and a lifetime:
/// (before, a task was answered at once and ran on outside every bound, for ever).
#[test]
fn running_tasks_are_bounded_shared_by_principal_and_cancelled_past_their_lifetime() {
    let h = Harness::with(
        Server::builder()
            .crate_items(module_path!())
            .max_running_tasks(3)
            .max_running_tasks_per_principal(2)
            .task_lifetime(Duration::from_millis(400))
            .build()
            .unwrap(),
    );
    let alice = Session::new().with_principal("alice".to_owned());
    let bob = Session::new().with_principal("bob".to_owned());
    let start = |session: &Session| {
        h.send(
            session,
            "tools/call",
            json!({ "name": "slow", "arguments": { "ms": 60_000 } }),
            true,
        )
    };
    let a1 = start(&alice);
    assert_eq!(a1["result"]["resultType"], "task", "{a1}");
    assert_eq!(start(&alice)["result"]["resultType"], "task");
    // Alice's share is taken; Bob is still served, and then the server's bound is reached.
    let refused = start(&alice);
    assert_eq!(refused["error"]["code"], -32603, "{refused}");
    assert_eq!(
        refused["error"]["message"],
        "Too many tasks: try again later"
    );
    assert_eq!(start(&bob)["result"]["resultType"], "task");
    assert_eq!(start(&bob)["error"]["code"], -32603, "three running in all");
    // Past their lifetime the tasks are cancelled, not kept running, and make room again.
    let id = a1["result"]["taskId"].as_str().unwrap();
    let mut task = Value::Null;
    wait_until("the task is cancelled past its lifetime", || {
        task = h.get(&alice, id);
        task["status"] != "working"
    });
    assert_eq!(task["status"], "cancelled", "{task}");
    wait_until("a new task is taken once the others ended", || {
        start(&bob)["result"]["resultType"] == "task"
    });
}
