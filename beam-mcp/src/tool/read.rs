//! Results as another server wrote them, read back into this crate's types (what a proxy
//! relays): every block is checked for the shape the spec gives it, so what a remote sends
//! is served as this crate serves its own, or refused by what is wrong with it.

use base64::Engine as _;
use serde_json::Value;

use super::{CallToolResult, Content, EmbeddedResource, ResourceBody};
use crate::annotations::Annotations;

fn text_field<'a>(block: &'a Value, key: &str, kind: &str) -> Result<&'a str, String> {
    block
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("a {kind} block without a string {key:?}"))
}

fn optional_text(block: &Value, key: &str) -> Option<String> {
    block.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// A `blob`'s bytes (standard, padded base64), or what is wrong with it.
pub(crate) fn blob_bytes(blob: &str) -> Result<Vec<u8>, String> {
    base64::engine::general_purpose::STANDARD
        .decode(blob)
        .map_err(|e| format!("not base64: {e}"))
}

/// Base64 as the spec has it (standard, padded), checked: a block is never relayed with bytes
/// a client cannot decode.
fn checked_base64(data: &str, kind: &str) -> Result<(), String> {
    blob_bytes(data)
        .map(drop)
        .map_err(|e| format!("a {kind} block whose data is {e}"))
}

impl Content {
    /// A content block as the wire spells it (`text`, `image`, `audio`, `resource`,
    /// `resource_link`), with its annotations.
    pub(crate) fn from_value(block: &Value) -> Result<Content, String> {
        let kind = block
            .get("type")
            .and_then(Value::as_str)
            .ok_or("a content block without a string \"type\"")?;
        let annotations = match block.get("annotations") {
            None | Some(Value::Null) => None,
            Some(value) => Some(Annotations::from_value(value)?),
        };
        let content = match kind {
            "text" => Content::Text {
                text: text_field(block, "text", kind)?.to_owned(),
                annotations,
            },
            "image" | "audio" => {
                let data = text_field(block, "data", kind)?.to_owned();
                checked_base64(&data, kind)?;
                let mime_type = text_field(block, "mimeType", kind)?.to_owned();
                if kind == "image" {
                    Content::Image {
                        data,
                        mime_type,
                        annotations,
                    }
                } else {
                    Content::Audio {
                        data,
                        mime_type,
                        annotations,
                    }
                }
            }
            "resource" => {
                let resource = block
                    .get("resource")
                    .ok_or("a resource block without its \"resource\"")?;
                let uri = text_field(resource, "uri", "embedded resource")?.to_owned();
                let body = match (resource.get("text"), resource.get("blob")) {
                    (Some(Value::String(text)), None) => ResourceBody::Text(text.clone()),
                    (None, Some(Value::String(blob))) => ResourceBody::Blob(
                        blob_bytes(blob).map_err(|e| format!("an embedded blob that is {e}"))?,
                    ),
                    _ => return Err("an embedded resource without one string text or blob".into()),
                };
                Content::Resource(EmbeddedResource {
                    uri,
                    mime_type: optional_text(resource, "mimeType"),
                    body,
                    annotations,
                })
            }
            "resource_link" => Content::ResourceLink {
                uri: text_field(block, "uri", kind)?.to_owned(),
                name: text_field(block, "name", kind)?.to_owned(),
                mime_type: optional_text(block, "mimeType"),
                description: optional_text(block, "description"),
                annotations,
            },
            other => return Err(format!("a content block of unknown type {other:?}")),
        };
        Ok(content)
    }
}

impl CallToolResult {
    /// A `tools/call` result as the wire spells it.
    pub(crate) fn from_value(result: &Value) -> Result<CallToolResult, String> {
        let blocks = result
            .get("content")
            .and_then(Value::as_array)
            .ok_or("a result without a content array")?;
        let content = blocks
            .iter()
            .map(Content::from_value)
            .collect::<Result<Vec<_>, _>>()?;
        let mut out = if result.get("isError").and_then(Value::as_bool) == Some(true) {
            CallToolResult {
                is_error: true,
                ..CallToolResult::new(content)
            }
        } else {
            CallToolResult::new(content)
        };
        if let Some(structured) = result.get("structuredContent").filter(|v| !v.is_null()) {
            out = out.with_structured(structured.clone());
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn every_block_reads_back_as_it_was_written() {
        let blocks = [
            Content::text("hi"),
            Content::image(b"\x89PNG", "image/png"),
            Content::audio(b"RIFF", "audio/wav"),
            Content::embedded_text("notes://1", "text/plain", "one"),
            Content::embedded_blob("notes://2", "application/octet-stream", b"\0\x01"),
            Content::resource_link("notes://3", "three").with_description("the third"),
            Content::text("seen").with_annotations(
                Annotations::NONE.with_audience(&[crate::Role::User, crate::Role::Assistant]),
            ),
        ];
        for block in blocks {
            assert_eq!(Content::from_value(&block.to_value()), Ok(block));
        }
        let result = CallToolResult::error("no").with_structured(json!({ "a": 1 }));
        assert_eq!(CallToolResult::from_value(&result.to_value()), Ok(result));
    }

    #[test]
    fn a_block_of_the_wrong_shape_is_refused_by_what_is_wrong() {
        let refused = |v: Value| Content::from_value(&v).unwrap_err();
        assert!(
            refused(json!({ "type": "image", "data": "@@", "mimeType": "image/png" }))
                .starts_with("a image block whose data is not base64")
        );
        assert_eq!(
            refused(json!({ "text": "x" })),
            "a content block without a string \"type\""
        );
        assert_eq!(
            refused(json!({ "type": "video" })),
            "a content block of unknown type \"video\""
        );
        assert!(
            refused(json!({ "type": "image", "data": "@@", "mimeType": "image/png" }))
                .contains("not base64")
        );
        assert_eq!(
            refused(json!({ "type": "text", "text": 3 })),
            "a text block without a string \"text\""
        );
    }
}
