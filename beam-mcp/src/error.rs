//! Every error a caller can see, each mapped to exactly one JSON-RPC code in one place.
//!
//! Caller text (a tool name, a URI, a method, a key) never goes into `message`: it travels
//! once, in `data`, cut to [`CALLER_TEXT_BYTES`](crate::protocol::CALLER_TEXT_BYTES). So an error reply stays small whatever the
//! caller sent (a 1 MiB URI is answered in well under 2 KiB).

use serde_json::{Value, json};

use crate::caller_text::caller_text;
use crate::json::JsonError;
use crate::revision::Revision;

/// A protocol-level refusal: a JSON-RPC error object the core answers with.
///
/// The wording of each message is part of the wire contract (see `docs/wire.md`). A message
/// is fixed text; what the caller sent is in [`data`](Self::data), cut to
/// [`CALLER_TEXT_BYTES`](crate::protocol::CALLER_TEXT_BYTES).
///
/// ```
/// use beam_mcp::protocol::ProtocolError;
/// let e = ProtocolError::MethodNotFound("ping".into());
/// assert_eq!(e.code(), -32601);
/// assert_eq!(e.to_string(), "Method not found");
/// assert_eq!(e.data().unwrap()["method"], "ping");
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ProtocolError {
    /// The bytes were refused by the bounded JSON reader.
    #[error(transparent)]
    Json(#[from] JsonError),
    /// A top-level JSON array.
    #[error("Batch requests are not supported at any supported protocol version")]
    Batch,
    /// A JSON value that is not an object.
    #[error("Expected a JSON object, got {0}")]
    NotAnObject(&'static str),
    /// A message handed to the core longer than the bound.
    #[error("Request body exceeds 1048576 bytes")]
    TooLarge,
    /// Not a JSON-RPC 2.0 request (wrong `jsonrpc`, no string `method`, a bad `id`, ...).
    #[error("Invalid Request")]
    InvalidRequest,
    /// `_meta` at the top level of a request.
    #[error(
        "Invalid params: _meta belongs in params._meta (2026-07-28 RequestParams), not at the top level of the request"
    )]
    TopLevelMeta,
    /// `params` present but not an object.
    #[error("Invalid params: params must be an object")]
    ParamsNotObject,
    /// `params._meta` present but not an object.
    #[error("Invalid params: params._meta must be an object")]
    MetaNotObject,
    /// `params._meta` without a string protocol version.
    #[error("Invalid params: params._meta lacks io.modelcontextprotocol/protocolVersion")]
    MetaLacksVersion,
    /// A 2026-07-28 request without client capabilities.
    #[error(
        "Invalid params: params._meta lacks io.modelcontextprotocol/clientCapabilities, which 2026-07-28 requires on every request"
    )]
    MetaLacksCapabilities,
    /// A protocol version this server does not serve.
    #[error("Unsupported protocol version")]
    UnsupportedVersion {
        /// The versions this server serves, in advertised order.
        supported: Vec<&'static str>,
        /// The version the client asked for.
        requested: String,
    },
    /// A method this revision does not have, or whose capability is not advertised.
    #[error("Method not found")]
    MethodNotFound(String),
    /// `tools/call` without a string `name`.
    #[error("Invalid params: tools/call requires a string name")]
    ToolNameMissing,
    /// `tools/call` naming a tool the catalog does not list.
    #[error("Unknown tool")]
    UnknownTool(String),
    /// `resources/read` without a string `uri`.
    #[error("Invalid params: resources/read requires a string uri")]
    ResourceUriMissing,
    /// A URI no listed resource has and no listed template matches, or one its reader said
    /// is not there (`-32002` at 2025-11-25, `-32602` at 2026-07-28).
    #[error("Resource not found")]
    ResourceNotFound {
        /// The URI asked for.
        uri: String,
        /// The reader's reason, when it gave one.
        reason: Option<String>,
    },
    /// `prompts/get` without a string `name`.
    #[error("Invalid params: prompts/get requires a string name")]
    PromptNameMissing,
    /// A prompt the catalog does not list.
    #[error("Invalid params: unknown prompt")]
    UnknownPrompt(String),
    /// Prompt arguments refused by the schema derived from the declared arguments.
    #[error("Invalid params: invalid arguments")]
    PromptArguments {
        /// The prompt.
        name: String,
        /// The validator's first failure.
        reason: String,
    },
    /// A prompt function returned an error.
    #[error("Invalid params: the prompt cannot be rendered")]
    PromptNotRendered {
        /// The prompt.
        name: String,
        /// The error's text.
        reason: String,
    },
    /// `completion/complete` without a well-formed `ref` and `argument`.
    #[error(
        "Invalid params: completion/complete requires ref {{type: \"ref/prompt\", name}} or {{type: \"ref/resource\", uri}} and argument {{name, value}} with string values"
    )]
    CompletionMalformed,
    /// `skills/get` naming no skill this server serves (a URI that is not a `SKILL.md`'s, or
    /// one no skill has).
    #[error("Invalid params: no skill is served at this uri")]
    UnknownSkill(String),
    /// `resources/directory/read` naming no folder of a skill (a file, or nothing).
    #[error("Invalid params: not a directory resource")]
    NotADirectory(String),
    /// `completion/complete` naming a template the catalog does not list.
    #[error("Invalid params: unknown resource template")]
    UnknownTemplate(String),
    /// `completion/complete` naming an argument the prompt or template does not declare.
    #[error("Invalid params: unknown argument")]
    UnknownArgument {
        /// The prompt name or template.
        item: String,
        /// The argument asked for.
        argument: String,
    },
    /// A list cursor this server did not issue.
    #[error("Invalid params: cursor is malformed")]
    CursorMalformed,
    /// A cursor issued for another list.
    #[error("Invalid params: cursor belongs to another list, not {0}")]
    CursorForeign(&'static str),
    /// A 2026-07-28 request without `params._meta` naming its protocol version (HTTP).
    #[error(
        "Invalid params: params._meta with io.modelcontextprotocol/protocolVersion is required on every request"
    )]
    MetaRequired,
    /// An HTTP request header that is missing, malformed, or disagrees with the body.
    #[error("Header mismatch: {0}")]
    HeaderMismatch(String),
    /// The request needs client capabilities its `clientCapabilities` lacks.
    #[error("Missing required client capability: {}", .0.join(", "))]
    MissingClientCapability(Vec<String>),
    /// A fault on the server's side; the details go to the log, never to the caller.
    #[error("Internal error")]
    Internal,
    /// A log level that is not one of the eight (`io.modelcontextprotocol/logLevel` or
    /// `logging/setLevel`): the value sent (its JSON text when it is not a string).
    #[error(
        "Invalid params: not a log level (debug, info, notice, warning, error, critical, alert, emergency)"
    )]
    LogLevel(String),
    /// A `progressToken` that is neither a string nor an integer.
    #[error("Invalid params: progressToken must be a string or an integer")]
    ProgressToken,
    /// A `requestState` this server did not issue for this request, or no longer accepts.
    #[error("Invalid params: {0}")]
    RequestState(crate::ask::StateError),
    /// Answers too large to seal into the next round's `requestState`.
    #[error("Invalid params: the answers given exceed the 65536-byte requestState bound")]
    AnswersTooLarge,
    /// `inputResponses` that is not an object.
    #[error("Invalid params: inputResponses must be an object")]
    InputResponsesNotObject,
    /// A call (or a `tasks/*` request) that needs an extension this request's
    /// `clientCapabilities` do not declare (`-32021`).
    #[error("Missing required client capability: extensions.{0}")]
    MissingExtension(&'static str),
    /// `tasks/get`, `tasks/update` or `tasks/cancel` without a string `taskId`.
    #[error("Invalid params: {0} requires a string taskId")]
    TaskIdMissing(&'static str),
    /// A `taskId` this server does not know (or no longer keeps, or another caller's).
    #[error("Invalid params: unknown task")]
    UnknownTask(String),
    /// The task bound is reached: the call could not become a task.
    #[error("Too many tasks: try again later")]
    TasksFull,
    /// `notifications/cancelled` or another request that names no request id.
    #[error("Invalid params: {0}")]
    Malformed(&'static str),
    /// The server's [`RateLimit`](crate::limit::RateLimit) refused a `tools/call` or
    /// `completion/complete` of this caller: `-31429`, with `data.retryAfterMs`.
    ///
    /// ```
    /// use beam_mcp::protocol::ProtocolError;
    /// let e = ProtocolError::RateLimited { retry_after_ms: 250 };
    /// assert_eq!(e.code(), -31429);
    /// assert_eq!(e.data().unwrap()["retryAfterMs"], 250);
    /// ```
    #[error("Rate limit exceeded: try again later")]
    RateLimited {
        /// How long the caller should wait, in milliseconds (rounded up).
        retry_after_ms: u64,
    },
    /// A shared store the request needed (a rate limit's counts, a task, a session) could not
    /// answer: `-32603`, and HTTP 503 with `Retry-After`. What the store said goes to the log.
    ///
    /// ```
    /// use beam_mcp::protocol::ProtocolError;
    /// let e = ProtocolError::StoreUnavailable;
    /// assert_eq!(e.code(), -32603);
    /// assert_eq!(e.to_string(), "The state store is unavailable: try again later");
    /// ```
    #[error("The state store is unavailable: try again later")]
    StoreUnavailable,
    /// A host rule ([`Middleware`](crate::middleware::Middleware)) refused the request, with
    /// its own code, message and data.
    #[error("{0}")]
    Refused(Box<Refusal>),
}

impl ProtocolError {
    /// The JSON-RPC error code at `revision` (`None`: a request without `params._meta`, served
    /// as 2025-11-25). Only "resource not found" differs: `-32002` before 2026-07-28.
    ///
    /// ```
    /// use beam_mcp::protocol::{ProtocolError, Revision};
    /// let e = ProtocolError::ResourceNotFound { uri: "a://b".into(), reason: None };
    /// assert_eq!(e.code_at(Some(Revision::V2026_07_28)), -32602);
    /// assert_eq!(e.code_at(None), -32002);
    /// ```
    pub fn code_at(&self, revision: Option<Revision>) -> i64 {
        match self {
            Self::ResourceNotFound { .. } if !revision.is_some_and(Revision::is_stateless) => {
                -32002
            }
            _ => self.code(),
        }
    }

    /// The JSON-RPC error code at 2026-07-28 (see [`code_at`](Self::code_at)).
    pub fn code(&self) -> i64 {
        match self {
            Self::Json(JsonError::Syntax) => -32700,
            Self::HeaderMismatch(_) => -32020,
            Self::MissingClientCapability(_) | Self::MissingExtension(_) => -32021,
            Self::TasksFull | Self::StoreUnavailable => -32603,
            // The spec defines no code: -32000..-32019 is legacy, -32020..-32099 the spec's,
            // so an application code outside -32768..-32000 (429 as in HTTP).
            Self::RateLimited { .. } => -31429,
            Self::Json(_)
            | Self::Batch
            | Self::NotAnObject(_)
            | Self::TooLarge
            | Self::InvalidRequest => -32600,
            Self::TopLevelMeta
            | Self::ParamsNotObject
            | Self::MetaNotObject
            | Self::MetaLacksVersion
            | Self::MetaLacksCapabilities
            | Self::ToolNameMissing
            | Self::UnknownTool(_)
            | Self::CursorMalformed
            | Self::CursorForeign(_)
            | Self::ResourceUriMissing
            | Self::ResourceNotFound { .. }
            | Self::PromptNameMissing
            | Self::UnknownPrompt(_)
            | Self::PromptArguments { .. }
            | Self::PromptNotRendered { .. }
            | Self::CompletionMalformed
            | Self::UnknownTemplate(_)
            | Self::UnknownSkill(_)
            | Self::NotADirectory(_)
            | Self::UnknownArgument { .. }
            | Self::MetaRequired
            | Self::LogLevel(_)
            | Self::ProgressToken
            | Self::RequestState(_)
            | Self::TaskIdMissing(_)
            | Self::UnknownTask(_)
            | Self::InputResponsesNotObject
            | Self::AnswersTooLarge
            | Self::Malformed(_) => -32602,
            Self::MethodNotFound(_) => -32601,
            Self::UnsupportedVersion { .. } => -32022,
            Self::Internal => -32603,
            Self::Refused(refusal) => i64::from(refusal.code),
        }
    }

    /// The `data` member of the error object, if this error carries one. Caller text (and a
    /// host's reason) is cut to [`CALLER_TEXT_BYTES`](crate::protocol::CALLER_TEXT_BYTES).
    pub fn data(&self) -> Option<Value> {
        let cut = caller_text;
        match self {
            Self::Json(JsonError::DuplicateKey(key)) => Some(json!({ "key": cut(key) })),
            Self::UnsupportedVersion {
                supported,
                requested,
            } => Some(json!({ "supported": supported, "requested": cut(requested) })),
            Self::MethodNotFound(method) => Some(json!({ "method": cut(method) })),
            Self::UnknownTool(name) | Self::UnknownPrompt(name) => {
                Some(json!({ "name": cut(name) }))
            }
            Self::ResourceNotFound { uri, reason } => Some(match reason {
                Some(reason) => json!({ "uri": cut(uri), "reason": cut(reason) }),
                None => json!({ "uri": cut(uri) }),
            }),
            Self::PromptArguments { name, reason } | Self::PromptNotRendered { name, reason } => {
                Some(json!({ "name": cut(name), "reason": cut(reason) }))
            }
            Self::UnknownTemplate(uri) | Self::UnknownSkill(uri) | Self::NotADirectory(uri) => {
                Some(json!({ "uri": cut(uri) }))
            }
            Self::UnknownArgument { item, argument } => {
                Some(json!({ "item": cut(item), "argument": cut(argument) }))
            }
            Self::LogLevel(level) => Some(json!({ "level": cut(level) })),
            Self::MissingExtension(name) => {
                let mut extensions = serde_json::Map::new();
                extensions.insert((*name).to_owned(), json!({}));
                Some(json!({ "requiredCapabilities": { "extensions": extensions } }))
            }
            Self::UnknownTask(id) => Some(json!({ "taskId": cut(id) })),
            Self::RateLimited { retry_after_ms } => Some(json!({ "retryAfterMs": retry_after_ms })),
            Self::Refused(refusal) => refusal.data.clone(),
            Self::MissingClientCapability(names) => {
                let required: serde_json::Map<String, Value> =
                    names.iter().map(|name| (name.clone(), json!({}))).collect();
                Some(json!({ "requiredCapabilities": required }))
            }
            _ => None,
        }
    }

    /// The JSON-RPC `error` object, as the given revision spells it.
    pub fn to_error_object(&self, revision: Option<Revision>) -> Value {
        let mut error = serde_json::Map::new();
        error.insert("code".into(), Value::from(self.code_at(revision)));
        error.insert("message".into(), Value::String(self.to_string()));
        if let Some(data) = self.data() {
            error.insert("data".into(), data);
        }
        Value::Object(error)
    }
}

/// A request refused by a host rule: a JSON-RPC error with the host's code and message, and
/// over HTTP the status the host chose (200 unless it says otherwise, as for every JSON-RPC
/// error the spec does not give a status: see `docs/wire.md`).
///
/// ```
/// use beam_mcp::middleware::Refusal;
/// use beam_mcp::protocol::ProtocolError;
///
/// let refusal = Refusal::new(-31403, "not on weekends").with_status(403);
/// let error = ProtocolError::from(refusal);
/// assert_eq!(error.code(), -31403);
/// assert_eq!(error.to_string(), "not on weekends");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub(crate) code: i32,
    pub(crate) message: String,
    pub(crate) data: Option<Value>,
    pub(crate) status: u16,
    pub(crate) challenge: Option<String>,
}

impl Refusal {
    /// A refusal with a JSON-RPC error code and a message for the caller. The spec asks
    /// application codes to lie outside `-32768..=-32000`; the core's own codes are there.
    pub fn new(code: i32, message: impl Into<String>) -> Self {
        let message = message.into();
        Refusal {
            code,
            message: caller_text(&message).to_owned(),
            data: None,
            status: 200,
            challenge: None,
        }
    }

    /// Invalid params (`-32602`): the request's params break a host rule.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(-32602, message)
    }

    /// The error's `data` member.
    #[must_use]
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }

    /// The HTTP status the refusal travels with (a value outside 200..=599 is taken as 200).
    #[must_use]
    pub fn with_status(mut self, status: u16) -> Self {
        self.status = if (200..=599).contains(&status) {
            status
        } else {
            200
        };
        self
    }

    /// The `WWW-Authenticate` challenge an HTTP answer carries (a 401 or 403 of an OAuth
    /// resource server, RFC 6750 §3), for example
    /// `Bearer error="insufficient_scope", scope="notes:write"`.
    #[must_use]
    pub fn with_challenge(mut self, challenge: impl Into<String>) -> Self {
        self.challenge = Some(challenge.into());
        self
    }

    /// The `WWW-Authenticate` challenge, if any.
    pub fn challenge(&self) -> Option<&str> {
        self.challenge.as_deref()
    }

    /// The JSON-RPC error code.
    pub fn code(&self) -> i32 {
        self.code
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The HTTP status.
    pub fn status(&self) -> u16 {
        self.status
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<Refusal> for ProtocolError {
    fn from(refusal: Refusal) -> Self {
        ProtocolError::Refused(Box::new(refusal))
    }
}

// Here rather than beside `Retry`: the protocol knows the rate limit, not the other way round.
impl From<crate::limit::Retry> for ProtocolError {
    fn from(retry: crate::limit::Retry) -> Self {
        ProtocolError::RateLimited {
            retry_after_ms: retry.after_ms(),
        }
    }
}

impl From<crate::store::StoreError> for ProtocolError {
    fn from(error: crate::store::StoreError) -> Self {
        // The store's own words (an address, a reason) are for the operator, not the caller.
        tracing::error!(detail = %crate::caller_text::Logged(error.detail()), "the state store could not answer");
        ProtocolError::StoreUnavailable
    }
}

impl From<crate::limit::Denied> for ProtocolError {
    fn from(denied: crate::limit::Denied) -> Self {
        match denied {
            crate::limit::Denied::Retry(retry) => retry.into(),
            crate::limit::Denied::Store(error) => error.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caller_text::CALLER_TEXT_BYTES;

    /// Every error built from caller text, given 1 MiB of it.
    fn with_caller_text(text: &str) -> Vec<ProtocolError> {
        let s = || text.to_owned();
        vec![
            ProtocolError::Json(JsonError::DuplicateKey(s())),
            ProtocolError::UnsupportedVersion {
                supported: vec!["2026-07-28"],
                requested: s(),
            },
            ProtocolError::MethodNotFound(s()),
            ProtocolError::UnknownTool(s()),
            ProtocolError::ResourceNotFound {
                uri: s(),
                reason: Some(s()),
            },
            ProtocolError::UnknownPrompt(s()),
            ProtocolError::PromptArguments {
                name: s(),
                reason: s(),
            },
            ProtocolError::PromptNotRendered {
                name: s(),
                reason: s(),
            },
            ProtocolError::UnknownTemplate(s()),
            ProtocolError::UnknownArgument {
                item: s(),
                argument: s(),
            },
            ProtocolError::LogLevel(s()),
            ProtocolError::UnknownTask(s()),
        ]
    }

    #[test]
    fn caller_text_is_sent_once_in_data_and_cut_to_256_bytes() {
        // A three-byte character straddles byte 256: the cut keeps 255 bytes.
        let text = "€".repeat(350_000);
        for error in with_caller_text(&text) {
            let object = error.to_error_object(None);
            let size = object.to_string().len();
            assert!(size < 2048, "{error:?}: {size} bytes");
            let message = object["message"].as_str().unwrap();
            assert!(!message.contains('€'), "{message}");
            let data = object["data"].as_object().unwrap();
            let carried: Vec<&str> = data
                .values()
                .filter_map(Value::as_str)
                .filter(|v| v.starts_with('€'))
                .collect();
            assert!(!carried.is_empty(), "{error:?} carries the text in data");
            for value in carried {
                assert_eq!(value, &text[..255], "{error:?}");
            }
        }
    }

    #[test]
    fn short_text_is_kept_whole() {
        assert_eq!(caller_text("a://b"), "a://b");
        let exact = "x".repeat(CALLER_TEXT_BYTES);
        assert_eq!(caller_text(&exact), exact);
        assert_eq!(caller_text(&format!("{exact}y")), exact);
    }
}
