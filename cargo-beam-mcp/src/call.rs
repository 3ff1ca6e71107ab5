//! `call TARGET TOOL [JSON]`: one tool call. Its content and structured content on stdout,
//! its progress and log messages on stderr; the exit status is 1 when the tool failed
//! (`isError`) or the call was refused, so a script can test it.

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

use beam_mcp::client::{Client, ClientError, Heard};
use serde_json::Value;

use crate::target::Connect;

/// What `call` was asked.
pub(crate) struct Options {
    pub(crate) connect: Connect,
    pub(crate) tool: String,
    pub(crate) arguments: Value,
}

pub(crate) async fn run(options: Options) -> Result<ExitCode, String> {
    let builder = Client::builder().on_heard(|heard| {
        if let Heard::Log { level, data, .. } = heard {
            eprintln!("log {level}: {}", text_of(&data));
        }
    });
    let client = crate::target::connect(&options.connect, builder).await?;
    let outcome = client
        .call_tool_with_progress(
            &options.tool,
            options.arguments,
            Some(|heard| {
                if let Heard::Progress {
                    progress,
                    total,
                    message,
                } = heard
                {
                    let total = total.map(|t| format!("/{t}")).unwrap_or_default();
                    let message = message.map(|m| format!(" {m}")).unwrap_or_default();
                    eprintln!("progress {progress}{total}{message}");
                }
            }),
        )
        .await;
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(ClientError::Protocol {
            code,
            message,
            data,
        }) => {
            let data = data.map(|d| format!(" {d}")).unwrap_or_default();
            eprintln!("refused: {code} {message}{data}");
            return Ok(ExitCode::FAILURE);
        }
        Err(e) => return Err(format!("calling {}: {e}", options.tool)),
    };
    let mut text = String::new();
    for block in &outcome.content {
        text.push_str(&block_text(block));
        text.push('\n');
    }
    if let Some(structured) = &outcome.structured {
        let pretty = serde_json::to_string_pretty(structured).unwrap_or_default();
        let _ = writeln!(text, "structured: {pretty}");
    }
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .map_err(|e| format!("stdout: {e}"))?;
    if outcome.is_error {
        eprintln!("the tool failed (isError)");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// A content block as a line of text: a text block's text, what any other block is.
fn block_text(block: &Value) -> String {
    let field = |key: &str| block.get(key).and_then(Value::as_str);
    let bytes = |key: &str| field(key).map_or(0, |b| b.len() / 4 * 3);
    match field("type") {
        Some("text") => field("text").unwrap_or_default().to_owned(),
        Some(kind @ ("image" | "audio")) => format!(
            "[{kind} {}, about {} bytes]",
            field("mimeType").unwrap_or("?"),
            bytes("data")
        ),
        Some("resource_link") => format!(
            "[link {}{}]",
            field("uri").unwrap_or("?"),
            field("name").map(|n| format!(" {n}")).unwrap_or_default()
        ),
        Some("resource") => {
            let resource = block.get("resource").unwrap_or(&Value::Null);
            let uri = resource.get("uri").and_then(Value::as_str).unwrap_or("?");
            match resource.get("text").and_then(Value::as_str) {
                Some(text) => format!("[resource {uri}]\n{text}"),
                None => format!("[resource {uri}, binary]"),
            }
        }
        _ => block.to_string(),
    }
}

/// A log message's data as text: a string as it is, anything else as JSON.
fn text_of(data: &Value) -> String {
    match data {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_kind_of_block_is_told_in_text() {
        assert_eq!(block_text(&json!({ "type": "text", "text": "hi" })), "hi");
        assert_eq!(
            block_text(&json!({ "type": "image", "mimeType": "image/png", "data": "AAAA" })),
            "[image image/png, about 3 bytes]"
        );
        assert_eq!(
            block_text(&json!({ "type": "resource_link", "uri": "a://b", "name": "b" })),
            "[link a://b b]"
        );
        assert_eq!(
            block_text(&json!({ "type": "resource", "resource": { "uri": "a://b", "text": "x" } })),
            "[resource a://b]\nx"
        );
    }
}
