//! The in-process test client at both revisions: typed results, errors, and the progress and
//! logs host code sends.

use beam_mcp::protocol::Revision;
use beam_mcp::testing::{Heard, TestClient, TestError};
use beam_mcp::{Context, LogLevel, Server};
use serde_json::json;

/// Counts to three, reporting each step.
#[beam_mcp::tool]
fn count(context: Context) -> String {
    for step in 1..=3u32 {
        let message = format!("step {step}");
        let _ = context.progress(f64::from(step), Some(3.0), Some(&message));
    }
    let _ = context.log(LogLevel::Info, "counted");
    "3".into()
}

#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Debug, PartialEq)]
struct Sum {
    total: i64,
}

/// Adds two numbers.
#[beam_mcp::tool]
fn add(a: i64, b: i64) -> Sum {
    Sum { total: a + b }
}

/// Fails on purpose.
#[beam_mcp::tool]
fn fails() -> Result<String, beam_mcp::ToolError> {
    Err(beam_mcp::ToolError::new("no such place"))
}

fn cities(prefix: &str) -> Vec<String> {
    ["Lisbon", "London", "Oslo"]
        .into_iter()
        .filter(|c| c.starts_with(prefix))
        .map(str::to_owned)
        .collect()
}

/// A city's note.
#[beam_mcp::resource("city://{name}", complete(name = cities))]
fn city(name: String) -> String {
    format!("{name} is a city")
}

/// Plans a trip.
#[beam_mcp::prompt]
fn trip(
    /// Where to.
    city: String,
    /// How long.
    days: Option<String>,
) -> String {
    format!("Plan {} days in {city}", days.as_deref().unwrap_or("two"))
}

fn server() -> Server {
    Server::builder()
        .name("testing")
        .tool(count::DEF)
        .tool(add::DEF)
        .tool(fails::DEF)
        .resource(city::DEF)
        .prompt(trip::DEF)
        .build()
        .unwrap()
}

async fn each_revision() -> Vec<TestClient> {
    vec![
        TestClient::new(server()),
        TestClient::legacy(server()).await.unwrap(),
    ]
}

#[tokio::test]
async fn every_method_gives_typed_results_at_both_revisions() {
    for mut client in each_revision().await {
        let revision = client.revision();
        let tools = client.list_tools().await.unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["add", "count", "fails"], "{revision:?}");
        let add = &tools[0];
        assert_eq!(add.description.as_deref(), Some("Adds two numbers."));
        assert_eq!(add.input_schema["required"], json!(["a", "b"]));
        assert!(add.output_schema.is_some());

        let sum = client
            .call_tool("add", json!({ "a": 2, "b": 3 }))
            .await
            .unwrap();
        assert!(!sum.is_error);
        assert_eq!(sum.structured_as::<Sum>().unwrap(), Sum { total: 5 });
        assert_eq!(sum.text(), r#"{"total":5}"#);

        let failed = client.call_tool("fails", json!({})).await.unwrap();
        assert!(failed.is_error);
        assert_eq!(failed.text(), "no such place");

        let contents = client.read_resource("city://Oslo").await.unwrap();
        assert_eq!(contents[0]["text"], "Oslo is a city");
        assert_eq!(contents[0]["uri"], "city://Oslo");

        let prompt = client
            .get_prompt("trip", [("city", "Lisbon")])
            .await
            .unwrap();
        assert_eq!(prompt.messages[0].0, "user");
        assert_eq!(prompt.text(), "Plan two days in Lisbon");

        let completed = client
            .complete(
                json!({ "type": "ref/resource", "uri": "city://{name}" }),
                "name",
                "L",
            )
            .await
            .unwrap();
        assert_eq!(completed.values, ["Lisbon", "London"]);
        assert!(!completed.has_more);
    }
}

#[tokio::test]
async fn refusals_are_typed_errors() {
    for mut client in each_revision().await {
        // Arguments the schema refuses are the tool's error, for the model to correct.
        let refused = client
            .call_tool("add", json!({ "a": "two" }))
            .await
            .unwrap();
        assert!(refused.is_error);
        assert!(
            refused.text().starts_with("add: invalid arguments"),
            "{}",
            refused.text()
        );
        match client.call_tool("nope", json!({})).await {
            Err(TestError::Protocol { code, data, .. }) => {
                assert_eq!(code, -32602);
                assert!(data.is_some());
            }
            other => panic!("expected an unknown tool refusal, got {other:?}"),
        }
        let error = client.get_prompt("trip", []).await.unwrap_err();
        assert!(
            matches!(error, TestError::Protocol { code: -32602, .. }),
            "{error}"
        );
    }
}

#[tokio::test]
async fn progress_and_logs_are_heard_in_order_at_both_revisions() {
    for mut client in each_revision().await {
        let revision = client.revision();
        client.take_heard();
        let answer = client.call_tool("count", json!({})).await.unwrap();
        assert_eq!(answer.text(), "3");
        let heard = client.take_heard();
        let progress: Vec<f64> = heard
            .iter()
            .filter_map(|h| match h {
                Heard::Progress {
                    progress,
                    total,
                    message,
                } => {
                    assert_eq!(*total, Some(3.0));
                    assert!(message.as_deref().unwrap().starts_with("step "));
                    Some(*progress)
                }
                _ => None,
            })
            .collect();
        assert_eq!(progress, [1.0, 2.0, 3.0], "{revision:?}: {heard:?}");
        assert!(
            matches!(heard.last(), Some(Heard::Log { level, data, .. }) if level == "info" && data == "counted"),
            "{revision:?}: {heard:?}"
        );
    }
}

#[tokio::test]
async fn without_a_log_level_no_log_is_heard() {
    let mut client = TestClient::new(server());
    client.set_log_level(None).await.unwrap();
    client.call_tool("count", json!({})).await.unwrap();
    let heard = client.take_heard();
    assert_eq!(heard.len(), 3, "only the progress: {heard:?}");
    assert!(heard.iter().all(|h| matches!(h, Heard::Progress { .. })));
    assert_eq!(client.revision(), Revision::V2026_07_28);
}
