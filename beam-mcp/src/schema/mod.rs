//! The JSON Schema subset this server enforces on tool arguments.
//!
//! A host's schema is checked and compiled once by [`CompiledSchema::compile`];
//! every call's arguments are then checked by [`CompiledSchema::validate`].
//!
//! Enforced, at every depth (through `properties`, `additionalProperties` when
//! it is a schema, and `items`): `type`, `enum`, `const`, `properties`,
//! `required`, `additionalProperties`, `minProperties`, `maxProperties`,
//! `items` (one schema), `minItems`, `maxItems`, `uniqueItems`, `minLength`,
//! `maxLength`, `pattern`, `minimum`, `maximum`, `exclusiveMinimum` and
//! `exclusiveMaximum` (numbers). The annotations `title`, `description`,
//! `default`, `examples`, `format`, `readOnly`, `writeOnly`, `deprecated`,
//! `$schema`, `$id`, `$comment` and any `x-` key are allowed and ignored.
//! Every other keyword is refused when compiling, because a server that
//! advertised a rule it did not enforce would mislead its clients.
//!
//! Validation is deliberately stricter than JSON Schema in one place:
//! `integer` means a number written without fraction or exponent, so `1.0`
//! is not an integer. Numbers still compare by value in `enum`, `const` and
//! `uniqueItems` (`1` equals `1.0`). Lengths count Unicode code points, and
//! `pattern` is an unanchored ECMA-262 search (with the `u` flag) run in
//! linear time by the `regex` crate: lookaround, backreferences and inline
//! modifiers are refused when compiling, and ECMA-262's meaning of `\d`, `\w`, `\b`, `\s`
//! and `.` is kept (see `pattern.rs`).

#![forbid(unsafe_code)]

mod check;
mod equal;
mod error;
mod failure;
mod keywords;
mod node;
mod number;
mod pattern;
mod unique;
mod validate;

#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

// Offered to the rest of the crate as `crate::schema::json_equal`.
#[allow(unused_imports, reason = "for callers elsewhere in the crate")]
pub(crate) use equal::json_equal;
pub use error::{SchemaError, ValidationError};

use node::Node;

/// A checked, compiled schema: validates values and remembers the schema as
/// given, for advertising. Cloning is cheap (the compiled form is shared).
///
/// ```
/// use beam_mcp::schema::CompiledSchema;
/// use serde_json::json;
///
/// let schema = CompiledSchema::compile(&json!({
///     "type": "object",
///     "properties": {
///         "city": {"type": "string", "minLength": 1},
///         "days": {"type": "integer", "minimum": 1, "maximum": 7}
///     },
///     "required": ["city"],
///     "additionalProperties": false
/// }))?;
///
/// assert!(schema.validate(&json!({"city": "Oslo", "days": 3})).is_ok());
/// assert_eq!(
///     schema.validate(&json!({"days": 3})).unwrap_err().message(),
///     "missing required property: city"
/// );
/// assert_eq!(
///     schema.validate(&json!({"city": "Oslo", "days": 3.0})).unwrap_err().message(),
///     "days must be of type integer"
/// );
/// assert_eq!(schema.as_value()["required"], json!(["city"]));
/// # Ok::<(), beam_mcp::schema::SchemaError>(())
/// ```
#[derive(Clone)]
pub struct CompiledSchema {
    inner: Arc<Compiled>,
}

/// What a [`CompiledSchema`] shares between its clones.
struct Compiled {
    schema: Value,
    nodes: Vec<Node>,
}

impl CompiledSchema {
    /// Checks well-formedness and compiles patterns once.
    ///
    /// Fails with a located message when the schema is not a JSON object,
    /// uses a keyword outside the enforced subset and its annotations, or
    /// gives a keyword a value of the wrong kind.
    pub fn compile(schema: &Value) -> Result<CompiledSchema, SchemaError> {
        let nodes = check::compile(schema)?;
        Ok(CompiledSchema {
            inner: Arc::new(Compiled {
                schema: schema.clone(),
                nodes,
            }),
        })
    }

    /// The schema as given (what is advertised).
    pub fn as_value(&self) -> &Value {
        &self.inner.schema
    }

    /// Validates a value; the first failure in evaluation order.
    ///
    /// The value is only borrowed, and nothing about it is kept after the
    /// call returns.
    pub fn validate(&self, value: &Value) -> Result<(), ValidationError> {
        validate::validate(&self.inner.nodes, value)
    }
}

impl fmt::Debug for CompiledSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CompiledSchema")
            .field("schema", &self.inner.schema)
            .finish_non_exhaustive()
    }
}
