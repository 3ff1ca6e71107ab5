//! Proxies (`ServerBuilder::mount_remote`, issue 26), with beam-mcp's client on both sides of
//! the proxy: the composed example in front of the weather example and the e2e fixture (real
//! processes over real pipes, and over Streamable HTTP on a loopback socket), at both
//! revisions. Every call is checked for exact values: names namespaced, arguments validated
//! against the remote's schema before anything is sent, progress, an elicitation (the remote's
//! round relayed to the caller at either revision) and cancellation relayed,
//! the remote's list changes heard by the front's listeners, a remote killed mid-call answered
//! by name while the local items serve, and re-mounted when it returns. Hostile remotes (a
//! Python script over stdio) that send 100 MB, nest 10,000 deep, never answer, or flood
//! notifications, against an in-process front served over HTTP: each cannot stall the local
//! item nor grow memory past the client's bounds.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use beam_mcp::client::{Client, Heard, Listen};
use beam_mcp::protocol::Revision;
use beam_mcp::proxy::Remote;
use beam_mcp_tests::{HttpServerProcess, workspace_binary};
use serde_json::json;

fn composed() -> PathBuf {
    workspace_binary("composed", "composed")
}

fn fixture() -> PathBuf {
    workspace_binary("beam-mcp-fixture", "fixture")
}

fn weather() -> PathBuf {
    workspace_binary("weather", "weather")
}

/// `composed --remote NAME -- COMMAND..` over stdio.
fn front(name: &str, remote: &[&str]) -> tokio::process::Command {
    let mut command = tokio::process::Command::new(composed());
    command.args(["--remote", name, "--"]).args(remote);
    command
}

/// A client that accepts every booking for two at the window, recording what it was asked.
fn booking() -> (beam_mcp::client::ClientBuilder, Arc<Mutex<Vec<String>>>) {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let to = Arc::clone(&asked);
    let builder = Client::builder()
        .request_timeout(Duration::from_secs(20))
        .on_elicitation(move |params: serde_json::Value| {
            let to = Arc::clone(&to);
            async move {
                let message = params["message"].as_str().unwrap_or_default().to_owned();
                to.lock().unwrap().push(message);
                json!({ "action": "accept", "content": { "travellers": 2, "seat": "window" } })
            }
        });
    (builder, asked)
}

async fn connect(command: tokio::process::Command, revision: Option<Revision>) -> Client {
    let builder = Client::builder().request_timeout(Duration::from_secs(20));
    let builder = match revision {
        Some(r) => builder.revision(r),
        None => builder,
    };
    builder.stdio(command).await.expect("the front starts")
}

/// Lists, calls, reads and gets through the front, with exact values.
async fn exercise(client: &Client) {
    let tools = client.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    for expected in [
        "hello",
        "notes_search",
        "files_search",
        "weather_get_weather",
        "weather_forecast",
        "weather_book_trip",
    ] {
        assert!(names.contains(&expected), "{expected} in {names:?}");
    }
    // The remote's schema, as it listed it.
    let remote = tools
        .iter()
        .find(|t| t.name == "weather_get_weather")
        .unwrap();
    assert_eq!(remote.input_schema["required"], json!(["place"]));

    let paris = client
        .call_tool("weather_get_weather", json!({ "place": "Paris" }))
        .await
        .unwrap();
    assert_eq!(
        (paris.text().as_str(), paris.is_error),
        ("Paris: 14.5 °C, cloudy", false)
    );
    // The remote's own failure, relayed as its outcome.
    let nowhere = client
        .call_tool("weather_get_weather", json!({ "place": "Atlantis" }))
        .await
        .unwrap();
    assert_eq!(
        (nowhere.text().as_str(), nowhere.is_error),
        ("no station for Atlantis", true)
    );
    // Refused here, by the remote's schema, before anything is sent.
    let bad = client
        .call_tool("weather_get_weather", json!({ "place": 7 }))
        .await
        .unwrap();
    assert_eq!(
        bad.text(),
        "weather_get_weather: invalid arguments: place must be of type string"
    );
    // Local items beside the remote's.
    let hello = client.call_tool("hello", json!({})).await.unwrap();
    assert_eq!(hello.text(), "hello from the composed server");

    // Progress, relayed from the remote to this caller.
    crate::client::forecast_with_progress(client, "weather_forecast").await;

    // Resources and templates under the prefix, their contents under the served URI.
    let stations = client
        .read_resource("weather://weather/stations")
        .await
        .unwrap();
    assert_eq!(stations[0]["uri"], "weather://weather/stations");
    assert!(
        stations[0]["text"].as_str().unwrap().contains("Paris"),
        "{stations:?}"
    );
    let station = client
        .read_resource("weather://weather/station/Paris")
        .await
        .unwrap();
    assert_eq!(station[0]["uri"], "weather://weather/station/Paris");
    let templates = client.list_resource_templates().await.unwrap();
    assert!(
        templates
            .iter()
            .any(|t| t["uriTemplate"] == "weather://weather/station/{place}"),
        "{templates:?}"
    );
    // A view moves with its tool's link.
    let reading = tools.iter().find(|t| t.name == "weather_reading").unwrap();
    let _ = reading;
    let resources = client.list_resources().await.unwrap();
    assert!(
        resources
            .iter()
            .any(|r| r["uri"] == "ui://weather/weather/reading"),
        "{resources:?}"
    );

    // A prompt, its arguments as the remote declared them.
    let prompts = client.list_prompts().await.unwrap();
    let plan = prompts
        .iter()
        .find(|p| p["name"] == "weather_plan_trip")
        .expect("the remote's prompt");
    assert_eq!(plan["arguments"][0]["name"], "place");
    let rendered = client
        .get_prompt("weather_plan_trip", [("place", "Oslo")])
        .await
        .unwrap();
    assert!(rendered.text().contains("Oslo"), "{}", rendered.text());
    // Its argument completed by the remote, named as the remote names it.
    let reference = json!({ "type": "ref/prompt", "name": "weather_plan_trip" });
    let done = client.complete(reference, "place", "Pa").await.unwrap();
    assert_eq!(done.values, ["Paris"]);
    let reference = json!({ "type": "ref/resource", "uri": "weather://weather/station/{place}" });
    let done = client.complete(reference, "place", "O").await.unwrap();
    assert_eq!(done.values, ["Oslo"]);
}

#[tokio::test]
async fn a_proxied_server_is_served_through_the_front_at_both_revisions() {
    for revision in [None, Some(Revision::V2025_11_25)] {
        let weather = weather();
        let (builder, asked) = booking();
        let builder = match revision {
            Some(r) => builder.revision(r),
            None => builder,
        };
        let client = builder
            .stdio(front("weather", &[weather.to_str().unwrap()]))
            .await
            .unwrap();
        exercise(&client).await;
        booked(&client, &asked).await;
        client.close(Duration::from_secs(2)).await;
    }
}

#[tokio::test]
async fn a_stdio_only_server_is_served_over_http_through_the_front() {
    let weather = weather();
    let server = HttpServerProcess::spawn_with_args(
        &composed(),
        &["--remote", "weather", "--", weather.to_str().unwrap()],
    );
    let url = format!("http://{}/mcp", server.addr);
    for revision in [None, Some(Revision::V2025_11_25)] {
        let (builder, asked) = booking();
        let builder = match revision {
            Some(r) => builder.revision(r),
            None => builder,
        };
        let client = builder.http(&url, Vec::new()).await.unwrap();
        exercise(&client).await;
        booked(&client, &asked).await;
    }
}

#[tokio::test]
async fn the_remotes_list_changes_reach_the_fronts_listeners() {
    let fixture = fixture();
    let client = connect(front("fixture", &[fixture.to_str().unwrap()]), None).await;
    let mut changes = client.listen(Listen::new().tools()).await.unwrap();
    let toggled = client.call_tool("fixture_toggle", json!({})).await.unwrap();
    assert_eq!(toggled.text(), "removed");
    let heard = tokio::time::timeout(Duration::from_secs(10), changes.next())
        .await
        .expect("a change heard");
    assert!(
        matches!(heard, Some(Heard::Other(ref note)) if note["method"] == "notifications/tools/list_changed"),
        "{heard:?}"
    );
    let names: Vec<String> = client
        .list_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert!(!names.iter().any(|n| n == "fixture_extra"), "{names:?}");
    let gone = client
        .call_tool("fixture_extra", json!({}))
        .await
        .unwrap_err();
    assert_eq!(gone.code(), Some(-32602));
    // Added back: heard again, and served.
    client.call_tool("fixture_toggle", json!({})).await.unwrap();
    tokio::time::timeout(Duration::from_secs(10), changes.next())
        .await
        .expect("a second change heard");
    let extra = client.call_tool("fixture_extra", json!({})).await.unwrap();
    assert_eq!(extra.text(), "extra");
}

#[tokio::test]
async fn a_cancelled_call_is_cancelled_at_the_remote() {
    let fixture = fixture();
    let client = connect(front("fixture", &[fixture.to_str().unwrap()]), None).await;
    let counts = async || {
        let counts = client.call_tool("fixture_counts", json!({})).await.unwrap();
        counts.structured.expect("structured counts")
    };
    // Boxed, so that dropping it ends it here (a pinned local would live to the end).
    let mut call = Box::pin(client.call_tool("fixture_sleepy", json!({ "ms": 20000 })));
    // Dropped once it has started at the remote (seen through a second call meanwhile).
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        tokio::select! {
            done = &mut call => panic!("the call ended before it was dropped: {done:?}"),
            started = counts() => if started["started"] == 1 { break },
        }
        assert!(
            Instant::now() < deadline,
            "the call never started at the remote"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    drop(call);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let counts = counts().await;
        if counts["started"] == 1 && counts["dropped"] == 1 {
            assert_eq!(counts["finished"], 0);
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the remote's call was not cancelled: {counts}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_remote_killed_mid_call_is_named_and_remounted_when_it_returns() {
    let dir = std::env::temp_dir().join(format!("beam-proxy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pids = dir.join("pids");
    let _ = std::fs::remove_file(&pids);
    // The remote writes its pid each time it is started, so the test can kill it.
    let script = format!(
        "echo $$ >> {}; exec {}",
        pids.display(),
        fixture().display()
    );
    let client = connect(front("fixture", &["sh", "-c", &script]), None).await;
    let client = Arc::new(client);
    let caller = Arc::clone(&client);
    let call = tokio::spawn(async move {
        caller
            .call_tool("fixture_sleepy", json!({ "ms": 10000 }))
            .await
    });
    // Killed once the call runs at the remote (its own count, through a second call).
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let counts = client.call_tool("fixture_counts", json!({})).await.unwrap();
        if counts.structured.expect("structured counts")["started"] == 1 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the call never started at the remote"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let first = std::fs::read_to_string(&pids).unwrap();
    let pid = first.lines().next().unwrap().trim().to_owned();
    assert!(
        std::process::Command::new("kill")
            .args(["-9", &pid])
            .status()
            .unwrap()
            .success()
    );
    let killed = call.await.unwrap().unwrap();
    assert!(killed.is_error);
    assert!(
        killed
            .text()
            .starts_with("remote \"fixture\" is unavailable: "),
        "{}",
        killed.text()
    );
    // The front's own items serve meanwhile.
    let hello = client.call_tool("hello", json!({})).await.unwrap();
    assert_eq!(hello.text(), "hello from the composed server");
    // Reconnected (a second process started) and served again.
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let echo = client
            .call_tool("fixture_echo", json!({ "text": "back" }))
            .await
            .unwrap();
        if !echo.is_error {
            assert_eq!(echo.text(), "back");
            break;
        }
        assert!(
            echo.text()
                .starts_with("remote \"fixture\" is unavailable: "),
            "{}",
            echo.text()
        );
        assert!(
            Instant::now() < deadline,
            "not reconnected: {}",
            echo.text()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(std::fs::read_to_string(&pids).unwrap().lines().count(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Greets whoever calls: the front's own item, which a hostile remote must not stall.
#[beam_mcp::tool]
fn local() -> String {
    "still here".into()
}

/// The high-water mark of this process's resident memory, in KiB.
fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// An in-process front mounting the hostile remote in `mode`, served on a loopback socket;
/// the client calling it over HTTP.
async fn hostile(mode: &'static str) -> (Client, tokio::task::JoinHandle<()>) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/e2e/hostile_remote.py");
    let remote = Remote::connect("hostile", move |client| {
        let mut python = tokio::process::Command::new("python3");
        python.args([script, mode]);
        // Short for the remote that never answers; long enough for a flood on a loaded machine.
        let limit = if mode == "silent" { 2 } else { 60 };
        Box::pin(
            client
                .request_timeout(Duration::from_secs(limit))
                .stdio(python),
        )
    })
    .await
    .unwrap();
    let server = beam_mcp::Server::builder()
        .tool(local::DEF)
        .mount_remote(remote)
        .build()
        .unwrap();
    let http = beam_mcp::transport::http::Http::builder(server)
        .authorize(|_| Ok(()))
        .allowed_origins(beam_mcp::transport::http::Origins::Loopback)
        .build()
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let serving = tokio::spawn(async move {
        let _ = beam_mcp::transport::http::serve(listener, http).await;
    });
    let client = Client::builder()
        .request_timeout(Duration::from_secs(30))
        .http(&url, Vec::new())
        .await
        .unwrap();
    (client, serving)
}

/// Calls the hostile tool and, while it is in flight, the local one; both answer, the hostile
/// one as an error naming the remote (or `survived`), within `limit`.
async fn attacked(mode: &'static str, limit: Duration) -> String {
    let (client, serving) = hostile(mode).await;
    let started = Instant::now();
    let attack = client.call_tool("hostile_attack", json!({}));
    let local = async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        client.call_tool("local", json!({})).await
    };
    let (attack, local) = tokio::join!(attack, local);
    assert_eq!(
        local.unwrap().text(),
        "still here",
        "{mode}: the local item stalled"
    );
    assert!(started.elapsed() < limit, "{mode}: {:?}", started.elapsed());
    let attack = attack.unwrap();
    serving.abort();
    attack.text()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_remotes_cannot_stall_the_front_or_grow_its_memory() {
    let before = peak_kib();
    let big = attacked("big", Duration::from_secs(20)).await;
    assert!(
        big.starts_with(
            "remote \"hostile\" is unavailable: the connection to the server is closed: "
        ),
        "{big}"
    );
    let deep = attacked("deep", Duration::from_secs(20)).await;
    assert!(
        deep.starts_with(
            "remote \"hostile\" is unavailable: the connection to the server is closed: "
        ),
        "{deep}"
    );
    let silent = attacked("silent", Duration::from_secs(20)).await;
    assert_eq!(
        silent,
        "remote \"hostile\": no answer to tools/call within 2s"
    );
    let flood = attacked("flood", Duration::from_secs(90)).await;
    assert_eq!(flood, "survived");
    // 100 MB sent at us, 200,000 notifications: the peak grew by far less.
    let grown = peak_kib().saturating_sub(before);
    assert!(grown < 64 * 1024, "the peak grew by {grown} KiB");
}

/// The remote's elicitation (a 2026-07-28 round at the remote) relayed to this caller, and its
/// answer back: asked exactly once a call, as the remote asked it.
async fn booked(client: &Client, asked: &Arc<Mutex<Vec<String>>>) {
    let booked = client
        .call_tool("weather_book_trip", json!({ "place": "Paris" }))
        .await
        .unwrap();
    assert_eq!(
        (booked.text().as_str(), booked.is_error),
        ("Booked a trip to Paris for 2, window seats.", false)
    );
    assert_eq!(
        asked.lock().unwrap().as_slice(),
        ["Book a trip to Paris? It is 14.5 °C there, cloudy."]
    );
}

#[tokio::test]
async fn the_remotes_log_messages_reach_the_caller_at_its_level() {
    let fixture = fixture();
    let heard = Arc::new(Mutex::new(Vec::new()));
    let to = Arc::clone(&heard);
    let client = Client::builder()
        .revision(Revision::V2025_11_25)
        .request_timeout(Duration::from_secs(20))
        .on_heard(move |h| {
            if let Heard::Log { level, data, .. } = h {
                to.lock().unwrap().push((level, data));
            }
        })
        .stdio(front("fixture", &[fixture.to_str().unwrap()]))
        .await
        .unwrap();
    client
        .request("logging/setLevel", json!({ "level": "error" }))
        .await
        .unwrap();
    let steps = client
        .call_tool("fixture_steps", json!({ "count": 1, "delay_ms": 10 }))
        .await
        .unwrap();
    assert_eq!(steps.text(), "1 steps");
    // The remote was asked for every level (its call's `_meta` at 2026-07-28); this caller
    // hears those it asked for, in order.
    let deadline = Instant::now() + Duration::from_secs(5);
    while heard.lock().unwrap().len() < 4 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let heard = heard.lock().unwrap().clone();
    let levels: Vec<&str> = heard.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(levels, ["error", "critical", "alert", "emergency"]);
    assert_eq!(heard[0].1, "a error message");
}

#[tokio::test]
async fn the_remotes_resource_updates_reach_the_fronts_subscribers() {
    let fixture = fixture();
    for revision in [None, Some(Revision::V2025_11_25)] {
        let client = connect(front("fixture", &[fixture.to_str().unwrap()]), revision).await;
        let served = "fixture://fixture/watched";
        let mut updates = client.listen(Listen::new().resource(served)).await.unwrap();
        let touched = client
            .call_tool("fixture_touch", json!({ "uri": "fixture://watched" }))
            .await
            .unwrap();
        assert_eq!(touched.text(), "touched fixture://watched");
        let heard = tokio::time::timeout(Duration::from_secs(10), updates.next())
            .await
            .expect("an update heard");
        let Some(Heard::Other(note)) = heard else {
            panic!("{heard:?}");
        };
        assert_eq!(note["method"], "notifications/resources/updated");
        assert_eq!(note["params"]["uri"], served);
        client.close(Duration::from_secs(2)).await;
    }
}

#[tokio::test]
async fn a_resource_the_remote_lists_after_connecting_has_its_updates_relayed() {
    let fixture = fixture();
    for revision in [None, Some(Revision::V2025_11_25)] {
        let client = connect(front("fixture", &[fixture.to_str().unwrap()]), revision).await;
        let served = "fixture://fixture/later";
        let mut changes = client.listen(Listen::new().resources()).await.unwrap();
        let added = client
            .call_tool("fixture_toggle_later", json!({}))
            .await
            .unwrap();
        assert_eq!(added.text(), "added");
        tokio::time::timeout(Duration::from_secs(10), changes.next())
            .await
            .expect("the remote's new resource heard as a change");
        // The view is remounted before this server tells its listeners; the read proves it.
        let read = client.read_resource(served).await.unwrap();
        assert_eq!(read[0]["text"], "later");
        let mut updates = client.listen(Listen::new().resource(served)).await.unwrap();
        // The subscription at the remote is opened after the change is told here: touch until
        // one update comes through (each touch is one notification at most).
        let mut heard = None;
        for _ in 0..50 {
            client
                .call_tool("fixture_touch", json!({ "uri": "fixture://later" }))
                .await
                .unwrap();
            if let Ok(next) = tokio::time::timeout(Duration::from_millis(200), updates.next()).await
            {
                heard = next;
                break;
            }
        }
        let Some(Heard::Other(note)) = heard else {
            panic!("no update of the resource listed after connecting: {heard:?}");
        };
        assert_eq!(note["method"], "notifications/resources/updated");
        assert_eq!(note["params"]["uri"], served);
        client.close(Duration::from_secs(2)).await;
    }
}
