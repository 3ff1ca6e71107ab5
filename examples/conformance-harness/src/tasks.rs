//! The fixtures of the tasks extension's scenarios (SEP-2663, not scored): a sync tool, and
//! task-supporting tools that sleep, fail, panic, or ask the user from inside the task.

use std::time::Duration;

use beam_mcp::{AskError, Context, Elicit, Elicited, ToolError};
use serde::Deserialize;

/// Greets `name` at once (never a task).
#[beam_mcp::tool]
fn greet(
    /// Who to greet.
    name: String,
) -> String {
    format!("Hello, {name}!")
}

/// Sleeps `seconds` seconds, then says so; a task when the client supports tasks. A cancel
/// while it sleeps ends it as cancelled.
#[beam_mcp::tool(task = "optional")]
async fn slow_compute(
    /// How long to work, in seconds.
    seconds: u64,
    /// A label for the result.
    label: Option<String>,
) -> String {
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    format!(
        "Computed {} after {seconds} s.",
        label.as_deref().unwrap_or("a result")
    )
}

/// Works for about a second, then fails with a tool error; runs only as a task.
#[beam_mcp::tool(task = "required")]
async fn failing_job() -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_secs(1)).await;
    Err(ToolError::new("the job failed"))
}

/// Fails inside the server (a panic, which a task reports as `failed`).
#[beam_mcp::tool(task = "optional")]
async fn protocol_error_job() -> String {
    tokio::time::sleep(Duration::from_millis(100)).await;
    panic!("protocol_error_job fails on purpose")
}

// A yes or no.
#[derive(Deserialize, schemars::JsonSchema, Elicit)]
struct Confirm {
    confirm: bool,
}

// A name, and a yes or no.
#[derive(Deserialize, schemars::JsonSchema, Elicit)]
struct NameAndConfirm {
    name: String,
    confirm: bool,
}

fn failed(error: AskError) -> ToolError {
    ToolError::new(error.to_string())
}

/// Becomes a task, asks the user to confirm deleting `filename`, then answers.
#[beam_mcp::tool(task = "optional")]
async fn confirm_delete(
    /// The file to delete.
    filename: String,
    ctx: Context,
) -> Result<String, ToolError> {
    ctx.detach().await;
    let answer = ctx
        .elicit::<Confirm>(format!("Delete {filename}?"))
        .await
        .map_err(failed)?;
    Ok(match answer {
        Elicited::Accepted(c) if c.confirm => format!("Deleted {filename}."),
        _ => format!("Kept {filename}."),
    })
}

/// Becomes a task and asks two things at once; ends when both are answered.
#[beam_mcp::tool(task = "optional")]
async fn multi_input(ctx: Context) -> Result<String, ToolError> {
    ctx.detach().await;
    let (first, second) = tokio::join!(
        ctx.elicit::<NameAndConfirm>("First input?"),
        ctx.elicit::<NameAndConfirm>("Second input?"),
    );
    let name = |answer: Elicited<NameAndConfirm>| match answer {
        Elicited::Accepted(a) if a.confirm => a.name,
        Elicited::Accepted(a) => format!("{} (unconfirmed)", a.name),
        _ => "-".to_owned(),
    };
    Ok(format!(
        "Got {} and {}.",
        name(first.map_err(failed)?),
        name(second.map_err(failed)?)
    ))
}

// The user's name.
#[derive(Deserialize, schemars::JsonSchema, Elicit)]
struct UserName {
    name: String,
}

/// Asks the user's name by rounds (an `InputRequiredResult`), then becomes a task whose result
/// greets them.
#[beam_mcp::tool(task = "required")]
async fn test_tool_with_task(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx
        .elicit::<UserName>("What is your name?")
        .key("user_name")
        .await
        .map_err(failed)?;
    let name = match answer {
        Elicited::Accepted(u) => u.name,
        _ => "stranger".to_owned(),
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    Ok(format!("Hello, {name}, from a task."))
}
