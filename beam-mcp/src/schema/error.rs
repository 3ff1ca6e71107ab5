//! The two error types of the schema module: one for hosts, one for callers.

/// A schema that is malformed, uses a keyword this server does not enforce, or has a
/// reference it will not follow (outside the document, or `$dynamicRef`).
///
/// The message starts with the location of the problem, such as
/// `the schema, property opts: minLength must be a non-negative integer`.
///
/// ```
/// use beam_mcp::schema::CompiledSchema;
/// use serde_json::json;
///
/// let err = CompiledSchema::compile(&json!({"definitions": {}})).unwrap_err();
/// assert_eq!(
///     err.message(),
///     "the schema uses definitions, which this server does not enforce; 2020-12 names it $defs"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SchemaError {
    message: String,
}

impl SchemaError {
    /// Wraps a finished message.
    pub(crate) fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }

    /// The human-readable description, including its location.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// A value that does not satisfy a compiled schema.
///
/// The message names the offending value by its path, such as
/// `opts.mode must be one of: fast, slow`, or `arguments` for the root.
///
/// ```
/// use beam_mcp::schema::CompiledSchema;
/// use serde_json::json;
///
/// let schema = CompiledSchema::compile(&json!({
///     "type": "object",
///     "properties": {"tags": {"type": "array", "items": {"type": "string"}}}
/// }))?;
/// let err = schema.validate(&json!({"tags": ["a", 2]})).unwrap_err();
/// assert_eq!(err.message(), "tags[1] must be of type string");
/// # Ok::<(), beam_mcp::schema::SchemaError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ValidationError {
    message: String,
}

impl ValidationError {
    /// Wraps a finished message.
    pub(crate) fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }

    /// The human-readable description, naming the offending value.
    pub fn message(&self) -> &str {
        &self.message
    }
}
