//! `cargo beam-mcp dev` kept by two clients at once, a 2025-11-25 session and a 2026-07-28
//! client (each starting its own front in the crate, as a host does), while the crate's source
//! changes: a tool added, a description changed, a compile error introduced and then fixed.
//! Each client hears every list change, lists the current catalog after it, hears the broken
//! build's errors as a log message while the last build answers, and keeps its connection.

mod common;

use std::path::Path;

use common::{root, target_dir};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use beam_mcp::client::{Client, Heard, Listen, Subscription};
use beam_mcp::protocol::Revision;
use serde_json::json;

/// What a client heard besides list changes: log messages, and the front's stderr lines.
#[derive(Default)]
struct Heard2 {
    logs: Vec<String>,
    stderr: Vec<String>,
}

struct Kept {
    client: Client,
    changes: Subscription,
    heard: Arc<Mutex<Heard2>>,
}

async fn keep(krate: &Path, revision: Revision) -> Kept {
    let heard = Arc::new(Mutex::new(Heard2::default()));
    let (logs, errs) = (Arc::clone(&heard), Arc::clone(&heard));
    let mut front = tokio::process::Command::new(env!("CARGO_BIN_EXE_cargo-beam-mcp"));
    front
        .current_dir(krate)
        .arg("dev")
        .arg("--target-dir")
        .arg(target_dir());
    let client = Client::builder()
        .revision(revision)
        .request_timeout(Duration::from_secs(300))
        .on_heard(move |h| {
            if let Heard::Log { data, .. } = h {
                logs.lock()
                    .unwrap()
                    .logs
                    .push(data.as_str().unwrap_or_default().to_owned());
            }
        })
        .on_stderr(move |line| errs.lock().unwrap().stderr.push(line))
        .stdio(front)
        .await
        .unwrap();
    let changes = client.listen(Listen::new().tools()).await.unwrap();
    Kept {
        client,
        changes,
        heard,
    }
}

async fn names(client: &Client) -> Vec<(String, String)> {
    client
        .list_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| (t.name, t.description.unwrap_or_default()))
        .collect()
}

/// Waits for the next tools list change.
async fn changed(kept: &mut Kept, what: &str) {
    let heard = tokio::time::timeout(Duration::from_secs(300), kept.changes.next())
        .await
        .unwrap_or_else(|_| panic!("no list change heard after {what}"));
    match heard {
        Some(Heard::Other(note)) => {
            assert_eq!(note["method"], "notifications/tools/list_changed", "{what}")
        }
        other => panic!("{what}: {other:?}"),
    }
}

/// Saves `main` with each `(from, to)` replaced once, in one write.
fn edit(main: &Path, changes: &[(&str, &str)]) {
    let mut text = std::fs::read_to_string(main).unwrap();
    for (from, to) in changes {
        assert!(text.contains(from), "{from:?} not in {text}");
        text = text.replacen(from, to, 1);
    }
    std::fs::write(main, text).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_keep_their_sessions_across_three_changes() {
    let dir = std::env::temp_dir().join(format!("cargo-beam-mcp-dev-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let made = Command::new(env!("CARGO_BIN_EXE_cargo-beam-mcp"))
        .current_dir(&dir)
        .args(["new", "devnotes", "--beam-mcp"])
        .arg(root().join("beam-mcp"))
        .output()
        .unwrap();
    assert!(made.status.success());
    let krate = dir.join("devnotes");
    std::fs::copy(root().join("Cargo.lock"), krate.join("Cargo.lock")).unwrap();
    let main = krate.join("src/main.rs");

    let mut legacy = keep(&krate, Revision::V2025_11_25).await;
    let mut modern = keep(&krate, Revision::V2026_07_28).await;
    for kept in [&legacy, &modern] {
        assert_eq!(
            names(&kept.client).await,
            [("hello".to_owned(), "Says hello to someone.".to_owned())]
        );
    }

    // 1. A tool added.
    edit(
        &main,
        &[(
            "beam_mcp::serve!",
            "/// Says goodbye.\n#[beam_mcp::tool]\nfn goodbye() -> String {\n    \"Goodbye!\".into()\n}\n\nbeam_mcp::serve!",
        )],
    );
    for kept in [&mut legacy, &mut modern] {
        changed(kept, "a tool added").await;
        let listed: Vec<String> = names(&kept.client)
            .await
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(listed, ["goodbye", "hello"]);
        let answer = kept.client.call_tool("goodbye", json!({})).await.unwrap();
        assert_eq!(answer.text(), "Goodbye!");
    }

    // 2. A description changed.
    edit(
        &main,
        &[("/// Says hello to someone.", "/// Greets someone by name.")],
    );
    for kept in [&mut legacy, &mut modern] {
        changed(kept, "a description changed").await;
        let listed = names(&kept.client).await;
        assert!(
            listed.contains(&("hello".to_owned(), "Greets someone by name.".to_owned())),
            "{listed:?}"
        );
    }

    // 3. A compile error: the last build answers on, and the errors are told.
    edit(&main, &[("\"Goodbye!\".into()", "42")]);
    for kept in [&legacy, &modern] {
        let deadline = std::time::Instant::now() + Duration::from_secs(300);
        loop {
            if kept
                .heard
                .lock()
                .unwrap()
                .logs
                .iter()
                .any(|l| l.contains("the build failed") && l.contains("error[E0308]"))
            {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "no log of the failed build"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let answer = kept.client.call_tool("goodbye", json!({})).await.unwrap();
        assert_eq!(answer.text(), "Goodbye!", "the last build serves");
    }
    // ... and fixed, with one more tool in the same save.
    edit(
        &main,
        &[
            ("42", "\"Goodbye again!\".into()"),
            (
                "beam_mcp::serve!",
                "/// Waves.\n#[beam_mcp::tool]\nfn wave() -> String {\n    \"~\".into()\n}\n\nbeam_mcp::serve!",
            ),
        ],
    );
    for kept in [&mut legacy, &mut modern] {
        changed(kept, "the error fixed").await;
        let listed: Vec<String> = names(&kept.client)
            .await
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(listed, ["goodbye", "hello", "wave"]);
        let answer = kept.client.call_tool("goodbye", json!({})).await.unwrap();
        assert_eq!(answer.text(), "Goodbye again!");
    }
    for kept in [&legacy, &modern] {
        let heard = kept.heard.lock().unwrap();
        let serving: Vec<&String> = heard
            .stderr
            .iter()
            .filter(|l| l.contains(" serving"))
            .collect();
        assert_eq!(
            serving.len(),
            4,
            "the first build and three after saves: {:?}",
            heard.stderr
        );
        assert!(
            serving[1..].iter().all(|l| l.contains("ms after the save")),
            "{serving:?}"
        );
        for line in serving {
            println!("{line}");
        }
    }
    legacy.client.close(Duration::from_secs(5)).await;
    modern.client.close(Duration::from_secs(5)).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_build_whose_process_ends_is_started_again_and_the_session_goes_on() {
    let dir = std::env::temp_dir().join(format!("cargo-beam-mcp-dev-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let made = Command::new(env!("CARGO_BIN_EXE_cargo-beam-mcp"))
        .current_dir(&dir)
        .args(["new", "crashy", "--beam-mcp"])
        .arg(root().join("beam-mcp"))
        .output()
        .unwrap();
    assert!(made.status.success());
    let krate = dir.join("crashy");
    std::fs::copy(root().join("Cargo.lock"), krate.join("Cargo.lock")).unwrap();
    // A tool that ends the process (as an abort or a stack overflow would): no tool error
    // can answer it, the front must.
    edit(
        &krate.join("src/main.rs"),
        &[(
            "beam_mcp::serve!",
            "/// Ends the process.\n#[beam_mcp::tool]\nfn crash() -> String {\n    std::process::abort()\n}\n\nbeam_mcp::serve!",
        )],
    );
    for revision in [Revision::V2025_11_25, Revision::V2026_07_28] {
        let kept = keep(&krate, revision).await;
        for round in 0..2 {
            let ended = kept.client.call_tool("crash", json!({})).await.unwrap_err();
            assert!(
                ended.to_string().contains("the server's process ended"),
                "{revision} {round}: {ended}"
            );
            let answer = kept
                .client
                .call_tool("hello", json!({ "name": "Ada" }))
                .await
                .unwrap();
            assert_eq!(
                answer.text(),
                "Hello, Ada!",
                "{revision} {round}: started again"
            );
        }
        let logs = kept.heard.lock().unwrap().logs.clone();
        let restarted = logs
            .iter()
            .filter(|l| l.contains("started again as build"))
            .count();
        assert_eq!(restarted, 2, "{revision}: {logs:?}");
        kept.client.close(Duration::from_secs(5)).await;
    }
    let _ = std::fs::remove_dir_all(&dir);
}
