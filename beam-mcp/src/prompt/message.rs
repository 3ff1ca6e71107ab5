//! What a prompt renders to: messages of content, each from the user or the assistant.

use std::fmt::Display;

use serde_json::{Map, Value, json};

pub use crate::annotations::Role;
use crate::tool::Content;

/// One message of a rendered prompt: text, an image, audio or an embedded resource.
///
/// ```
/// use beam_mcp::Content;
/// use beam_mcp::prompt::PromptMessage;
/// let ask = PromptMessage::user("Summarise this:");
/// let doc = PromptMessage::user(Content::embedded_text("notes://1", "text/plain", "…"));
/// let hint = PromptMessage::assistant("I will keep it short.");
/// # let _ = (ask, doc, hint);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct PromptMessage {
    /// Who speaks.
    pub role: Role,
    /// What is said.
    pub content: Content,
}

impl PromptMessage {
    /// A message from the user.
    pub fn user(content: impl Into<Content>) -> Self {
        Self {
            role: Role::User,
            content: content.into(),
        }
    }

    /// A message from the assistant.
    pub fn assistant(content: impl Into<Content>) -> Self {
        Self {
            role: Role::Assistant,
            content: content.into(),
        }
    }

    fn to_value(&self) -> Value {
        json!({ "role": self.role.as_str(), "content": self.content.to_value() })
    }
}

/// A rendered prompt: its messages, and an optional description.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GetPromptResult {
    /// A description of this rendering.
    pub description: Option<String>,
    /// The messages.
    pub messages: Vec<PromptMessage>,
}

impl GetPromptResult {
    /// A result of these messages.
    pub fn new(messages: Vec<PromptMessage>) -> Self {
        Self {
            description: None,
            messages,
        }
    }

    /// Sets the description.
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    #[cfg(feature = "client")]
    /// A `prompts/get` result as the wire spells it (what a proxy relays).
    pub(crate) fn from_value(result: &Value) -> Result<GetPromptResult, String> {
        let messages = result
            .get("messages")
            .and_then(Value::as_array)
            .ok_or("a prompt without a messages array")?
            .iter()
            .map(|message| {
                let role = message
                    .get("role")
                    .and_then(Value::as_str)
                    .and_then(Role::from_wire)
                    .ok_or("a message whose role is not user or assistant")?;
                let content = message.get("content").ok_or("a message without content")?;
                Ok(PromptMessage {
                    role,
                    content: Content::from_value(content)?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let description = result.get("description").and_then(Value::as_str);
        Ok(GetPromptResult {
            description: description.map(str::to_owned),
            messages,
        })
    }

    pub(crate) fn to_value(&self) -> Value {
        let mut result = Map::new();
        if let Some(description) = &self.description {
            result.insert("description".into(), Value::from(description.as_str()));
        }
        result.insert(
            "messages".into(),
            self.messages.iter().map(PromptMessage::to_value).collect(),
        );
        Value::Object(result)
    }
}

/// What a `#[prompt]` function may return: text (one user message), a [`PromptMessage`], a
/// `Vec` of them, a [`GetPromptResult`], or a `Result` of one of those whose error's text
/// tells the caller why the prompt cannot be rendered.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a rendered prompt",
    label = "a #[prompt] returns text or messages",
    note = "return String, &str, PromptMessage, Vec<PromptMessage>, GetPromptResult, or a Result of one of those with an error that implements Display"
)]
pub trait IntoPromptResult {
    /// The rendered prompt, or the text of why it cannot be rendered.
    fn into_prompt_result(self) -> Result<GetPromptResult, String>;
}

// Left out of "other types implement" lists: the message's note names them.
#[diagnostic::do_not_recommend]
impl IntoPromptResult for GetPromptResult {
    fn into_prompt_result(self) -> Result<GetPromptResult, String> {
        Ok(self)
    }
}

// Left out of "other types implement" lists: the message's note names them.
#[diagnostic::do_not_recommend]
impl IntoPromptResult for String {
    fn into_prompt_result(self) -> Result<GetPromptResult, String> {
        Ok(GetPromptResult::new(vec![PromptMessage::user(self)]))
    }
}

// Left out of "other types implement" lists: the message's note names them.
#[diagnostic::do_not_recommend]
impl IntoPromptResult for &str {
    fn into_prompt_result(self) -> Result<GetPromptResult, String> {
        Ok(GetPromptResult::new(vec![PromptMessage::user(self)]))
    }
}

// Left out of "other types implement" lists: the message's note names them.
#[diagnostic::do_not_recommend]
impl IntoPromptResult for PromptMessage {
    fn into_prompt_result(self) -> Result<GetPromptResult, String> {
        Ok(GetPromptResult::new(vec![self]))
    }
}

// Left out of "other types implement" lists: the message's note names them.
#[diagnostic::do_not_recommend]
impl IntoPromptResult for Vec<PromptMessage> {
    fn into_prompt_result(self) -> Result<GetPromptResult, String> {
        Ok(GetPromptResult::new(self))
    }
}

// Left out of "other types implement" lists: the message's note names it.
#[diagnostic::do_not_recommend]
impl<T: IntoPromptResult, E: Display> IntoPromptResult for Result<T, E> {
    fn into_prompt_result(self) -> Result<GetPromptResult, String> {
        self.map_err(|e| e.to_string())?.into_prompt_result()
    }
}
