//! The fixtures of the suite's 2025-11-25 scenarios (stateful wire), whose names the 2026-07-28
//! scenarios do not use: logging during a call, sampling and elicitation as requests on the
//! session, SEP-1034 defaults and SEP-1330 enums in a requested schema, and a subscribable
//! resource.
//!
//! At 2025-11-25 each ask is a real request to the client on the session; at 2026-07-28 the
//! same tool answers with an `InputRequiredResult` instead (the suite does not call these tools
//! at 2026-07-28).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use beam_mcp::{
    AskError, Context, Elicit, Elicited, LiveCatalog, LogLevel, SamplingRequest, State, ToolError,
};
use serde::{Deserialize, Serialize};

#[cfg(test)]
mod tests;

/// The URI of the subscribable resource.
const WATCHED: &str = "test://watched-resource";

fn failed(error: AskError) -> ToolError {
    ToolError::new(error.to_string())
}

/// `action=<accept|decline|cancel>`, and the content the user submitted, as JSON.
fn outcome<T: Serialize>(answer: &Elicited<T>) -> String {
    match answer {
        Elicited::Accepted(content) => {
            let content = serde_json::to_string(content).unwrap_or_else(|e| format!("({e})"));
            format!("action=accept, content={content}")
        }
        Elicited::Declined => "action=decline, content={}".to_owned(),
        Elicited::Cancelled => "action=cancel, content={}".to_owned(),
    }
}

/// Logs "Tool execution started", "Tool processing data" and "Tool execution completed" at
/// `info`, about 50 ms apart, while it runs.
#[beam_mcp::tool]
async fn test_tool_with_logging(ctx: Context) -> &'static str {
    let steps = [
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
    ];
    for (i, step) in steps.into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let _ = ctx.log(LogLevel::Info, step);
    }
    "Tool with logging executed successfully."
}

/// Sends `prompt` to the client's model (sampling, at most 100 tokens) and returns its answer.
#[beam_mcp::tool]
async fn test_sampling(
    /// The prompt to send to the LLM.
    prompt: String,
    ctx: Context,
) -> Result<String, ToolError> {
    let sampled = ctx
        .sample(SamplingRequest::new(100).user(prompt))
        .await
        .map_err(failed)?;
    match sampled.text() {
        Some(text) => Ok(format!("LLM response: {text}")),
        None => Err(ToolError::new(format!(
            "the model ({}) answered without text: {}",
            sampled.model, sampled.content
        ))),
    }
}

// A form for the user's contact details.
#[derive(Deserialize, Serialize, schemars::JsonSchema, Elicit)]
struct Contact {
    /// User's response
    username: String,
    /// User's email address
    email: String,
}

/// Shows `message` to the user with a form (username, email) and returns their answer.
#[beam_mcp::tool]
async fn test_elicitation(
    /// The message to show the user.
    message: String,
    ctx: Context,
) -> Result<String, ToolError> {
    let answer = ctx.elicit::<Contact>(message).await.map_err(failed)?;
    Ok(format!("User response: {}", outcome(&answer)))
}

// A form whose every field has a default (SEP-1034); a field the user leaves out takes it.
#[derive(Deserialize, Serialize, schemars::JsonSchema, Elicit)]
struct Defaults {
    /// User name
    #[serde(default = "default_name")]
    name: String,
    /// User age
    #[serde(default = "default_age")]
    age: i64,
    /// User score
    #[serde(default = "default_score")]
    score: f64,
    /// User status
    #[serde(default)]
    status: Status,
    /// Verification status
    #[serde(default = "default_verified")]
    verified: bool,
}

fn default_name() -> String {
    "John Doe".to_owned()
}

fn default_age() -> i64 {
    30
}

fn default_score() -> f64 {
    95.5
}

fn default_verified() -> bool {
    true
}

// No doc comments on the variants: a documented variant turns `enum` into `oneOf`.
#[derive(Deserialize, Serialize, schemars::JsonSchema, Elicit, Default)]
#[serde(rename_all = "lowercase")]
enum Status {
    #[default]
    Active,
    Inactive,
    Pending,
}

/// Asks for a form whose string, integer, number, enum and boolean fields each carry a
/// default (SEP-1034), and returns the user's answer.
#[beam_mcp::tool]
async fn test_elicitation_sep1034_defaults(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx
        .elicit::<Defaults>("Please review and update the form fields with defaults")
        .await
        .map_err(failed)?;
    Ok(format!("Elicitation completed: {}", outcome(&answer)))
}

// The enum fields of SEP-1330: single-selects (untitled, titled, legacy titled) and
// multi-selects (untitled, titled). (A struct's doc comment would be the form's `description`,
// shown to the user.)
#[derive(Deserialize, Serialize, schemars::JsonSchema, Elicit)]
#[serde(rename_all = "camelCase")]
struct Enums {
    /// Select one option
    untitled_single: Untitled,
    /// Select one option with titles
    titled_single: Titled,
    /// Select one option (legacy)
    #[schemars(extend("enumNames" = ["Option One", "Option Two", "Option Three"]))]
    legacy_enum: Legacy,
    /// Select multiple options
    #[schemars(length(min = 1, max = 3))]
    untitled_multi: Vec<Untitled>,
    /// Select multiple options with titles
    #[schemars(length(min = 1, max = 3))]
    titled_multi: Vec<TitledChoice>,
}

// The titled multi-select's choices: `items.anyOf` of `const` and `title`.
#[derive(Deserialize, Serialize, schemars::JsonSchema, Elicit)]
#[serde(rename_all = "lowercase")]
enum TitledChoice {
    #[schemars(title = "First Choice")]
    Value1,
    #[schemars(title = "Second Choice")]
    Value2,
    #[schemars(title = "Third Choice")]
    Value3,
}

// An untitled single-select: `enum`. (No doc comments on these enums: they would become the
// `description` of a multi-select's `items`.)
#[derive(Deserialize, Serialize, schemars::JsonSchema, Elicit)]
#[serde(rename_all = "lowercase")]
enum Untitled {
    Option1,
    Option2,
    Option3,
}

// A titled single-select: `oneOf` of `const` and `title` (the framework adds `type` beside it).
#[derive(Deserialize, Serialize, schemars::JsonSchema, Elicit)]
#[serde(rename_all = "lowercase")]
enum Titled {
    #[schemars(title = "First Option")]
    Value1,
    #[schemars(title = "Second Option")]
    Value2,
    #[schemars(title = "Third Option")]
    Value3,
}

// A legacy titled single-select: `enum`, with the titles in `enumNames` (set on the field).
#[derive(Deserialize, Serialize, schemars::JsonSchema, Elicit)]
#[serde(rename_all = "lowercase")]
enum Legacy {
    Opt1,
    Opt2,
    Opt3,
}

/// Asks for a form with SEP-1330 enum fields (an untitled, a titled and a legacy titled
/// single-select, and an untitled and a titled multi-select), and returns the user's answer.
#[beam_mcp::tool]
async fn test_elicitation_sep1330_enums(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx
        .elicit::<Enums>("Please select options from the enum fields")
        .await
        .map_err(failed)?;
    Ok(format!("Elicitation completed: {}", outcome(&answer)))
}

/// How many times the watched resource changed.
static WATCHED_VERSION: AtomicU64 = AtomicU64::new(0);

/// A resource that changes when `test_update_watched_resource` is called; subscribers are told.
#[beam_mcp::resource(
    "test://watched-resource",
    name = "Watched Resource",
    mime_type = "text/plain"
)]
fn watched_resource() -> String {
    let version = WATCHED_VERSION.load(Ordering::Acquire);
    format!("Watched resource content, version {version}.")
}

/// Changes `test://watched-resource`: its subscribers receive `notifications/resources/updated`.
#[beam_mcp::tool]
fn test_update_watched_resource(State(catalog): State<LiveCatalog>) -> String {
    let version = WATCHED_VERSION.fetch_add(1, Ordering::AcqRel) + 1;
    catalog.resource_updated(WATCHED);
    format!("{WATCHED} is now at version {version}.")
}
