//! beam-mcp's client (`beam_mcp::client`) as the tested thing, against the weather example's
//! process over real pipes and over Streamable HTTP on a loopback socket: negotiation (auto to 2026-07-28, forced 2025-11-25), every typed
//! call with exact values, a refused call's error kept whole, progress heard, an elicitation
//! answered by the host's handler at both revisions (a request on the session, and a retried
//! request with `inputResponses`), a time limit, and a server that dies mid-connection; against
//! the conformance harness, tasks followed and driven, `Mcp-Param-*` headers and sampling;
//! against the e2e fixture's live catalog, listening as a stream at both revisions and a dropped
//! listen ended on the server; and a session's GET stream resumed with `Last-Event-ID`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use beam_mcp::client::{Client, ClientBuilder, ClientError, Heard};
use beam_mcp::protocol::Revision;
use beam_mcp_tests::{HttpServerProcess, workspace_binary};
use serde_json::{Value, json};

fn weather() -> tokio::process::Command {
    tokio::process::Command::new(workspace_binary("weather", "weather"))
}

/// Accepts a booking for two at the window, and records each elicitation's message.
pub(crate) fn booking(asked: Arc<Mutex<Vec<String>>>) -> ClientBuilder {
    Client::builder().on_elicitation(move |params: Value| {
        let asked = Arc::clone(&asked);
        async move {
            let message = params["message"].as_str().unwrap_or_default().to_owned();
            asked.lock().unwrap().push(message);
            json!({ "action": "accept", "content": { "travellers": 2, "seat": "window" } })
        }
    })
}

/// Calls the weather example's `forecast` (served as `tool`) for two days: the exact text, and
/// its two progress notifications heard by the call.
pub(crate) async fn forecast_with_progress(client: &Client, tool: &str) {
    let heard = Arc::new(Mutex::new(Vec::new()));
    let to = Arc::clone(&heard);
    let forecast = client
        .call_tool_with_progress(
            tool,
            json!({ "place": "Paris", "days": 2 }),
            Some(move |h: Heard| to.lock().unwrap().push(h)),
        )
        .await
        .unwrap();
    assert_eq!(
        forecast.text(),
        "day 1: 15.5 °C, cloudy\nday 2: 16.5 °C, cloudy"
    );
    let progress: Vec<(f64, Option<f64>)> = heard
        .lock()
        .unwrap()
        .iter()
        .filter_map(|h| match h {
            Heard::Progress {
                progress, total, ..
            } => Some((*progress, *total)),
            _ => None,
        })
        .collect();
    assert_eq!(progress, [(1.0, Some(2.0)), (2.0, Some(2.0))]);
}

pub(crate) async fn exercise(client: &Client, asked: &Arc<Mutex<Vec<String>>>) {
    assert_eq!(client.server_info()["name"], "weather");
    assert!(client.capabilities().get("tools").is_some());

    let tools = client.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "book_trip",
            "convert",
            "forecast",
            "get_weather",
            "reading",
            "reading_fahrenheit",
            "region_mean"
        ]
    );

    let paris = client
        .call_tool("get_weather", json!({ "place": "Paris" }))
        .await
        .unwrap();
    assert_eq!(paris.text(), "Paris: 14.5 °C, cloudy");
    assert!(!paris.is_error);
    // A tool's own failure is an outcome, not an error.
    let nowhere = client
        .call_tool("get_weather", json!({ "place": "Atlantis" }))
        .await
        .unwrap();
    assert!(nowhere.is_error);
    assert_eq!(nowhere.text(), "no station for Atlantis");
    // Arguments the schema refuses are the tool's error too, as the spec has it.
    let bad = client
        .call_tool("get_weather", json!({ "place": 7 }))
        .await
        .unwrap();
    assert!(bad.is_error);
    assert_eq!(
        bad.text(),
        "get_weather: invalid arguments: place must be of type string"
    );
    // A refused call keeps its code and message.
    let refused = client
        .call_tool("no_such_tool", json!({}))
        .await
        .unwrap_err();
    let ClientError::Protocol {
        code,
        message,
        data,
    } = &refused
    else {
        panic!("{refused:?}");
    };
    assert_eq!(
        (*code, message.as_str()),
        (-32602, "Unknown tool"),
        "{refused}"
    );
    assert_eq!(
        data.as_ref(),
        Some(&json!({ "name": "no_such_tool" })),
        "{refused:?}"
    );

    forecast_with_progress(client, "forecast").await;

    let booked = client
        .call_tool("book_trip", json!({ "place": "Paris" }))
        .await
        .unwrap();
    assert_eq!(booked.text(), "Booked a trip to Paris for 2, window seats.");
    assert_eq!(
        asked.lock().unwrap().as_slice(),
        ["Book a trip to Paris? It is 14.5 °C there, cloudy."]
    );

    let stations = client.read_resource("weather://stations").await.unwrap();
    assert_eq!(stations[0]["uri"], "weather://stations");
    assert!(stations[0]["text"].as_str().unwrap().contains("Paris"));
    let templates = client.list_resource_templates().await.unwrap();
    assert_eq!(templates[0]["uriTemplate"], "weather://station/{place}");
    let prompts = client.list_prompts().await.unwrap();
    assert_eq!(prompts[0]["name"], "plan_trip");
    let completed = client
        .complete(
            json!({ "type": "ref/prompt", "name": "plan_trip" }),
            "place",
            "Pa",
        )
        .await
        .unwrap();
    assert_eq!(completed.values, ["Paris"]);
    let unknown = client.read_resource("weather://station/Atlantis").await;
    assert!(
        matches!(unknown, Err(ClientError::Protocol { .. })),
        "{unknown:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn negotiates_2026_07_28_and_makes_every_call() {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let client = booking(Arc::clone(&asked)).stdio(weather()).await.unwrap();
    assert_eq!(client.revision(), Revision::V2026_07_28);
    exercise(&client, &asked).await;
    client.close(Duration::from_secs(5)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn speaks_2025_11_25_when_told_and_answers_the_sessions_asks() {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let client = booking(Arc::clone(&asked))
        .revision(Revision::V2025_11_25)
        .stdio(weather())
        .await
        .unwrap();
    assert_eq!(client.revision(), Revision::V2025_11_25);
    exercise(&client, &asked).await;
    client.close(Duration::from_secs(5)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_elicitation_without_a_handler_is_refused_by_name() {
    let client = Client::stdio(weather()).await.unwrap();
    let refused = client
        .call_tool("book_trip", json!({ "place": "Paris" }))
        .await;
    // Without the capability the server does not ask: the tool answers that it cannot.
    let outcome = refused.unwrap();
    assert!(outcome.is_error, "{outcome:?}");
    assert!(outcome.text().contains("book_trip"), "{}", outcome.text());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_is_not_there_or_ends_is_a_clear_error() {
    let missing = Client::stdio(tokio::process::Command::new("/nonexistent/mcp-server")).await;
    assert!(
        matches!(missing, Err(ClientError::Spawn { .. })),
        "{:?}",
        missing.err()
    );

    // A process that is no MCP server: it ends at once.
    let mut silent = tokio::process::Command::new("sh");
    silent.args(["-c", "exit 0"]);
    let refused = Client::builder()
        .request_timeout(Duration::from_secs(5))
        .stdio(silent)
        .await;
    let Err(ClientError::Negotiation { detail }) = refused else {
        panic!("{:?}", refused.err());
    };
    assert!(detail.contains("closed"), "{detail}");

    // One that never answers: the time limit.
    let mut mute = tokio::process::Command::new("sh");
    mute.args(["-c", "sleep 30"]);
    let started = std::time::Instant::now();
    let refused = Client::builder()
        .request_timeout(Duration::from_millis(300))
        .stdio(mute)
        .await;
    assert!(
        matches!(refused, Err(ClientError::Negotiation { .. })),
        "{:?}",
        refused.err()
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hostile_answer_closes_the_connection_with_the_bound_it_broke() {
    // Answers the probe with a message nested 100 deep.
    let deep = format!("{}{}", "[".repeat(100), "]".repeat(100));
    let script = format!(
        "read line; printf '{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{deep}}}\\n'; sleep 5"
    );
    let mut hostile = tokio::process::Command::new("sh");
    hostile.args(["-c", &script]);
    let refused = Client::builder()
        .revision(Revision::V2026_07_28)
        .stdio(hostile)
        .await;
    let Err(ClientError::Closed { reason }) = refused else {
        panic!("{:?}", refused.err());
    };
    assert!(reason.contains("nest"), "{reason}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_negotiates_2026_07_28_and_makes_every_call() {
    let server = HttpServerProcess::spawn(&workspace_binary("weather", "weather"));
    let url = format!("http://{}/mcp", server.addr);
    let asked = Arc::new(Mutex::new(Vec::new()));
    let client = booking(Arc::clone(&asked))
        .http(&url, Vec::new())
        .await
        .unwrap();
    assert_eq!(client.revision(), Revision::V2026_07_28);
    exercise(&client, &asked).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_speaks_a_2025_11_25_session_when_told() {
    let server = HttpServerProcess::spawn(&workspace_binary("weather", "weather"));
    let url = format!("http://{}/mcp", server.addr);
    let asked = Arc::new(Mutex::new(Vec::new()));
    let client = booking(Arc::clone(&asked))
        .revision(Revision::V2025_11_25)
        .http(&url, Vec::new())
        .await
        .unwrap();
    assert_eq!(client.revision(), Revision::V2025_11_25);
    exercise(&client, &asked).await;
    // Closing ends the session on the server: its id is answered 404 afterwards.
    let session = client.session_id().expect("a 2025-11-25 session id");
    client.close(Duration::from_secs(5)).await;
    let mut raw = beam_mcp_tests::http_client::Connection::open(server.addr);
    let ping = br#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#;
    let host = server.addr.to_string();
    let answer = raw.post(
        &[
            ("host", host.as_str()),
            ("mcp-session-id", session.as_str()),
            ("mcp-protocol-version", "2025-11-25"),
            ("content-type", "application/json"),
            ("accept", "application/json, text/event-stream"),
        ],
        ping,
    );
    assert_eq!(answer.status, 404, "{answer:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_an_endpoint_that_is_not_there_is_a_clear_error() {
    // A port nothing listens on (bound, then closed).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let refused = Client::builder()
        .request_timeout(Duration::from_secs(5))
        .http(&format!("http://127.0.0.1:{port}/mcp"), Vec::new())
        .await;
    let Err(ClientError::Negotiation { detail }) = refused else {
        panic!("{:?}", refused.err());
    };
    assert!(detail.contains("cannot connect"), "{detail}");
    let ftp = Client::builder()
        .http("ftp://example.com/mcp", Vec::new())
        .await;
    assert!(
        matches!(ftp, Err(ClientError::Closed { .. })),
        "{:?}",
        ftp.err()
    );
}

/// A stdio server that never reads its input: once the pipe is full a write blocks, and the
/// request's limit still ends the call (1 MiB of arguments fills a Linux pipe's 64 KiB).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_stops_reading_cannot_hang_a_call() {
    let discover = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"public"}}"#;
    let mut deaf = tokio::process::Command::new("sh");
    deaf.args(["-c", &format!("read a; echo '{discover}'; sleep 30")]);
    let client = Client::builder()
        .revision(Revision::V2026_07_28)
        .request_timeout(Duration::from_millis(800))
        .stdio(deaf)
        .await
        .unwrap();
    let started = std::time::Instant::now();
    let big = "x".repeat(1 << 20);
    let stuck = client.call_tool("t", json!({ "text": big })).await;
    assert!(
        matches!(stuck, Err(ClientError::Timeout { .. })),
        "{stuck:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

/// A stdio server that answers the probe, then floods the client with 50,000 log messages
/// before its answer: the answer still arrives and is right (the notifications are heard and
/// dropped, not queued), and a line of 100 MB is refused at the bound, not read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_is_heard_and_a_huge_line_refused() {
    let discover = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"public"}}"#;
    let log = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"spam"}}"#;
    let tools = r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","tools":[{"name":"t","inputSchema":{"type":"object"}}]}}"#;
    let script = format!(
        "read a; echo '{discover}'; read b; i=0; while [ $i -lt 50000 ]; do echo '{log}'; i=$((i+1)); done; echo '{tools}'; sleep 5"
    );
    let heard = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = Arc::clone(&heard);
    let mut flood = tokio::process::Command::new("sh");
    flood.args(["-c", &script]);
    let client = Client::builder()
        .revision(Revision::V2026_07_28)
        .on_heard(move |_| {
            count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        })
        .stdio(flood)
        .await
        .unwrap();
    let tools = client.list_tools().await.unwrap();
    assert_eq!(tools[0].name, "t");
    assert_eq!(heard.load(std::sync::atomic::Ordering::Relaxed), 50_000);

    // 100 MB on one line: refused once past 1 MiB (head stops writing when the pipe closes).
    let mut huge = tokio::process::Command::new("sh");
    huge.args([
        "-c",
        "read a; head -c 104857600 /dev/zero | tr '\\0' x; echo",
    ]);
    let started = std::time::Instant::now();
    let refused = Client::builder()
        .revision(Revision::V2026_07_28)
        .stdio(huge)
        .await;
    let Err(ClientError::Closed { reason }) = refused else {
        panic!("{:?}", refused.err());
    };
    assert!(reason.contains("over 1048576 bytes"), "{reason}");
    assert!(started.elapsed() < Duration::from_secs(20));
}

/// An HTTP endpoint that answers with 8 MiB, and one that answers an event stream and then
/// nothing: the first is refused at the bound, the second by the request's time limit, and
/// neither stalls a call to a healthy endpoint made meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_http_endpoints_are_bounded() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    async fn serve(listener: tokio::net::TcpListener, body: &'static [u8], stream: bool) {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            tokio::spawn(async move {
                let mut request = vec![0u8; 65536];
                let _ = socket.read(&mut request).await;
                if stream {
                    let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n";
                    let _ = socket.write_all(head.as_bytes()).await;
                    tokio::time::sleep(Duration::from_secs(30)).await;
                } else {
                    let head = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
                        body.len()
                    );
                    let _ = socket.write_all(head.as_bytes()).await;
                    let _ = socket.write_all(body).await;
                }
            });
        }
    }
    static BIG: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    let big: &'static [u8] = BIG.get_or_init(|| vec![b' '; 8 << 20]);
    let huge = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let huge_url = format!("http://{}/mcp", huge.local_addr().unwrap());
    tokio::spawn(serve(huge, big, false));
    let refused = Client::builder()
        .revision(Revision::V2026_07_28)
        .http(&huge_url, Vec::new())
        .await;
    let Err(ClientError::Closed { reason }) = refused else {
        panic!("{:?}", refused.err());
    };
    assert!(reason.contains("over 1048576 bytes"), "{reason}");

    // An endpoint that accepts and never sends a status line: the limit covers the POST too.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let silent_url = format!("http://{}/mcp", silent.local_addr().unwrap());
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = silent.accept().await {
            held.push(socket);
        }
    });
    let refused = Client::builder()
        .revision(Revision::V2026_07_28)
        .request_timeout(Duration::from_millis(500))
        .http(&silent_url, Vec::new())
        .await;
    assert!(
        matches!(refused, Err(ClientError::Timeout { .. })),
        "{:?}",
        refused.err()
    );

    let mute = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let mute_url = format!("http://{}/mcp", mute.local_addr().unwrap());
    tokio::spawn(serve(mute, b"", true));
    let healthy = HttpServerProcess::spawn(&workspace_binary("weather", "weather"));
    let client = Client::builder()
        .http(&format!("http://{}/mcp", healthy.addr), Vec::new())
        .await
        .unwrap();
    let started = std::time::Instant::now();
    let stalled = Client::builder()
        .revision(Revision::V2026_07_28)
        .request_timeout(Duration::from_millis(500))
        .http(&mute_url, Vec::new());
    let (stalled, paris) = tokio::join!(
        stalled,
        client.call_tool("get_weather", json!({ "place": "Paris" }))
    );
    assert!(
        matches!(stalled, Err(ClientError::Timeout { .. })),
        "{:?}",
        stalled.err()
    );
    assert_eq!(paris.unwrap().text(), "Paris: 14.5 °C, cloudy");
    assert!(started.elapsed() < Duration::from_secs(10));
}

/// A POST answered with JSON that does not answer its request fails that request at once, not
/// at its time limit: an error tied to no id (`"id": null`, as the TypeScript SDK's 2025-11-25
/// server refuses a request without a session, with 400) is its answer, with the server's code
/// and message; an answer to another id, or a body that is no JSON-RPC, is a clear error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_answered_without_its_answer_fails_at_once() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    async fn answering(status: &'static str, body: &'static str) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                tokio::spawn(async move {
                    let mut request = vec![0u8; 65536];
                    let _ = socket.read(&mut request).await;
                    let head = format!(
                        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
                        body.len()
                    );
                    let _ = socket.write_all(head.as_bytes()).await;
                    let _ = socket.write_all(body.as_bytes()).await;
                });
            }
        });
        url
    }
    let connect = |url: String| async move {
        let started = std::time::Instant::now();
        let outcome = Client::builder()
            .revision(Revision::V2026_07_28)
            .request_timeout(Duration::from_secs(30))
            .http(&url, Vec::new())
            .await;
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "waited {:?}",
            started.elapsed()
        );
        outcome.expect_err("the endpoint answers nothing a client can use")
    };
    let unbound = answering(
        "400 Bad Request",
        r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}"#,
    )
    .await;
    match connect(unbound).await {
        ClientError::Protocol { code, message, .. } => {
            assert_eq!(code, -32000);
            assert_eq!(message, "Bad Request: Server not initialized");
        }
        other => panic!("{other:?}"),
    }
    let other_id = answering("200 OK", r#"{"jsonrpc":"2.0","id":"1","result":{}}"#).await;
    match connect(other_id).await {
        ClientError::Closed { reason } => assert_eq!(
            reason,
            "the POST was answered HTTP 200 OK without an answer to it"
        ),
        other => panic!("{other:?}"),
    }
    let no_answer = answering("200 OK", r#"{"ok":true}"#).await;
    match connect(no_answer).await {
        ClientError::Closed { reason } => assert_eq!(
            reason,
            "the POST was answered HTTP 200 OK with no JSON-RPC answer"
        ),
        other => panic!("{other:?}"),
    }
}

/// The conformance harness over HTTP (its task tools), and a client that declares the tasks
/// extension and answers each elicitation by its message.
async fn tasks_client() -> (HttpServerProcess, Client) {
    let harness = HttpServerProcess::spawn_with_env(
        &workspace_binary("conformance-harness", "conformance-harness"),
        &[("PORT", "0")],
    );
    let client = Client::builder()
        .tasks()
        .on_elicitation(|params: Value| async move {
            match params["message"].as_str().unwrap_or_default() {
                "What is your name?" => json!({ "action": "accept", "content": { "name": "Ada" } }),
                message if message.starts_with("Delete ") => {
                    json!({ "action": "accept", "content": { "confirm": true } })
                }
                _ => json!({ "action": "decline" }),
            }
        })
        .http(&format!("http://{}/mcp", harness.addr), Vec::new())
        .await
        .unwrap();
    assert_eq!(client.revision(), Revision::V2026_07_28);
    (harness, client)
}

/// A call that becomes a task is followed to its end by `call_tool`: a sleeping tool's result,
/// an ask inside the task answered through `tasks/update`, rounds before the task, a tool's own
/// error, and a failed task's error kept whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tasks_are_followed_to_their_end_and_their_asks_answered() {
    let (_harness, client) = tasks_client().await;
    let slow = client
        .call_tool("slow_compute", json!({ "seconds": 1, "label": "pi" }))
        .await
        .unwrap();
    assert_eq!(slow.text(), "Computed pi after 1 s.");
    let deleted = client
        .call_tool("confirm_delete", json!({ "filename": "notes.txt" }))
        .await
        .unwrap();
    assert_eq!(deleted.text(), "Deleted notes.txt.");
    let greeted = client
        .call_tool("test_tool_with_task", json!({}))
        .await
        .unwrap();
    assert_eq!(greeted.text(), "Hello, Ada, from a task.");
    let failing = client.call_tool("failing_job", json!({})).await.unwrap();
    assert!(failing.is_error);
    assert_eq!(failing.text(), "the job failed");
    let failed = client
        .call_tool("protocol_error_job", json!({}))
        .await
        .unwrap_err();
    assert_eq!(failed.code(), Some(-32603), "{failed}");
}

/// The host drives a task itself: started, read working, cancelled, read cancelled; and a
/// follow that is dropped cancels its task on the server. Without the extension, a tool that
/// requires a task is refused (-32021).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_is_driven_by_the_host_and_a_dropped_follow_cancels_it() {
    use beam_mcp::client::{Started, TaskStatus};
    let (harness, client) = tasks_client().await;
    let Started::Task(task) = client
        .start_tool("slow_compute", json!({ "seconds": 30 }))
        .await
        .unwrap()
    else {
        panic!("a 30 s call becomes a task");
    };
    assert_eq!(task.status, TaskStatus::Working);
    assert_eq!(
        client.get_task(&task.id).await.unwrap().status,
        TaskStatus::Working
    );
    client.cancel_task(&task.id).await.unwrap();
    let cancelled = client.get_task(&task.id).await.unwrap();
    assert_eq!(cancelled.status, TaskStatus::Cancelled);
    assert!(matches!(
        cancelled.outcome(),
        Some(Err(ClientError::Cancelled { .. }))
    ));

    let Started::Task(task) = client
        .start_tool("slow_compute", json!({ "seconds": 30 }))
        .await
        .unwrap()
    else {
        panic!("a 30 s call becomes a task");
    };
    let id = task.id.clone();
    let followed = tokio::time::timeout(Duration::from_millis(300), client.wait_task(task)).await;
    assert!(followed.is_err(), "still working after 300 ms");
    let mut status = TaskStatus::Working;
    for _ in 0..50 {
        status = client.get_task(&id).await.unwrap().status;
        if status != TaskStatus::Working {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        status,
        TaskStatus::Cancelled,
        "the dropped follow cancelled it"
    );

    let plain = Client::builder()
        .http(&format!("http://{}/mcp", harness.addr), Vec::new())
        .await
        .unwrap();
    let refused = plain.call_tool("failing_job", json!({})).await.unwrap_err();
    assert_eq!(refused.code(), Some(-32021), "{refused}");
}

/// Over HTTP at 2026-07-28 a call mirrors its tool's `x-mcp-header` arguments in `Mcp-Param-*`
/// (the server refuses a call whose headers and body disagree: `-32020`), the tools listed
/// first when the host has not: a string (non-ASCII, so in the Base64 sentinel), an integer
/// and a boolean, and an optional one left out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_mirrors_its_marked_arguments_in_param_headers() {
    let harness = HttpServerProcess::spawn_with_env(
        &workspace_binary("conformance-harness", "conformance-harness"),
        &[("PORT", "0")],
    );
    let client = Client::builder()
        .http(&format!("http://{}/mcp", harness.addr), Vec::new())
        .await
        .unwrap();
    assert_eq!(client.revision(), Revision::V2026_07_28);
    let all = client
        .call_tool(
            "test_x_mcp_header",
            json!({ "region": "Zürich", "priority": 3, "verbose": true }),
        )
        .await
        .unwrap();
    assert_eq!(
        all.text(),
        "region=Zürich priority=Some(3) verbose=Some(true)"
    );
    let some = client
        .call_tool("test_x_mcp_header", json!({ "region": "eu" }))
        .await
        .unwrap();
    assert_eq!(some.text(), "region=eu priority=None verbose=None");
}

/// The server's sampling asks reach the host's model handler at both revisions: inside an
/// `InputRequiredResult` at 2026-07-28, as a request on the session at 2025-11-25; without a
/// handler the client declares no `sampling` and the ask is refused by name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sampling_is_answered_by_the_hosts_model_at_both_revisions() {
    let harness = HttpServerProcess::spawn_with_env(
        &workspace_binary("conformance-harness", "conformance-harness"),
        &[("PORT", "0")],
    );
    let url = format!("http://{}/mcp", harness.addr);
    let asked = Arc::new(Mutex::new(Vec::new()));
    let model = |asked: Arc<Mutex<Vec<Value>>>| {
        Client::builder().on_sampling(move |params: Value| {
            let asked = Arc::clone(&asked);
            async move {
                asked
                    .lock()
                    .unwrap()
                    .push(params["messages"][0]["content"]["text"].clone());
                json!({ "role": "assistant", "model": "host-model",
                    "content": { "type": "text", "text": "Paris" } })
            }
        })
    };
    let modern = model(Arc::clone(&asked))
        .http(&url, Vec::new())
        .await
        .unwrap();
    assert_eq!(modern.revision(), Revision::V2026_07_28);
    let said = modern
        .call_tool("test_input_required_result_sampling", json!({}))
        .await
        .unwrap();
    assert_eq!(said.text(), "The model (host-model) said: Paris");
    let legacy = model(Arc::clone(&asked))
        .revision(Revision::V2025_11_25)
        .http(&url, Vec::new())
        .await
        .unwrap();
    let said = legacy
        .call_tool("test_sampling", json!({ "prompt": "Capital of France?" }))
        .await
        .unwrap();
    assert_eq!(said.text(), "LLM response: Paris");
    assert_eq!(
        *asked.lock().unwrap(),
        [
            json!("What is the capital of France?"),
            json!("Capital of France?")
        ]
    );
    let without = Client::builder().http(&url, Vec::new()).await.unwrap();
    let refused = without
        .call_tool("test_input_required_result_sampling", json!({}))
        .await;
    // No handler, no `sampling` declared: the server's ask fails, and the tool says so.
    let refused = refused.unwrap();
    assert!(refused.is_error);
    assert_eq!(
        refused.text(),
        "the client did not declare the sampling capability for this request"
    );
}

fn fixture() -> std::path::PathBuf {
    workspace_binary("beam-mcp-fixture", "fixture")
}

/// The next change a subscription hears, within 5 s: its method and `uri`, if any.
async fn next_change(changes: &mut beam_mcp::client::Subscription) -> (String, Value) {
    let heard = tokio::time::timeout(Duration::from_secs(5), changes.next())
        .await
        .expect("a change within 5 s")
        .expect("the subscription is open");
    let Heard::Other(note) = heard else {
        panic!("not a change: {heard:?}")
    };
    (
        note["method"].as_str().unwrap_or_default().to_owned(),
        note["params"]["uri"].clone(),
    )
}

/// Listening at both revisions over both transports, against the fixture's live catalog: a
/// tool list change and a subscribed resource's update are heard, a resource not asked for is
/// not; at 2026-07-28 the server acknowledges what it honours, and dropping the subscription
/// ends it on the server (its listener count falls back, over stdio by `notifications/cancelled`,
/// over HTTP by closing the stream); at 2025-11-25 over HTTP the changes come on the session's
/// GET stream (the only way they can).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changes_are_heard_as_a_stream_and_a_dropped_listen_ends_on_the_server() {
    use beam_mcp::client::Listen;
    let http = HttpServerProcess::spawn(&fixture());
    let url = format!("http://{}/mcp", http.addr);
    for revision in [Revision::V2026_07_28, Revision::V2025_11_25] {
        let stdio = Client::builder()
            .revision(revision)
            .stdio(tokio::process::Command::new(fixture()))
            .await
            .unwrap();
        let over_http = Client::builder()
            .revision(revision)
            .http(&url, Vec::new())
            .await
            .unwrap();
        for client in [&stdio, &over_http] {
            let count = async || -> String {
                client
                    .call_tool("listeners", json!({}))
                    .await
                    .unwrap()
                    .text()
            };
            let before = count().await;
            let mut changes = client
                .listen(Listen::new().tools().resource("fixture://watched"))
                .await
                .unwrap();
            if revision == Revision::V2026_07_28 {
                assert_eq!(
                    changes.acknowledged(),
                    Some(
                        &json!({ "toolsListChanged": true, "resourceSubscriptions": ["fixture://watched"] })
                    )
                );
            }
            // A 2025-11-25 session is the server's listener from `initialize` on (over HTTP
            // `listen` returned once its GET stream was open).
            let modern = revision == Revision::V2026_07_28;
            if modern {
                assert_ne!(count().await, before, "a listener more");
            }
            client
                .call_tool("touch", json!({ "uri": "fixture://other" }))
                .await
                .unwrap();
            client.call_tool("toggle", json!({})).await.unwrap();
            assert_eq!(
                next_change(&mut changes).await,
                ("notifications/tools/list_changed".to_owned(), Value::Null),
                "{revision:?}"
            );
            client
                .call_tool("touch", json!({ "uri": "fixture://watched" }))
                .await
                .unwrap();
            assert_eq!(
                next_change(&mut changes).await,
                (
                    "notifications/resources/updated".to_owned(),
                    json!("fixture://watched")
                ),
                "{revision:?}: only the resource asked for"
            );
            drop(changes);
            if !modern {
                continue;
            }
            let mut after = String::new();
            for _ in 0..50 {
                after = count().await;
                if after == before {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            assert_eq!(
                after, before,
                "{revision:?}: the listening ended on the server"
            );
        }
    }
}

/// A 2025-11-25 endpoint of a few lines over a real socket, to see what the client sends on its
/// GET stream: `initialize` gets a session, notifications 202; the first GET gets one event
/// (`id: s-1`) and is closed; every later GET's `Last-Event-ID` is recorded, and it gets the
/// next event and stays open.
async fn resumable_endpoint(listener: tokio::net::TcpListener, seen: Arc<Mutex<Vec<String>>>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let gets = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    loop {
        let Ok((mut socket, _)) = listener.accept().await else {
            return;
        };
        let (seen, gets) = (Arc::clone(&seen), Arc::clone(&gets));
        tokio::spawn(async move {
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
                match socket.read(&mut chunk).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => buf.extend_from_slice(&chunk[..n]),
                }
            }
            let head = String::from_utf8_lossy(&buf).to_ascii_lowercase();
            let change = |n: u32| {
                format!(
                    "id: s-{n}\ndata: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\",\"params\":{{\"n\":{n}}}}}\n\n"
                )
            };
            if head.starts_with("get ") {
                let last = head
                    .lines()
                    .find_map(|l| l.strip_prefix("last-event-id:"))
                    .map(|v| v.trim().to_owned())
                    .unwrap_or_else(|| "none".to_owned());
                seen.lock().unwrap().push(last);
                let n = gets.fetch_add(1, std::sync::atomic::Ordering::SeqCst) as u32 + 1;
                let reply = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n{}",
                    change(n)
                );
                let _ = socket.write_all(reply.as_bytes()).await;
                if n > 1 {
                    tokio::time::sleep(Duration::from_secs(30)).await;
                }
                return;
            }
            let answer = if head.contains("\"initialize\"") {
                let body = r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"resumable","version":"1"}}}"#;
                format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nmcp-session-id: s\r\ncontent-length: {}\r\n\r\n{body}",
                    body.len()
                )
            } else {
                "HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n".to_owned()
            };
            let _ = socket.write_all(answer.as_bytes()).await;
        });
    }
}

/// The session's GET stream, dropped by the server, is opened again with `Last-Event-ID` set
/// to the last event's id, and what comes on either opening is heard.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_session_stream_resumes_with_last_event_id() {
    use beam_mcp::client::Listen;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    tokio::spawn(resumable_endpoint(listener, Arc::clone(&seen)));
    let client = Client::builder()
        .revision(Revision::V2025_11_25)
        .http(&url, Vec::new())
        .await
        .unwrap();
    let mut changes = client.listen(Listen::new().tools()).await.unwrap();
    for n in [1, 2] {
        let heard = tokio::time::timeout(Duration::from_secs(5), changes.next())
            .await
            .expect("heard within 5 s")
            .unwrap();
        let Heard::Other(note) = heard else {
            panic!("{heard:?}")
        };
        assert_eq!(note["params"]["n"], n);
    }
    assert_eq!(*seen.lock().unwrap(), ["none", "s-1"]);
}

/// A server that does not serve `subscriptions/listen` refuses it, and the client says so with
/// the server's own error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listen_the_server_does_not_serve_is_its_refusal() {
    let client = Client::builder().stdio(weather()).await.unwrap();
    assert_eq!(client.revision(), Revision::V2026_07_28);
    let refused = client
        .listen(beam_mcp::client::Listen::new().tools())
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Some(-32601), "{refused}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_servers_export_is_the_pinned_one_byte_for_byte() {
    let server = HttpServerProcess::spawn(&workspace_binary("weather", "weather"));
    let url = format!("http://{}/mcp", server.addr);
    for revision in [Revision::V2026_07_28, Revision::V2025_11_25] {
        let pinned = std::fs::read(format!(
            "{}/../examples/weather/advertised/{}.json",
            env!("CARGO_MANIFEST_DIR"),
            revision.as_str()
        ))
        .unwrap();
        let over_stdio = Client::builder()
            .revision(revision)
            .stdio(weather())
            .await
            .unwrap()
            .advertised()
            .await
            .unwrap();
        assert_eq!(over_stdio.revision(), revision);
        assert!(
            over_stdio.bytes() == pinned.as_slice(),
            "{revision}: {}",
            String::from_utf8_lossy(over_stdio.bytes())
        );
        let over_http = Client::builder()
            .revision(revision)
            .http(&url, Vec::new())
            .await
            .unwrap()
            .advertised()
            .await
            .unwrap();
        assert_eq!(over_http.digest_hex(), over_stdio.digest_hex());
    }
}
