//! beam-mcp's client against any server that serves the weather example's catalog (ours, the
//! Python SDK's copy in `tests/interop/py_server.py`, or either behind `liar.py`): each check
//! compares an exact value and prints `check NAME: ok`; the last line is the interop summary,
//! `{"client": "beam-mcp", "errors": ["NAME mismatch: expected .., got .."]}`, and the exit status
//! is 1 when any check fails. tests/interop/run.sh runs it against the Python SDK's server and
//! ours, and behind liar.py as a negative control.
//!
//! With `--cancel` (servers that have the `wait` and `last_wait` tools: the Python and TypeScript
//! SDKs' copies) it also drops a call to `wait` and checks the server heard it cancelled.
//!
//! `cargo run -p beam-mcp --features client-http --example client_check -- [--revision auto|2025-11-25|2026-07-28] [--expect-revision R] [--cancel] (--http URL | -- SERVER [ARGS...])`

use std::sync::{Arc, Mutex};
use std::time::Duration;

use beam_mcp::client::{Client, Heard};
use beam_mcp::protocol::Revision;
use serde_json::{Value, json};

/// The checks run so far, with a line per mismatch.
struct Checks {
    errors: Vec<String>,
}

impl Checks {
    fn same(&mut self, name: &str, got: Value, expected: Value) {
        if got == expected {
            println!("check {name}: ok");
        } else {
            self.errors
                .push(format!("{name} mismatch: expected {expected}, got {got}"));
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut revision = None;
    let mut expect = None;
    let mut url = None;
    let mut cancel = false;
    while let Some(flag) = args.first().cloned() {
        match flag.as_str() {
            "--cancel" => {
                cancel = true;
                args.remove(0);
            }
            "--http" if args.len() > 1 => {
                url = Some(args[1].clone());
                args.drain(..2);
            }
            "--revision" if args.len() > 1 => {
                revision = match args[1].as_str() {
                    "2025-11-25" => Some(Revision::V2025_11_25),
                    "2026-07-28" => Some(Revision::V2026_07_28),
                    _ => None,
                };
                args.drain(..2);
            }
            "--expect-revision" if args.len() > 1 => {
                expect = Some(args[1].clone());
                args.drain(..2);
            }
            "--" => {
                args.remove(0);
                break;
            }
            _ => break,
        }
    }
    let asked = Arc::new(Mutex::new(Vec::<String>::new()));
    let to = Arc::clone(&asked);
    let mut builder = Client::builder()
        .request_timeout(Duration::from_secs(30))
        .on_stderr(|line| eprintln!("server: {line}"))
        .on_elicitation(move |params: Value| {
            let to = Arc::clone(&to);
            async move {
                to.lock()
                    .unwrap()
                    .push(params["message"].as_str().unwrap_or_default().to_owned());
                json!({ "action": "accept", "content": { "travellers": 2, "seat": "window" } })
            }
        });
    if let Some(revision) = revision {
        builder = builder.revision(revision);
    }
    let connected = match (&url, args.split_first()) {
        (Some(url), _) => builder.http(url, Vec::new()).await,
        (None, Some((program, rest))) => {
            let mut command = tokio::process::Command::new(program);
            command.args(rest);
            builder.stdio(command).await
        }
        (None, None) => {
            eprintln!(
                "usage: client_check [--revision R] [--expect-revision R] (--http URL | -- SERVER [ARGS...])"
            );
            return std::process::ExitCode::from(2);
        }
    };
    let client = match connected {
        Ok(client) => client,
        Err(e) => {
            println!(
                "{}",
                json!({ "client": "beam-mcp", "errors": [format!("connect failed: {e}")] })
            );
            return std::process::ExitCode::from(1);
        }
    };
    let mut checks = Checks { errors: Vec::new() };
    let run = async |checks: &mut Checks| -> Result<(), beam_mcp::client::ClientError> {
        if let Some(expect) = &expect {
            checks.same("revision", json!(client.revision().as_str()), json!(expect));
        }
        let names: Vec<String> = client
            .list_tools()
            .await?
            .into_iter()
            .map(|t| t.name)
            .collect();
        for needed in ["book_trip", "forecast", "get_weather"] {
            checks.same(
                &format!("tools-list-{needed}"),
                json!(names.iter().any(|n| n == needed)),
                json!(true),
            );
        }
        let paris = client
            .call_tool("get_weather", json!({ "place": "Paris" }))
            .await?;
        checks.same(
            "tool-text",
            json!(paris.text()),
            json!("Paris: 14.5 °C, cloudy"),
        );
        checks.same("tool-ok", json!(paris.is_error), json!(false));
        let nowhere = client
            .call_tool("get_weather", json!({ "place": "Atlantis" }))
            .await?;
        checks.same("bad-call", json!(nowhere.is_error), json!(true));
        // Arguments against the schema: a tool error, or -32602, as each server has it.
        let refused = match client
            .call_tool("get_weather", json!({ "place": 42 }))
            .await
        {
            Ok(outcome) => outcome.is_error,
            Err(beam_mcp::client::ClientError::Protocol { code, .. }) => code == -32602,
            Err(e) => return Err(e),
        };
        checks.same("bad-args", json!(refused), json!(true));
        let heard = Arc::new(Mutex::new(Vec::new()));
        let into = Arc::clone(&heard);
        let forecast = client
            .call_tool_with_progress(
                "forecast",
                json!({ "place": "Paris", "days": 2 }),
                Some(move |h: Heard| into.lock().unwrap().push(h)),
            )
            .await?;
        checks.same(
            "forecast-text",
            json!(forecast.text()),
            json!("day 1: 15.5 °C, cloudy\nday 2: 16.5 °C, cloudy"),
        );
        let progress: Vec<Value> = heard
            .lock()
            .unwrap()
            .iter()
            .filter_map(|h| match h {
                Heard::Progress {
                    progress, total, ..
                } => Some(json!([progress, total])),
                _ => None,
            })
            .collect();
        checks.same("progress", json!(progress), json!([[1.0, 2.0], [2.0, 2.0]]));
        let booked = client
            .call_tool("book_trip", json!({ "place": "Paris" }))
            .await?;
        checks.same(
            "booking",
            json!(booked.text()),
            json!("Booked a trip to Paris for 2, window seats."),
        );
        checks.same(
            "elicit-request",
            json!(asked.lock().unwrap().clone()),
            json!(["Book a trip to Paris? It is 14.5 °C there, cloudy."]),
        );
        let stations = client.read_resource("weather://stations").await?;
        checks.same(
            "resource",
            stations.first().map_or(Value::Null, |c| c["text"].clone()),
            json!("Lisbon\nOslo\nParis"),
        );
        let prompt = client.get_prompt("plan_trip", [("place", "Oslo")]).await?;
        checks.same(
            "prompt",
            prompt
                .messages
                .first()
                .map_or(Value::Null, |(_, content)| content["text"].clone()),
            json!("I am going to Oslo for a few days. What should I pack?"),
        );
        if cancel {
            // Dropping the call cancels it: the server hears notifications/cancelled.
            let dropped = tokio::time::timeout(
                Duration::from_millis(300),
                client.call_tool("wait", json!({})),
            )
            .await;
            checks.same("cancel-dropped", json!(dropped.is_err()), json!(true));
            let mut last = Value::Null;
            for _ in 0..30 {
                last = json!(client.call_tool("last_wait", json!({})).await?.text());
                if last == "cancelled" {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            checks.same("cancel-heard", last, json!("cancelled"));
        }
        let completed = client
            .complete(
                json!({ "type": "ref/prompt", "name": "plan_trip" }),
                "place",
                "Pa",
            )
            .await?;
        checks.same("completion", json!(completed.values), json!(["Paris"]));
        Ok(())
    };
    if let Err(e) = run(&mut checks).await {
        checks.errors.push(format!("a call failed: {e}"));
    }
    client.close(Duration::from_secs(5)).await;
    println!(
        "{}",
        json!({ "client": "beam-mcp", "errors": checks.errors })
    );
    if checks.errors.is_empty() {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::from(1)
    }
}
