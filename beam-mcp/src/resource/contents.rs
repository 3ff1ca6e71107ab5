//! What a resource reader returns, and how it says "not found".

use std::fmt::Display;

use base64::Engine as _;
use serde_json::{Map, Value};

use crate::tool::ResourceBody;

/// One item of a `resources/read` result: text or bytes, with its URI and MIME type.
///
/// The URI defaults to the one asked for and the MIME type to the one declared on the
/// resource.
///
/// ```
/// use beam_mcp::resource::ResourceContents;
/// let page = ResourceContents::text("# Notes").with_mime_type("text/markdown");
/// let logo = ResourceContents::blob(vec![0x89, b'P', b'N', b'G']).with_uri("app://logo.png");
/// # let _ = (page, logo);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceContents {
    uri: Option<String>,
    mime_type: Option<String>,
    body: ResourceBody,
}

impl ResourceContents {
    /// Text contents.
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            uri: None,
            mime_type: None,
            body: ResourceBody::Text(text.into()),
        }
    }

    /// Binary contents (a `blob`, standard base64 on the wire).
    pub fn blob(bytes: impl Into<Vec<u8>>) -> Self {
        Self {
            uri: None,
            mime_type: None,
            body: ResourceBody::Blob(bytes.into()),
        }
    }

    /// Sets the item's URI (for a reader returning several items, such as a directory).
    pub fn with_uri(mut self, uri: impl Into<String>) -> Self {
        self.uri = Some(uri.into());
        self
    }

    /// Sets the item's MIME type.
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    #[cfg(feature = "client")]
    /// One item of a `resources/read` result as the wire spells it (what a proxy relays).
    pub(crate) fn from_value(item: &Value) -> Result<ResourceContents, String> {
        let uri = item
            .get("uri")
            .and_then(Value::as_str)
            .ok_or("contents without a string \"uri\"")?;
        let body = match (item.get("text"), item.get("blob")) {
            (Some(Value::String(text)), None) => ResourceBody::Text(text.clone()),
            (None, Some(Value::String(blob))) => ResourceBody::Blob(
                crate::tool::blob_bytes(blob).map_err(|e| format!("a blob that is {e}"))?,
            ),
            _ => return Err("contents without one string text or blob".into()),
        };
        Ok(ResourceContents {
            uri: Some(uri.to_owned()),
            mime_type: item
                .get("mimeType")
                .and_then(Value::as_str)
                .map(str::to_owned),
            body,
        })
    }

    /// True when this is a view's own content (no URI of its own, or the view's) and its reader
    /// set a MIME type other than the extension's.
    pub(crate) fn retypes_view(&self, view: &str) -> bool {
        self.uri.as_deref().is_none_or(|own| own == view)
            && self
                .mime_type
                .as_deref()
                .is_some_and(|mime| mime != crate::app::MIME_TYPE)
    }

    /// The content as the wire spells it: its own URI and MIME type, else the resource's;
    /// `meta` (an MCP Apps view's `_meta`) on the view's own content.
    pub(crate) fn to_value(
        &self,
        uri: &str,
        mime_type: Option<&str>,
        meta: Option<&Value>,
    ) -> Value {
        let mut item = Map::new();
        item.insert(
            "uri".into(),
            Value::from(self.uri.as_deref().unwrap_or(uri)),
        );
        if let Some(mime) = self.mime_type.as_deref().or(mime_type) {
            item.insert("mimeType".into(), Value::from(mime));
        }
        match &self.body {
            ResourceBody::Text(text) => item.insert("text".into(), Value::from(text.as_str())),
            ResourceBody::Blob(bytes) => item.insert(
                "blob".into(),
                Value::from(base64::engine::general_purpose::STANDARD.encode(bytes)),
            ),
        };
        if let Some(meta) = meta
            && self.uri.as_deref().is_none_or(|own| own == uri)
        {
            item.insert("_meta".into(), meta.clone());
        }
        Value::Object(item)
    }
}

/// "There is no such resource": answered `-32602` (2026-07-28) or `-32002` (2025-11-25) with
/// `data.uri`, never as empty contents.
///
/// ```
/// use beam_mcp::resource::NotFound;
///
/// /// One note by its id.
/// #[beam_mcp::resource("notes://{id}")]
/// fn note(id: String) -> Result<String, NotFound> {
///     if id == "1" { Ok("first".into()) } else { Err(NotFound) }
/// }
/// # let _ = note::DEF;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NotFound;

impl Display for NotFound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not found")
    }
}

impl std::error::Error for NotFound {}

/// Why a read produced no contents.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResourceError {
    /// Nothing at that URI; `reason`, when given, goes to the caller in `data.reason`.
    #[error("not found")]
    NotFound {
        /// Why, for the caller.
        reason: Option<String>,
    },
    /// A fault on the server's side: logged, answered `-32603` without details.
    #[error("{0}")]
    Internal(String),
}

impl ResourceError {
    /// Not found, with a reason for the caller.
    pub fn not_found(reason: impl Display) -> Self {
        Self::NotFound {
            reason: Some(reason.to_string()),
        }
    }

    /// A server-side fault; `detail` is logged, never sent.
    pub fn internal(detail: impl Display) -> Self {
        Self::Internal(detail.to_string())
    }
}

impl From<NotFound> for ResourceError {
    fn from(_: NotFound) -> Self {
        Self::NotFound { reason: None }
    }
}

/// A missing file is "not found"; any other I/O failure is a server fault.
impl From<std::io::Error> for ResourceError {
    fn from(error: std::io::Error) -> Self {
        match error.kind() {
            std::io::ErrorKind::NotFound => Self::NotFound { reason: None },
            _ => Self::Internal(error.to_string()),
        }
    }
}

/// What a `#[resource]` function may return: text (`String`, `&'static str`), bytes
/// (`Vec<u8>`), [`ResourceContents`] or a `Vec` of them, or a `Result` of one of those whose
/// error converts into [`ResourceError`] (such as [`NotFound`] or `std::io::Error`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a resource's contents",
    label = "a #[resource] returns text, bytes or contents",
    note = "return String, &'static str, Vec<u8>, ResourceContents, Vec<ResourceContents>, or a Result of one of those with an error such as NotFound, ResourceError or std::io::Error"
)]
pub trait IntoReadResult {
    /// The contents, or why there are none.
    fn into_read_result(self) -> Result<Vec<ResourceContents>, ResourceError>;
}

// Left out of "other types implement" lists: the message's note names them.
#[diagnostic::do_not_recommend]
impl IntoReadResult for String {
    fn into_read_result(self) -> Result<Vec<ResourceContents>, ResourceError> {
        Ok(vec![ResourceContents::text(self)])
    }
}

// Left out of "other types implement" lists: the message's note names them.
#[diagnostic::do_not_recommend]
impl IntoReadResult for &'static str {
    fn into_read_result(self) -> Result<Vec<ResourceContents>, ResourceError> {
        Ok(vec![ResourceContents::text(self)])
    }
}

// Left out of "other types implement" lists: the message's note names them.
#[diagnostic::do_not_recommend]
impl IntoReadResult for Vec<u8> {
    fn into_read_result(self) -> Result<Vec<ResourceContents>, ResourceError> {
        Ok(vec![ResourceContents::blob(self)])
    }
}

// Left out of "other types implement" lists: the message's note names them.
#[diagnostic::do_not_recommend]
impl IntoReadResult for ResourceContents {
    fn into_read_result(self) -> Result<Vec<ResourceContents>, ResourceError> {
        Ok(vec![self])
    }
}

// Left out of "other types implement" lists: the message's note names them.
#[diagnostic::do_not_recommend]
impl IntoReadResult for Vec<ResourceContents> {
    fn into_read_result(self) -> Result<Vec<ResourceContents>, ResourceError> {
        Ok(self)
    }
}

// Left out of "other types implement" lists: the message's note names it.
#[diagnostic::do_not_recommend]
impl<T: IntoReadResult, E: Into<ResourceError>> IntoReadResult for Result<T, E> {
    fn into_read_result(self) -> Result<Vec<ResourceContents>, ResourceError> {
        self.map_err(Into::into)?.into_read_result()
    }
}

impl From<crate::tool::Rejection> for ResourceError {
    fn from(rejection: crate::tool::Rejection) -> Self {
        ResourceError::Internal(format!("an extractor failed: {rejection}"))
    }
}
