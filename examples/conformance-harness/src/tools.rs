//! The suite's tools.

use beam_mcp::{CallToolResult, Content, ToolError};

/// A 1x1 red PNG.
pub(crate) const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
    0xde, 0x00, 0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x08, 0xd7, 0x63, 0xf8, 0xcf, 0xc0, 0x00,
    0x00, 0x03, 0x01, 0x01, 0x00, 0x18, 0xdd, 0x8d, 0xb0, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
    0x44, 0xae, 0x42, 0x60, 0x82,
];

/// A tiny silent WAV (44-byte header, no samples).
const WAV: &[u8] = &[
    0x52, 0x49, 0x46, 0x46, 0x24, 0x00, 0x00, 0x00, 0x57, 0x41, 0x56, 0x45, 0x66, 0x6d, 0x74, 0x20,
    0x10, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x44, 0xac, 0x00, 0x00, 0x88, 0x58, 0x01, 0x00,
    0x02, 0x00, 0x10, 0x00, 0x64, 0x61, 0x74, 0x61, 0x00, 0x00, 0x00, 0x00,
];

/// Returns a simple text message.
#[beam_mcp::tool]
fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Returns an image.
#[beam_mcp::tool]
fn test_image_content() -> Content {
    Content::image(PNG, "image/png")
}

/// Returns audio.
#[beam_mcp::tool]
fn test_audio_content() -> Content {
    Content::audio(WAV, "audio/wav")
}

/// Returns an embedded resource.
#[beam_mcp::tool]
fn test_embedded_resource() -> Content {
    Content::embedded_text(
        "test://embedded-resource",
        "text/plain",
        "This is an embedded resource content.",
    )
}

/// Returns text, an image and an embedded resource.
#[beam_mcp::tool]
fn test_multiple_content_types() -> Vec<Content> {
    vec![
        Content::text("Multiple content types test:"),
        Content::image(PNG, "image/png"),
        Content::embedded_text(
            "test://mixed-content-resource",
            "application/json",
            r#"{"test":"data","value":123}"#,
        ),
    ]
}

/// Always fails, as a tool error the model can read.
#[beam_mcp::tool]
fn test_error_handling() -> Result<String, ToolError> {
    Err(ToolError::new(
        "This tool intentionally returns an error for testing",
    ))
}

/// Meant to report progress; beam-mcp does not send progress notifications yet, so it only
/// answers.
#[beam_mcp::tool]
fn test_tool_with_progress() -> &'static str {
    "Progress tool finished (progress notifications are not implemented)."
}

/// Needs the client's sampling capability.
#[beam_mcp::tool(requires(sampling))]
fn test_missing_capability() -> &'static str {
    "The client declared sampling."
}

/// Would ask the user for input on a stream; answers plainly, sending no request.
#[beam_mcp::tool]
fn test_streaming_elicitation() -> &'static str {
    "No elicitation request is streamed by a stateless server."
}

/// Would log; sends no log message unless the request asks for a level.
#[beam_mcp::tool]
fn test_logging_tool() -> &'static str {
    "Logging tool finished."
}

/// Would change the tool list; the list is fixed, so it only answers.
#[beam_mcp::tool]
fn test_trigger_tool_change() -> &'static str {
    "The tool list is fixed in this server."
}

/// Would change the prompt list; the list is fixed, so it only answers.
#[beam_mcp::tool]
fn test_trigger_prompt_change() -> &'static str {
    "The prompt list is fixed in this server."
}

/// Mirrors some arguments in `Mcp-Param-*` headers (SEP-2243).
#[beam_mcp::tool]
fn test_x_mcp_header(
    /// The region, mirrored in `Mcp-Param-Region`.
    #[header("Region")]
    region: String,
    /// A priority, mirrored in `Mcp-Param-Priority`.
    #[header("Priority")]
    priority: Option<i64>,
    /// Mirrored in `Mcp-Param-Verbose`.
    #[header("Verbose")]
    verbose: Option<bool>,
) -> CallToolResult {
    CallToolResult::new(vec![Content::text(format!(
        "region={region} priority={priority:?} verbose={verbose:?}"
    ))])
}
