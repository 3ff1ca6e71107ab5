//! What a tool returns: content blocks, structured content, and the error flag.

use std::borrow::Cow;
use std::fmt::Display;

use base64::Engine as _;
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::annotations::Annotations;

/// One content block of a tool result (or a prompt message).
///
/// ```
/// use beam_mcp::Content;
/// let blocks = vec![
///     Content::text("hello"),
///     Content::image(&[0x89, b'P', b'N', b'G'], "image/png"),
///     Content::resource_link("weather://place/paris", "paris"),
/// ];
/// assert_eq!(blocks[0].to_value()["type"], "text");
/// assert_eq!(blocks[1].to_value()["data"], "iVBORw==");
/// ```
///
/// Each block may carry [`Annotations`] (who it is for, how much it matters, when it last
/// changed), set with [`with_annotations`](Self::with_annotations).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Content {
    /// Plain text.
    #[non_exhaustive]
    Text {
        /// The text.
        text: String,
        /// Its annotations, if any.
        annotations: Option<Annotations>,
    },
    /// An image, base64 on the wire.
    #[non_exhaustive]
    Image {
        /// Base64 (standard, padded) of the image bytes.
        data: String,
        /// The image's MIME type, e.g. `image/png`.
        mime_type: String,
        /// Its annotations, if any.
        annotations: Option<Annotations>,
    },
    /// Audio, base64 on the wire.
    #[non_exhaustive]
    Audio {
        /// Base64 (standard, padded) of the audio bytes.
        data: String,
        /// The audio's MIME type, e.g. `audio/wav`.
        mime_type: String,
        /// Its annotations, if any.
        annotations: Option<Annotations>,
    },
    /// A resource's contents embedded in the result.
    Resource(EmbeddedResource),
    /// A link to a resource the client may read.
    #[non_exhaustive]
    ResourceLink {
        /// The resource's URI.
        uri: String,
        /// The resource's name.
        name: String,
        /// Its MIME type, if known.
        mime_type: Option<String>,
        /// A description for the model.
        description: Option<String>,
        /// Its annotations, if any.
        annotations: Option<Annotations>,
    },
}

/// Resource contents embedded in a content block: text or bytes.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct EmbeddedResource {
    /// The resource's URI.
    pub uri: String,
    /// Its MIME type.
    pub mime_type: Option<String>,
    /// The contents.
    pub body: ResourceBody,
    /// The block's annotations, if any.
    pub annotations: Option<Annotations>,
}

/// The contents of an embedded resource.
#[derive(Debug, Clone, PartialEq)]
pub enum ResourceBody {
    /// Text contents.
    Text(String),
    /// Binary contents, base64 on the wire.
    Blob(Vec<u8>),
}

fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Content::Text {
            text: text.into(),
            annotations: None,
        }
    }

    /// An image block from raw bytes.
    pub fn image(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        Content::Image {
            data: base64(bytes),
            mime_type: mime_type.into(),
            annotations: None,
        }
    }

    /// An audio block from raw bytes.
    pub fn audio(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        Content::Audio {
            data: base64(bytes),
            mime_type: mime_type.into(),
            annotations: None,
        }
    }

    /// An embedded text resource.
    pub fn embedded_text(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> Self {
        Content::Resource(EmbeddedResource {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            body: ResourceBody::Text(text.into()),
            annotations: None,
        })
    }

    /// An embedded binary resource.
    pub fn embedded_blob(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        bytes: impl Into<Vec<u8>>,
    ) -> Self {
        Content::Resource(EmbeddedResource {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            body: ResourceBody::Blob(bytes.into()),
            annotations: None,
        })
    }

    /// A link to a resource.
    pub fn resource_link(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Content::ResourceLink {
            uri: uri.into(),
            name: name.into(),
            mime_type: None,
            description: None,
            annotations: None,
        }
    }

    /// A resource link with its MIME type (other blocks are returned unchanged).
    ///
    /// ```
    /// let link = beam_mcp::Content::resource_link("weather://station/Oslo", "Oslo")
    ///     .with_mime_type("application/json")
    ///     .with_description("The current reading in Oslo.");
    /// assert_eq!(link.to_value()["mimeType"], "application/json");
    /// assert_eq!(link.to_value()["description"], "The current reading in Oslo.");
    /// ```
    #[must_use]
    pub fn with_mime_type(mut self, value: impl Into<String>) -> Self {
        if let Content::ResourceLink { mime_type, .. } = &mut self {
            *mime_type = Some(value.into());
        }
        self
    }

    /// A resource link with a description for the model (other blocks are returned
    /// unchanged).
    #[must_use]
    pub fn with_description(mut self, value: impl Into<String>) -> Self {
        if let Content::ResourceLink { description, .. } = &mut self {
            *description = Some(value.into());
        }
        self
    }

    /// The block with `annotations` (none are sent when they are [`Annotations::NONE`]).
    ///
    /// ```
    /// use beam_mcp::{Annotations, Content, Priority, Role};
    /// let block = Content::text("for you")
    ///     .with_annotations(Annotations::NONE.with_audience(&[Role::User]).with_priority(Priority::REQUIRED));
    /// assert_eq!(block.to_value()["annotations"]["audience"][0], "user");
    /// assert_eq!(block.annotations().and_then(|a| a.priority), Some(Priority::REQUIRED));
    /// ```
    #[must_use]
    pub fn with_annotations(mut self, annotations: Annotations) -> Self {
        let slot = match &mut self {
            Content::Text { annotations, .. }
            | Content::Image { annotations, .. }
            | Content::Audio { annotations, .. }
            | Content::ResourceLink { annotations, .. }
            | Content::Resource(EmbeddedResource { annotations, .. }) => annotations,
        };
        *slot = annotations.to_value().is_some().then_some(annotations);
        self
    }

    /// The block's annotations, if it has any.
    ///
    /// ```
    /// assert!(beam_mcp::Content::text("plain").annotations().is_none());
    /// ```
    pub fn annotations(&self) -> Option<&Annotations> {
        match self {
            Content::Text { annotations, .. }
            | Content::Image { annotations, .. }
            | Content::Audio { annotations, .. }
            | Content::ResourceLink { annotations, .. }
            | Content::Resource(EmbeddedResource { annotations, .. }) => annotations.as_ref(),
        }
    }

    /// [`to_value`](Self::to_value), moving a text block's text rather than copying it.
    fn into_value(self) -> Value {
        match self {
            Content::Text {
                text,
                annotations: None,
            } => {
                let mut block = Map::new();
                block.insert("text".into(), Value::String(text));
                block.insert("type".into(), Value::from("text"));
                Value::Object(block)
            }
            other => other.to_value(),
        }
    }

    /// Appends the block as [`to_value`](Self::to_value) would be written (a text block
    /// without annotations, the common one, with no value built).
    fn write_to(&self, out: &mut Vec<u8>) {
        match self {
            Content::Text {
                text,
                annotations: None,
            } => {
                out.extend_from_slice(b"{\"text\":");
                crate::json_out::write_str(out, text);
                out.extend_from_slice(b",\"type\":\"text\"}");
            }
            other => crate::json::write(out, &other.to_value()),
        }
    }

    /// The block as the wire spells it (same at both revisions).
    pub fn to_value(&self) -> Value {
        let mut block = self.to_bare_value();
        if let (Some(annotations), Value::Object(map)) = (self.annotations(), &mut block) {
            crate::annotations::insert_annotations(map, annotations);
        }
        block
    }

    /// The block without its annotations.
    fn to_bare_value(&self) -> Value {
        match self {
            Content::Text { text, .. } => json!({ "type": "text", "text": text }),
            Content::Image {
                data, mime_type, ..
            } => {
                json!({ "type": "image", "data": data, "mimeType": mime_type })
            }
            Content::Audio {
                data, mime_type, ..
            } => {
                json!({ "type": "audio", "data": data, "mimeType": mime_type })
            }
            Content::Resource(resource) => {
                let mut inner = Map::new();
                inner.insert("uri".into(), Value::from(resource.uri.as_str()));
                if let Some(mime) = &resource.mime_type {
                    inner.insert("mimeType".into(), Value::from(mime.as_str()));
                }
                match &resource.body {
                    ResourceBody::Text(text) => {
                        inner.insert("text".into(), Value::from(text.as_str()))
                    }
                    ResourceBody::Blob(bytes) => {
                        inner.insert("blob".into(), Value::from(base64(bytes)))
                    }
                };
                json!({ "type": "resource", "resource": inner })
            }
            Content::ResourceLink {
                uri,
                name,
                mime_type,
                description,
                ..
            } => {
                let mut link = Map::new();
                link.insert("type".into(), Value::from("resource_link"));
                link.insert("uri".into(), Value::from(uri.as_str()));
                link.insert("name".into(), Value::from(name.as_str()));
                if let Some(mime) = mime_type {
                    link.insert("mimeType".into(), Value::from(mime.as_str()));
                }
                if let Some(description) = description {
                    link.insert("description".into(), Value::from(description.as_str()));
                }
                Value::Object(link)
            }
        }
    }
}

impl From<String> for Content {
    fn from(text: String) -> Self {
        Content::text(text)
    }
}

impl From<&str> for Content {
    fn from(text: &str) -> Self {
        Content::text(text)
    }
}

/// The result of one tool call: content, optional structured content, and the error flag.
///
/// ```
/// use beam_mcp::{CallToolResult, Content};
/// let ok = CallToolResult::new(vec![Content::text("done")]);
/// assert!(!ok.is_error());
/// let failed = CallToolResult::error("the upstream API is down");
/// assert!(failed.is_error());
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CallToolResult {
    pub(crate) content: Vec<Content>,
    pub(crate) structured: Option<Value>,
    pub(crate) is_error: bool,
}

impl CallToolResult {
    /// A successful result with these content blocks.
    pub fn new(content: Vec<Content>) -> Self {
        Self {
            content,
            structured: None,
            is_error: false,
        }
    }

    /// A failed result (`isError: true`) whose text explains the failure to the model.
    pub fn error(message: impl Into<String>) -> Self {
        Self {
            content: vec![Content::text(message)],
            structured: None,
            is_error: true,
        }
    }

    /// Adds structured content (the caller keeps it consistent with the tool's output schema).
    pub fn with_structured(mut self, value: Value) -> Self {
        self.structured = Some(value);
        self
    }

    /// True when the result reports a failure.
    pub fn is_error(&self) -> bool {
        self.is_error
    }

    /// The content blocks.
    pub fn content(&self) -> &[Content] {
        &self.content
    }

    /// The structured content, if any.
    pub fn structured(&self) -> Option<&Value> {
        self.structured.as_ref()
    }

    /// Appends the result object as the wire spells it, its keys in the order its value's are
    /// written (sorted), with no value built; a 2026-07-28 result first carries the server's
    /// `_meta` (`stamp_meta`, JSON) and `resultType`.
    pub(crate) fn write_to(&self, out: &mut Vec<u8>, stamp_meta: Option<&str>) {
        out.push(b'{');
        if let Some(meta) = stamp_meta {
            out.extend_from_slice(b"\"_meta\":");
            out.extend_from_slice(meta.as_bytes());
            out.extend_from_slice(b",\"resultType\":\"complete\",");
        }
        out.extend_from_slice(b"\"content\":[");
        for (i, block) in self.content.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            block.write_to(out);
        }
        out.extend_from_slice(if self.is_error {
            b"],\"isError\":true"
        } else {
            b"],\"isError\":false"
        });
        if let Some(structured) = &self.structured {
            out.extend_from_slice(b",\"structuredContent\":");
            crate::json::write(out, structured);
        }
        out.push(b'}');
    }

    /// The result object as the wire spells it, moved rather than copied (the core's answer).
    pub(crate) fn into_value(self) -> Value {
        let mut out = Map::new();
        let content = self.content.into_iter().map(Content::into_value).collect();
        out.insert("content".into(), Value::Array(content));
        if let Some(structured) = self.structured {
            out.insert("structuredContent".into(), structured);
        }
        out.insert("isError".into(), Value::Bool(self.is_error));
        Value::Object(out)
    }

    /// The result object as the wire spells it.
    pub fn to_value(&self) -> Value {
        let mut out = Map::new();
        out.insert(
            "content".into(),
            Value::Array(self.content.iter().map(Content::to_value).collect()),
        );
        if let Some(structured) = &self.structured {
            out.insert("structuredContent".into(), structured.clone());
        }
        out.insert("isError".into(), Value::Bool(self.is_error));
        Value::Object(out)
    }
}

/// Turns what a tool function returns into a [`CallToolResult`].
///
/// Implemented for text (`String`, `&str`, `Cow<str>`), [`Content`], `Vec<Content>`,
/// [`CallToolResult`], `()` and `Result<T, E>` where `E: Display` (an `Err` becomes an
/// `isError: true` result whose text is the error's `Display`). Any other `T: Serialize +
/// JsonSchema` returned from a `#[tool]` becomes structured content with an `outputSchema`.
///
/// ```
/// use beam_mcp::IntoToolResult;
/// let r: Result<String, std::io::Error> = Err(std::io::Error::other("disk full"));
/// assert!(r.into_tool_result().is_error());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot become a tool result",
    label = "this return type is neither text, `Content`, `CallToolResult`, nor `Result` of one",
    note = "return String, Content, Vec<Content>, CallToolResult, a `T: Serialize + JsonSchema` for structured output, or Result<_, E: Display>"
)]
pub trait IntoToolResult {
    /// The result.
    fn into_tool_result(self) -> CallToolResult;
}

// Left out of "other types implement" lists: the message's note names them.
#[diagnostic::do_not_recommend]
impl IntoToolResult for CallToolResult {
    fn into_tool_result(self) -> CallToolResult {
        self
    }
}

// Left out of "other types implement" lists: the message's note names them.
#[diagnostic::do_not_recommend]
impl IntoToolResult for String {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::new(vec![Content::text(self)])
    }
}

// Left out of "other types implement" lists: the message's note names them.
#[diagnostic::do_not_recommend]
impl IntoToolResult for &str {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::new(vec![Content::text(self)])
    }
}

// Left out of "other types implement" lists: the message's note names them.
#[diagnostic::do_not_recommend]
impl IntoToolResult for Cow<'_, str> {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::new(vec![Content::text(self.into_owned())])
    }
}

// Left out of "other types implement" lists: the message's note names them.
#[diagnostic::do_not_recommend]
impl IntoToolResult for Content {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::new(vec![self])
    }
}

// Left out of "other types implement" lists: the message's note names them.
#[diagnostic::do_not_recommend]
impl IntoToolResult for Vec<Content> {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::new(self)
    }
}

// Left out of "other types implement" lists: the message's note names them.
#[diagnostic::do_not_recommend]
impl IntoToolResult for () {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::new(Vec::new())
    }
}

// Left out of "other types implement" lists: the message's note names it.
#[diagnostic::do_not_recommend]
impl<T: IntoToolResult, E: Display> IntoToolResult for Result<T, E> {
    fn into_tool_result(self) -> CallToolResult {
        match self {
            Ok(value) => value.into_tool_result(),
            Err(error) => CallToolResult::error(error.to_string()),
        }
    }
}

/// Structured output: the value as `structuredContent` plus a compact JSON text mirror.
///
/// `wrap` puts a value whose schema root is not an object under `{"result": …}`, so the same
/// result is valid at both revisions (2025-11-25 requires an object).
pub(crate) fn structured<T: Serialize>(
    value: &T,
    wrap: bool,
) -> Result<CallToolResult, serde_json::Error> {
    let mut value = serde_json::to_value(value)?;
    if wrap {
        value = json!({ "result": value });
    }
    // Straight into a buffer: `to_string` would go through the formatter.
    let text = serde_json::to_string(&value)?;
    Ok(CallToolResult::new(vec![Content::text(text)]).with_structured(value))
}

/// A simple error for tools: a message for the model, convertible from any error with `?`.
///
/// ```
/// use beam_mcp::ToolError;
/// fn parse(s: &str) -> Result<i64, ToolError> {
///     Ok(s.parse::<i64>()?)
/// }
/// assert_eq!(parse("x").unwrap_err().to_string(), "invalid digit found in string");
/// assert_eq!(ToolError::new("no such place").to_string(), "no such place");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError(String);

impl ToolError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        ToolError(message.into())
    }
}

impl Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl<E: std::error::Error> From<E> for ToolError {
    fn from(error: E) -> Self {
        ToolError(error.to_string())
    }
}
