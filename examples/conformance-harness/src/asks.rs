//! The suite's multi-round-trip fixtures (SEP-2322): tools and a prompt that ask the client.
//! Each asks through the request context; the framework turns the asks into an
//! `InputRequiredResult`, seals the answers in `requestState`, and reruns the function on the
//! next round with the answers.

use beam_mcp::{AskError, Context, Elicit, Elicited, Root, SamplingRequest, ToolError};
use serde::Deserialize;

/// The user's name.
#[derive(Deserialize, schemars::JsonSchema, Elicit)]
struct UserName {
    name: String,
}

/// A confirmation.
#[derive(Deserialize, schemars::JsonSchema, Elicit)]
struct Confirm {
    ok: bool,
}

/// A favourite colour.
#[derive(Deserialize, schemars::JsonSchema, Elicit)]
struct Colour {
    color: String,
}

/// What the prompt should be about.
#[derive(Deserialize, schemars::JsonSchema, Elicit)]
struct PromptContext {
    context: String,
}

fn failed(error: AskError) -> ToolError {
    ToolError::new(error.to_string())
}

fn answered<T>(answer: Elicited<T>, accepted: impl FnOnce(T) -> String) -> String {
    match answer {
        Elicited::Accepted(value) => accepted(value),
        Elicited::Declined => "The user declined.".to_owned(),
        Elicited::Cancelled => "The user cancelled.".to_owned(),
    }
}

fn listed(roots: &[Root]) -> String {
    let uris: Vec<&str> = roots.iter().map(|r| r.uri.as_str()).collect();
    format!("Roots: {}", uris.join(", "))
}

/// Asks the user's name (elicitation), then greets them.
#[beam_mcp::tool]
async fn test_input_required_result_elicitation(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx
        .elicit::<UserName>("What is your name?")
        .key("user_name")
        .await
        .map_err(failed)?;
    Ok(answered(answer, |u| format!("Hello, {}!", u.name)))
}

/// Asks the client's model for the capital of France (sampling).
#[beam_mcp::tool]
async fn test_input_required_result_sampling(ctx: Context) -> Result<String, ToolError> {
    let request = SamplingRequest::new(100).user("What is the capital of France?");
    let sampled = ctx
        .sample(request)
        .key("capital_question")
        .await
        .map_err(failed)?;
    Ok(format!(
        "The model ({}) said: {}",
        sampled.model,
        sampled.text().unwrap_or("(no text)")
    ))
}

/// Asks for the client's roots.
#[beam_mcp::tool]
async fn test_input_required_result_list_roots(ctx: Context) -> Result<String, ToolError> {
    let roots = ctx.roots().key("client_roots").await.map_err(failed)?;
    Ok(listed(&roots))
}

/// Asks for a confirmation; the answer comes back with the sealed `requestState`, which the
/// framework verified before this function ran again.
#[beam_mcp::tool]
async fn test_input_required_result_request_state(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx
        .elicit::<Confirm>("Please confirm")
        .key("confirm")
        .await
        .map_err(failed)?;
    Ok(answered(answer, |c| {
        format!("state-ok: confirmed={}", c.ok)
    }))
}

/// Asks three things in one round: a name, a greeting from the model, and the roots.
#[beam_mcp::tool]
async fn test_input_required_result_multiple_inputs(ctx: Context) -> Result<String, ToolError> {
    let (name, greeting, roots) = tokio::join!(
        ctx.elicit::<UserName>("What is your name?")
            .key("user_name"),
        ctx.sample(SamplingRequest::new(50).user("Generate a greeting"))
            .key("greeting"),
        ctx.roots().key("client_roots"),
    );
    let name = answered(name.map_err(failed)?, |u| u.name);
    let greeting = greeting.map_err(failed)?;
    let roots = roots.map_err(failed)?;
    Ok(format!(
        "{} {name}. {}",
        greeting.text().unwrap_or("Hello"),
        listed(&roots)
    ))
}

/// Asks in two rounds: a name, then a colour.
#[beam_mcp::tool]
async fn test_input_required_result_multi_round(ctx: Context) -> Result<String, ToolError> {
    let name = ctx
        .elicit::<UserName>("Step 1: What is your name?")
        .key("step1")
        .await
        .map_err(failed)?;
    let name = answered(name, |u| u.name);
    let colour = ctx
        .elicit::<Colour>("Step 2: What is your favorite color?")
        .key("step2")
        .await
        .map_err(failed)?;
    Ok(answered(colour, |c| format!("{name} likes {}.", c.color)))
}

/// Asks for a confirmation; a `requestState` altered by the client is refused (-32602).
#[beam_mcp::tool]
async fn test_input_required_result_tampered_state(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx
        .elicit::<Confirm>("Please confirm")
        .key("confirm")
        .await
        .map_err(failed)?;
    Ok(answered(answer, |c| format!("confirmed={}", c.ok)))
}

/// Asks for a name and a greeting, each only if the client declared the capability for it.
#[beam_mcp::tool]
async fn test_input_required_result_capabilities(ctx: Context) -> Result<String, ToolError> {
    let (name, greeting) = tokio::join!(
        ctx.elicit::<UserName>("What is your name?")
            .key("user_name"),
        ctx.sample(SamplingRequest::new(50).user("Generate a greeting"))
            .key("greeting"),
    );
    let name = match name {
        Ok(answer) => answered(answer, |u| u.name),
        Err(AskError::Unsupported(_)) => "whoever you are".to_owned(),
        Err(other) => return Err(failed(other)),
    };
    let greeting = match greeting {
        Ok(sampled) => sampled.text().unwrap_or("Hello").to_owned(),
        Err(AskError::Unsupported(_)) => "Hello".to_owned(),
        Err(other) => return Err(failed(other)),
    };
    Ok(format!("{greeting}, {name}."))
}

/// Asks the user for the prompt's context, then renders it.
#[beam_mcp::prompt]
async fn test_input_required_result_prompt(ctx: Context) -> Result<String, AskError> {
    let answer = ctx
        .elicit::<PromptContext>("What context should the prompt use?")
        .key("user_context")
        .await?;
    Ok(answered(answer, |c| {
        format!("Use this context: {}", c.context)
    }))
}
