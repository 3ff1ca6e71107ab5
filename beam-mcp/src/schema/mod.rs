//! JSON Schema 2020-12, as this server enforces it on tool arguments and prompt arguments.
//!
//! A host's schema is checked and compiled once by [`CompiledSchema::compile`];
//! every call's arguments are then checked by [`CompiledSchema::validate`].
//!
//! Enforced, at every depth: every assertion and applicator of 2020-12 — `type`, `enum`,
//! `const`, `multipleOf`, the numeric bounds, `minLength`/`maxLength`/`pattern`, `properties`,
//! `patternProperties`, `additionalProperties`, `propertyNames`, `required`,
//! `dependentRequired`, `dependentSchemas`, `min`/`maxProperties`, `prefixItems`, `items`,
//! `contains` with `min`/`maxContains`, `min`/`maxItems`, `uniqueItems`, `allOf`, `anyOf`,
//! `oneOf`, `not`, `if`/`then`/`else`, `unevaluatedProperties`, `unevaluatedItems` and
//! boolean schemas — with `$ref` resolved inside the document (`$defs`, JSON pointers,
//! `$anchor`, `$id`), recursion included. The official JSON-Schema-Test-Suite's required
//! files pass, bar the refusals below (`tests/json_schema_suite.rs`).
//!
//! The annotations `title`, `description`, `default`, `examples`, `format`, `readOnly`,
//! `writeOnly`, `deprecated`, `$comment`, `$vocabulary`, `$dynamicAnchor`, the `content*`
//! keywords and any `x-` key are allowed and not asserted: `format` is an annotation, as
//! 2020-12 makes it by default. Refused when compiling, by name: a `$ref` outside the
//! document (nothing is ever fetched), `$dynamicRef`, a `$schema` other than 2020-12's, and
//! every other keyword (older drafts' `definitions`, `dependencies`, `additionalItems` are
//! named with their 2020-12 form), because a server that advertised a rule it did not enforce
//! would mislead its clients.
//!
//! `integer` is a number whose value is whole (`1.0` is one, as 2020-12 says) within the
//! 64-bit range serde reads integers in; the server rewrites such numbers as integers before
//! host code deserializes them ([`whole_numbers_as_integers`]). Numbers compare by value in
//! `enum`, `const` and `uniqueItems` (`1` equals `1.0`), and `multipleOf` is exact on the
//! decimal digits written. Lengths count Unicode code points, and `pattern` (and each
//! `patternProperties` name) is an unanchored ECMA-262 search (with the `u` flag) run in
//! linear time by the `regex` crate: lookaround, backreferences and inline modifiers are
//! refused when compiling, and ECMA-262's meaning of `\d`, `\w`, `\b`, `\s` and `.` is kept
//! (see `pattern.rs`). Validation recurses at most 320 subschemas deep; a value nested past
//! that is refused with a message.

#![forbid(unsafe_code)]

mod check;
mod equal;
mod error;
mod failure;
mod flat;
mod keywords;
mod node;
mod number;
mod pattern;
mod unique;
mod uri;
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

use flat::Flat;
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
///     schema.validate(&json!({"city": "Oslo", "days": 3.5})).unwrap_err().message(),
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
    /// The quick verdict, when the root is a plain object of properties (most tools').
    flat: Option<Flat>,
}

impl CompiledSchema {
    /// Checks well-formedness, resolves every `$ref` and compiles patterns, once.
    ///
    /// Fails with a located message when the schema is neither an object nor a boolean,
    /// uses a keyword this server does not enforce, gives a keyword a value of the wrong
    /// kind, or has a `$ref` that leaves the document or leads nowhere.
    pub fn compile(schema: &Value) -> Result<CompiledSchema, SchemaError> {
        let nodes = check::compile(schema)?;
        Ok(CompiledSchema {
            inner: Arc::new(Compiled {
                schema: schema.clone(),
                flat: Flat::of(&nodes),
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
        let Compiled { nodes, flat, .. } = &*self.inner;
        if flat.as_ref().is_some_and(|flat| flat.passes(nodes, value)) {
            return Ok(());
        }
        validate::validate(nodes, value)
    }

    /// Whether an object of `len` members, each found by `get`, passes by the quick verdict
    /// [`validate`](Self::validate) takes first (an object kept otherwise than in a map: a
    /// call's arguments as read). `false` decides nothing: [`validate`](Self::validate) the
    /// object as a value, for the verdict and its message.
    pub(crate) fn passes_quickly<'v>(
        &self,
        len: usize,
        get: impl Fn(&str) -> Option<&'v Value>,
    ) -> bool {
        let Compiled { nodes, flat, .. } = &*self.inner;
        flat.as_ref()
            .is_some_and(|flat| flat.passes_object(nodes, len, get))
    }
}

/// Rewrites every number in `value` whose value is whole (`3.0`, `1e2`) as that integer, so
/// that what `type: "integer"` admits is what serde reads into an integer type: a language model
/// that writes `3.0` for a count gets its call run, not refused by the deserializer. Numbers
/// past the 64-bit range, and every other value, are left as they are.
///
/// ```
/// use serde_json::json;
///
/// let mut arguments = json!({"count": 3.0, "ratio": 0.5, "list": [1e2, -0.0]});
/// beam_mcp::schema::whole_numbers_as_integers(&mut arguments);
/// assert_eq!(arguments, json!({"count": 3, "ratio": 0.5, "list": [100, 0]}));
/// assert!(arguments["count"].is_u64());
/// ```
pub fn whole_numbers_as_integers(value: &mut Value) {
    whole_within(value, 0);
}

/// Recursion to the reader's depth bound (no work list to allocate for arguments as they come);
/// deeper (a value a host built), a work list.
fn whole_within(value: &mut Value, depth: usize) {
    match value {
        Value::Number(number) => whole_number(number),
        Value::Array(items) if depth < crate::json::MAX_DEPTH => {
            items
                .iter_mut()
                .for_each(|item| whole_within(item, depth + 1));
        }
        Value::Object(map) if depth < crate::json::MAX_DEPTH => {
            map.values_mut()
                .for_each(|item| whole_within(item, depth + 1));
        }
        Value::Array(_) | Value::Object(_) => whole_everywhere(value),
        _ => {}
    }
}

fn whole_everywhere(value: &mut Value) {
    let mut work = vec![value];
    while let Some(value) = work.pop() {
        match value {
            Value::Number(number) => whole_number(number),
            Value::Array(items) => work.extend(items.iter_mut()),
            Value::Object(map) => work.extend(map.values_mut()),
            _ => {}
        }
    }
}

/// A float whose value is whole, within the 64-bit range, as that integer.
fn whole_number(number: &mut serde_json::Number) {
    if let Some(whole) = number.as_f64().filter(|_| number.is_f64())
        && let Some(integer) = node::whole_in_range(whole)
    {
        *number = integer;
    }
}

impl fmt::Debug for CompiledSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CompiledSchema")
            .field("schema", &self.inner.schema)
            .finish_non_exhaustive()
    }
}
