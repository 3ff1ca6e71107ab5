//! The suite's prompts, and the completion it asks for.

use beam_mcp::Content;
use beam_mcp::prompt::PromptMessage;

/// A simple prompt without arguments.
#[beam_mcp::prompt]
fn test_simple_prompt() -> &'static str {
    "This is a simple prompt for testing."
}

/// A prompt with two required arguments.
#[beam_mcp::prompt(complete(arg1 = complete_arg1))]
fn test_prompt_with_arguments(
    /// The first argument.
    arg1: String,
    /// The second argument.
    arg2: String,
) -> String {
    format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'")
}

/// Suggestions for `arg1`.
fn complete_arg1(prefix: &str) -> Vec<String> {
    ["paris", "park", "party", "london"]
        .into_iter()
        .filter(|v| v.starts_with(prefix))
        .map(str::to_owned)
        .collect()
}

/// A prompt that embeds a resource.
#[beam_mcp::prompt]
#[allow(non_snake_case, reason = "the suite names the argument resourceUri")]
fn test_prompt_with_embedded_resource(
    /// The URI of the resource to embed.
    resourceUri: String,
) -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(Content::embedded_text(
            resourceUri,
            "text/plain",
            "Embedded resource content for testing.",
        )),
        PromptMessage::user("Please process the embedded resource above."),
    ]
}

/// A prompt with an image.
#[beam_mcp::prompt]
fn test_prompt_with_image() -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(Content::image(crate::tools::PNG, "image/png")),
        PromptMessage::user("Please analyze the image above."),
    ]
}

/// A prompt that comes and goes: `test_trigger_prompt_change` removes it, or adds it back.
#[beam_mcp::prompt]
pub(crate) fn test_dynamic_prompt() -> &'static str {
    "Here for now."
}
