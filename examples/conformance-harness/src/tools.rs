//! The suite's tools.

use std::time::Duration;

use beam_mcp::{
    CallToolResult, Content, Context, LiveCatalog, LiveError, LogLevel, State, ToolError,
};

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

/// Reports progress 0, 50 and 100 of 100, about 50 ms apart, to a caller that asks for it.
#[beam_mcp::tool]
fn test_tool_with_progress(ctx: Context) -> &'static str {
    for (i, done) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if i > 0 {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = ctx.progress(done, Some(100.0), None);
    }
    "Progress tool finished."
}

/// Needs the client's sampling capability.
#[beam_mcp::tool(requires(sampling))]
fn test_missing_capability() -> &'static str {
    "The client declared sampling."
}

/// Asks the user for their name. At 2026-07-28 the ask is an `InputRequiredResult`, never a
/// request streamed to the client.
#[beam_mcp::tool]
async fn test_streaming_elicitation(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx
        .elicit::<Name>("What is your name?")
        .await
        .map_err(|e| ToolError::new(e.to_string()))?;
    Ok(match answer {
        beam_mcp::Elicited::Accepted(n) => format!("Hello, {}!", n.name),
        _ => "No name given.".to_owned(),
    })
}

/// A name, asked of the user.
#[derive(serde::Deserialize, schemars::JsonSchema, beam_mcp::Elicit)]
struct Name {
    name: String,
}

/// Logs three messages at `info`, sent only when the request asks for that level or a lower one.
#[beam_mcp::tool]
fn test_logging_tool(ctx: Context) -> &'static str {
    for step in [
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
    ] {
        let _ = ctx.log(LogLevel::Info, step);
    }
    "Logging tool finished."
}

/// A tool that comes and goes: `test_trigger_tool_change` removes it, or adds it back.
#[beam_mcp::tool]
fn test_dynamic_tool() -> &'static str {
    "Here for now."
}

/// Changes the tool list (removes `test_dynamic_tool`, or adds it back): open listen streams
/// that asked for it receive `notifications/tools/list_changed`.
#[beam_mcp::tool]
fn test_trigger_tool_change(State(catalog): State<LiveCatalog>) -> Result<&'static str, ToolError> {
    match catalog.remove_tool("test_dynamic_tool") {
        Ok(()) => Ok("Removed test_dynamic_tool."),
        Err(LiveError::NotFound { .. }) => {
            catalog
                .add_tool(test_dynamic_tool::DEF)
                .map_err(|e| ToolError::new(e.to_string()))?;
            Ok("Added test_dynamic_tool.")
        }
        Err(other) => Err(ToolError::new(other.to_string())),
    }
}

/// Changes the prompt list (removes `test_dynamic_prompt`, or adds it back).
#[beam_mcp::tool]
fn test_trigger_prompt_change(
    State(catalog): State<LiveCatalog>,
) -> Result<&'static str, ToolError> {
    match catalog.remove_prompt("test_dynamic_prompt") {
        Ok(()) => Ok("Removed test_dynamic_prompt."),
        Err(LiveError::NotFound { .. }) => {
            catalog
                .add_prompt(crate::prompts::test_dynamic_prompt::DEF)
                .map_err(|e| ToolError::new(e.to_string()))?;
            Ok("Added test_dynamic_prompt.")
        }
        Err(other) => Err(ToolError::new(other.to_string())),
    }
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

/// `json_schema_2020_12_tool`'s input schema, written by hand and advertised verbatim:
/// `$schema`, `$defs` with an `$anchor` and a `$ref` to it, `allOf`/`anyOf` and
/// `if`/`then`/`else`. The server enforces it as advertised.
fn json_schema_2020_12_input() -> serde_json::Value {
    serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "$anchor": "addressDef",
                "type": "object",
                "properties": { "street": { "type": "string" }, "city": { "type": "string" } }
            }
        },
        "properties": {
            "name": { "type": "string" },
            "address": { "$ref": "#/$defs/address" },
            "contactMethod": { "type": "string", "enum": ["phone", "email"] },
            "phone": { "type": "string" },
            "email": { "type": "string" }
        },
        "allOf": [{ "anyOf": [{ "required": ["phone"] }, { "required": ["email"] }] }],
        "if": { "properties": { "contactMethod": { "const": "phone" } }, "required": ["contactMethod"] },
        "then": { "required": ["phone"] },
        "else": { "required": ["email"] },
        "additionalProperties": false
    })
}

fn json_schema_2020_12_call(
    _: serde_json::Value,
    _: beam_mcp::ToolContext,
) -> beam_mcp::tool::BoxFuture<Result<CallToolResult, beam_mcp::tool::ToolFault>> {
    Box::pin(async { Ok(CallToolResult::new(vec![Content::text("ok")])) })
}

/// A hand-built tool whose schema is kept as written (the raw-schema path).
pub(crate) const JSON_SCHEMA_2020_12: beam_mcp::ToolDef = beam_mcp::ToolDef::new(
    "json_schema_2020_12_tool",
    "Tool with JSON Schema 2020-12 features",
    json_schema_2020_12_input,
    json_schema_2020_12_call,
)
.declared_at(module_path!(), file!(), line!());
