//! Asking the client in the middle of a request (the types; the asks themselves are methods of
//! [`Context`](crate::Context)): a form or a URL for the user (elicitation),
//! a completion from the client's model (sampling), the client's roots.
//!
//! Host code asks through its [`Context`](crate::Context); the answer is awaited like any other value:
//!
//! ```
//! use beam_mcp::{Context, Elicit, Elicited};
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema, Elicit)]
//! struct Confirm {
//!     /// Type the name of the repository to delete it.
//!     name: String,
//! }
//!
//! /// Deletes a repository once the user confirms.
//! #[beam_mcp::tool]
//! async fn delete_repository(repo: String, ctx: Context) -> Result<String, beam_mcp::ToolError> {
//!     let answer = ctx
//!         .elicit::<Confirm>(format!("Delete {repo}? This cannot be undone."))
//!         .await
//!         .map_err(|e| beam_mcp::ToolError::new(e.to_string()))?;
//!     Ok(match answer {
//!         Elicited::Accepted(c) if c.name == repo => format!("deleted {repo}"),
//!         _ => "kept".to_owned(),
//!     })
//! }
//! # let _ = delete_repository::DEF;
//! ```
//!
//! At 2026-07-28 an ask becomes a multi-round-trip result (`resultType: "input_required"`):
//! the response lists the asks, the client answers them in a new request, and **the host
//! function runs again from the start**, this time receiving the answers in the same order.
//! Code before an ask therefore runs once per round: keep side effects after the last ask, or
//! make them idempotent. Several asks awaited together (`join!`) go out in one round.
//!
//! At 2025-11-25 an ask is a request to the client on the session (stdio, or an HTTP session),
//! matched with the client's response by id, within `ServerBuilder::ask_time_limit`.

mod pending;
mod round;
pub(crate) mod state;

use std::any::TypeId;
use std::sync::{Arc, RwLock};

use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

pub(crate) use pending::ClientRequests;
pub(crate) use round::{Lookup, Round, RoundError};
pub use state::StateError;

/// Why an ask got no answer. A missing or malformed answer is never an error: it is asked again.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AskError {
    /// This request's client capabilities lack what the ask needs (`elicitation`,
    /// `elicitation.url`, `sampling`, `roots`). Declare `requires(..)` on the item to have the
    /// server refuse such a request up front (-32021) instead.
    #[error("the client did not declare the {0} capability for this request")]
    Unsupported(&'static str),
    /// This request cannot ask the client at all (why is in the message).
    #[error("this request cannot ask the client: {0}")]
    Unavailable(&'static str),
    /// Two asks of one request used the same key.
    #[error("the ask key {0:?} is used twice in one request")]
    DuplicateKey(String),
    /// 2025-11-25: the client did not answer within the time limit
    /// (`ServerBuilder::ask_time_limit`).
    #[error("the client did not answer within {} ms", .0.as_millis())]
    TimedOut(std::time::Duration),
    /// 2025-11-25: the client answered with an error.
    #[error("the client refused: {message} ({code})")]
    Refused {
        /// The JSON-RPC error code.
        code: i64,
        /// The client's message.
        message: String,
    },
    /// 2025-11-25: the client's answer does not have the shape of the result asked for.
    #[error("the client's answer is malformed")]
    Malformed,
}

/// The user's answer to an elicitation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Elicited<T> {
    /// The user submitted the form (or, for a URL, completed the interaction).
    Accepted(T),
    /// The user said no.
    Declined,
    /// The user dismissed the request without choosing.
    Cancelled,
}

/// What a client's model answered to [`Context::sample`](crate::Context::sample).
///
/// Built with a struct literal where a host's test needs an answer to hand its own code.
#[derive(Debug, Clone, PartialEq)]
pub struct Sampled {
    /// The role of the answer (`assistant`).
    pub role: String,
    /// The model that answered.
    pub model: String,
    /// Why it stopped, if the client said.
    pub stop_reason: Option<String>,
    /// The content, as sent: one content block or an array of them.
    pub content: Value,
}

impl Sampled {
    /// The text of the answer, when it is one text block.
    ///
    /// ```
    /// let s = beam_mcp::Sampled { role: "assistant".into(), model: "m".into(), stop_reason: None,
    ///     content: serde_json::json!({ "type": "text", "text": "Paris" }) };
    /// assert_eq!(s.text(), Some("Paris"));
    /// ```
    pub fn text(&self) -> Option<&str> {
        let block = match &self.content {
            Value::Array(blocks) if blocks.len() == 1 => &blocks[0],
            other => other,
        };
        (block.get("type")? == "text")
            .then(|| block.get("text")?.as_str())
            .flatten()
    }
}

/// One of the client's roots.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Root {
    /// A `file://` URI.
    pub uri: String,
    /// A name for it, if the client gave one.
    pub name: Option<String>,
}

/// A request for the client's model ([`Context::sample`](crate::Context::sample)).
///
/// ```
/// let request = beam_mcp::SamplingRequest::new(100)
///     .system_prompt("Answer in one word.")
///     .user("What is the capital of France?");
/// # let _ = request;
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct SamplingRequest {
    params: Map<String, Value>,
}

impl SamplingRequest {
    /// A request answered with at most `max_tokens` tokens.
    pub fn new(max_tokens: u32) -> Self {
        let mut params = Map::new();
        params.insert("messages".into(), Value::Array(Vec::new()));
        params.insert("maxTokens".into(), Value::from(max_tokens));
        SamplingRequest { params }
    }

    /// Adds a user message with `text`.
    pub fn user(self, text: impl Into<String>) -> Self {
        self.message("user", text.into())
    }

    /// Adds an assistant message with `text`.
    pub fn assistant(self, text: impl Into<String>) -> Self {
        self.message("assistant", text.into())
    }

    fn message(mut self, role: &str, text: String) -> Self {
        if let Some(Value::Array(messages)) = self.params.get_mut("messages") {
            messages.push(json!({ "role": role, "content": { "type": "text", "text": text } }));
        }
        self
    }

    /// Sets the system prompt.
    pub fn system_prompt(self, text: impl Into<String>) -> Self {
        self.param("systemPrompt", Value::from(text.into()))
    }

    pub(crate) fn into_params(self) -> Map<String, Value> {
        self.params
    }

    /// Sets any other member of `CreateMessageRequestParams` (`temperature`,
    /// `modelPreferences`, `stopSequences`, ...), as the specification spells it.
    pub fn param(mut self, name: &str, value: Value) -> Self {
        self.params.insert(name.to_owned(), value);
        self
    }
}

/// A form the client can show: a struct of flat fields (strings, numbers, booleans, and enums
/// of unit variants), each optional or not. Derive it with `#[derive(Elicit)]` beside serde's
/// and schemars' derives (`#[derive(Elicit, Deserialize, JsonSchema)]`): the derive refuses any
/// other field type at compile time, and a missing derive in one short error naming it; the
/// requested schema comes from `JsonSchema`.
///
/// Implemented for the types that derive it (and only those: the derive checks the fields).
///
/// ```
/// #[derive(beam_mcp::Elicit, serde::Deserialize, schemars::JsonSchema)]
/// struct Contact {
///     email: String,
/// }
/// fn assert_form<T: beam_mcp::Elicit>() {}
/// assert_form::<Contact>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a form the client can show",
    label = "not a form",
    note = "a form is a struct of flat fields with `#[derive(beam_mcp::Elicit, serde::Deserialize, schemars::JsonSchema)]`"
)]
pub trait Elicit: DeserializeOwned + schemars::JsonSchema + Send + 'static {}

#[diagnostic::do_not_recommend]
impl<T> Elicit for T where
    T: DerivedElicit + DeserializeOwned + schemars::JsonSchema + Send + 'static
{
}

/// Implemented by `#[derive(Elicit)]` on a struct whose fields it checked: with serde's and
/// schemars' derives, the struct is then an [`Elicit`] form. Not a public API: the derive
/// reaches it through the macros' support module.
#[doc(hidden)]
pub trait DerivedElicit {}

/// A type a form field can hold: implemented for strings, numbers and booleans, for `Option`
/// of them, by `#[derive(Elicit)]` for an enum of unit variants (a choice), and for a `Vec` of
/// such an enum (a multi-select).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of an elicitation form",
    label = "not a flat field",
    note = "a form holds strings, numbers, booleans, enums of unit variants (derive `Elicit` on the enum) and `Vec`s of such enums (a multi-select), each optional or not; ask for anything else in several forms or through a URL"
)]
pub trait ElicitField {
    /// Named by `#[derive(Elicit)]` at each field's type: a field that cannot be one is one
    /// error there.
    #[doc(hidden)]
    const __FIELD: () = ();
}

macro_rules! fields {
    ($($t:ty),*) => { $(#[diagnostic::do_not_recommend] impl ElicitField for $t {})* };
}
fields!(String, bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);
// Left out of "other types implement" lists: the message's note names them.
#[diagnostic::do_not_recommend]
impl<T: ElicitField> ElicitField for Option<T> {}
// Left out of "other types implement" lists: the message's note names it.
#[diagnostic::do_not_recommend]
impl<T: ElicitChoice> ElicitField for Vec<T> {}

/// An enum of unit variants, one of which a user picks: `#[derive(Elicit)]` implements it on
/// such an enum. A field holds one (`T`) or several (`Vec<T>`, a multi-select). Give variants
/// `#[schemars(title = "..")]` to show titles.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a choice a user can pick several of",
    note = "a multi-select field is a `Vec` of an enum of unit variants that derives `Elicit`"
)]
pub trait ElicitChoice {}

/// The `requestedSchema` of the form `T`: its portable schema in the shapes clients render
/// (SEP-1330): a titled choice is `oneOf` of `{const, title}` with `type: "string"` beside it,
/// and a titled multi-select's `items` are `anyOf` of them.
///
/// Computed once per type (an ask and every answer to it read the same schema).
pub(crate) fn requested_schema<T: Elicit>() -> Arc<Value> {
    static FORMS: RwLock<Vec<(TypeId, Arc<Value>)>> = RwLock::new(Vec::new());
    let id = TypeId::of::<T>();
    let cached = |forms: &[(TypeId, Arc<Value>)]| {
        forms
            .iter()
            .find(|(t, _)| *t == id)
            .map(|(_, s)| Arc::clone(s))
    };
    if let Some(schema) = cached(&FORMS.read().unwrap_or_else(|e| e.into_inner())) {
        return schema;
    }
    let schema = Arc::new(form_schema::<T>());
    let mut forms = FORMS.write().unwrap_or_else(|e| e.into_inner());
    if let Some(schema) = cached(&forms) {
        return schema;
    }
    forms.push((id, Arc::clone(&schema)));
    schema
}

fn form_schema<T: Elicit>() -> Value {
    let mut schema = crate::schemagen::form_schema_for::<T>();
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        for field in properties.values_mut() {
            form_field(field);
        }
    }
    schema
}

fn form_field(field: &mut Value) {
    let Value::Object(map) = field else { return };
    // Only string fields have a `format` in a form (email, uri, date, date-time); schemars'
    // `uint8`, `double` and the like are not the client's to read.
    if map
        .get("type")
        .is_some_and(|t| t == "integer" || t == "number")
    {
        map.remove("format");
    }
    titled_choice(map);
    if let Some(Value::Object(items)) = map.get_mut("items") {
        titled_choice(items);
        if let Some(choices) = items.remove("oneOf") {
            items.remove("type");
            items.insert("anyOf".into(), choices);
        }
    }
}

/// True when `content` keeps the bounds the form's fields advertise: `minimum`/`maximum`
/// (and exclusive ones) of numbers, `minLength`/`maxLength` of strings (in characters),
/// `minItems`/`maxItems` of multi-selects. Types and choices are serde's to check.
fn fits(schema: &Value, content: &Value) -> bool {
    let (Some(properties), Some(content)) = (
        schema.get("properties").and_then(Value::as_object),
        content.as_object(),
    ) else {
        return true;
    };
    properties.iter().all(|(name, field)| {
        let Some(value) = content.get(name) else {
            return true;
        };
        let bound = |key: &str| field.get(key).and_then(Value::as_f64);
        let count = match value {
            Value::String(s) => Some(s.chars().count() as f64),
            Value::Array(items) => Some(items.len() as f64),
            _ => None,
        };
        let (min_len, max_len) = match value {
            Value::Array(_) => ("minItems", "maxItems"),
            _ => ("minLength", "maxLength"),
        };
        let number = value.as_f64();
        number.is_none_or(|n| {
            bound("minimum").is_none_or(|m| n >= m)
                && bound("maximum").is_none_or(|m| n <= m)
                && bound("exclusiveMinimum").is_none_or(|m| n > m)
                && bound("exclusiveMaximum").is_none_or(|m| n < m)
        }) && count.is_none_or(|c| {
            bound(min_len).is_none_or(|m| c >= m) && bound(max_len).is_none_or(|m| c <= m)
        })
    })
}

/// A `oneOf` of string constants (a titled choice) says its type.
fn titled_choice(map: &mut Map<String, Value>) {
    let all_strings = map
        .get("oneOf")
        .and_then(Value::as_array)
        .is_some_and(|choices| {
            choices
                .iter()
                .all(|c| c.get("const").is_some_and(Value::is_string))
        });
    if all_strings {
        map.entry("type").or_insert_with(|| Value::from("string"));
    }
}

/// A capability an ask needs, as the client declares it.
#[derive(Clone, Copy)]
pub(crate) enum Needs {
    Form,
    Url,
    Sampling,
    Roots,
}

impl Needs {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Needs::Form => "elicitation",
            Needs::Url => "elicitation.url",
            Needs::Sampling => "sampling",
            Needs::Roots => "roots",
        }
    }

    pub(crate) fn declared(self, capabilities: Option<&Map<String, Value>>) -> bool {
        let Some(capabilities) = capabilities else {
            return false;
        };
        match self {
            // `elicitation: {}` is form mode (2025-06-18 and later); `{url: {}}` alone is not.
            Needs::Form => capabilities
                .get("elicitation")
                .and_then(Value::as_object)
                .is_some_and(|e| e.is_empty() || e.contains_key("form")),
            Needs::Url => capabilities
                .get("elicitation")
                .and_then(Value::as_object)
                .is_some_and(|e| e.contains_key("url")),
            Needs::Sampling => capabilities.get("sampling").is_some_and(Value::is_object),
            Needs::Roots => capabilities.get("roots").is_some_and(Value::is_object),
        }
    }
}

fn read_action(answer: &Value) -> Option<(&str, Option<&Value>)> {
    let answer = answer.as_object()?;
    let action = answer.get("action")?.as_str()?;
    Some((action, answer.get("content")))
}

pub(crate) fn read_form<T: Elicit>(answer: &Value) -> Option<Elicited<T>> {
    match read_action(answer)? {
        // The bounds the form advertised hold for what comes back, not only its types.
        ("accept", Some(content))
            if content.is_object() && fits(&requested_schema::<T>(), content) =>
        {
            serde_json::from_value(content.clone())
                .ok()
                .map(Elicited::Accepted)
        }
        ("decline", _) => Some(Elicited::Declined),
        ("cancel", _) => Some(Elicited::Cancelled),
        _ => None,
    }
}

pub(crate) fn read_url(answer: &Value) -> Option<Elicited<()>> {
    match read_action(answer)?.0 {
        "accept" => Some(Elicited::Accepted(())),
        "decline" => Some(Elicited::Declined),
        "cancel" => Some(Elicited::Cancelled),
        _ => None,
    }
}

pub(crate) fn read_sampled(answer: &Value) -> Option<Sampled> {
    let answer = answer.as_object()?;
    let content = answer.get("content")?;
    if !(content.is_object() || content.is_array()) {
        return None;
    }
    Some(Sampled {
        role: answer.get("role")?.as_str()?.to_owned(),
        model: answer.get("model")?.as_str()?.to_owned(),
        stop_reason: answer
            .get("stopReason")
            .and_then(Value::as_str)
            .map(str::to_owned),
        content: content.clone(),
    })
}

pub(crate) fn read_roots(answer: &Value) -> Option<Vec<Root>> {
    answer
        .get("roots")?
        .as_array()?
        .iter()
        .map(|root| {
            Some(Root {
                uri: root.get("uri")?.as_str()?.to_owned(),
                name: match root.get("name") {
                    None => None,
                    Some(name) => Some(name.as_str()?.to_owned()),
                },
            })
        })
        .collect()
}
