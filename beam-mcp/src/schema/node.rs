//! The compiled form of a schema: a flat arena of nodes linked by index.
//!
//! An arena rather than boxed children lets `$ref` point anywhere in the document, itself
//! included (a recursive type), and keeps compiling, dropping and cloning free of recursion
//! however deeply a host nests its schema.

use std::collections::BTreeSet;

use serde_json::{Number, Value};

/// Index of a node in the arena; the root is always [`ROOT`].
pub(crate) type NodeId = usize;

/// Where the root schema lives in the arena.
pub(crate) const ROOT: NodeId = 0;

/// One of the seven type names `type` may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum JsonType {
    String,
    Integer,
    Number,
    Boolean,
    Object,
    Array,
    Null,
}

impl JsonType {
    /// Every name, in the order messages list them.
    pub(crate) const ALL: [JsonType; 7] = [
        Self::String,
        Self::Integer,
        Self::Number,
        Self::Boolean,
        Self::Object,
        Self::Array,
        Self::Null,
    ];

    /// The type named `name`, if it is one of the seven.
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// The name as written in schemas and messages.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::String => "string",
            Self::Integer => "integer",
            Self::Number => "number",
            Self::Boolean => "boolean",
            Self::Object => "object",
            Self::Array => "array",
            Self::Null => "null",
        }
    }

    /// Whether `value` is of this type. `integer` is a number whose value is whole, as 2020-12
    /// says (`1.0` and `1e2` are integers), within the 64-bit range serde reads integers in:
    /// the server reads such a number as the integer before any host code sees it (see
    /// [`whole_numbers_as_integers`](super::whole_numbers_as_integers)).
    pub(crate) fn admits(self, value: &Value) -> bool {
        match (self, value) {
            (Self::String, Value::String(_))
            | (Self::Number, Value::Number(_))
            | (Self::Boolean, Value::Bool(_))
            | (Self::Object, Value::Object(_))
            | (Self::Array, Value::Array(_))
            | (Self::Null, Value::Null) => true,
            (Self::Integer, Value::Number(n)) => {
                n.is_i64() || n.is_u64() || n.as_f64().and_then(whole_in_range).is_some()
            }
            _ => false,
        }
    }
}

/// The whole number `f` is, when it is one serde reads as an `i64` or a `u64`.
pub(crate) fn whole_in_range(f: f64) -> Option<Number> {
    /// 2^63 and 2^64: every whole `f64` in [-2^63, 2^64) converts exactly.
    const I64_LOW: f64 = -9_223_372_036_854_775_808.0;
    const U64_END: f64 = 18_446_744_073_709_551_616.0;
    if f.fract() != 0.0 || !(I64_LOW..U64_END).contains(&f) {
        return None;
    }
    // Exact: whole and within range, checked above.
    Some(if f < 0.0 {
        Number::from(f as i64)
    } else {
        Number::from(f as u64)
    })
}

/// What `additionalProperties` (or `unevaluatedProperties`) allows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Additional {
    /// Absent or `true`.
    #[default]
    Allow,
    /// `false`: named in the message as unknown properties.
    Deny,
    /// A schema every such property must satisfy.
    Schema(NodeId),
}

/// Keywords that apply only to objects.
#[derive(Debug, Default)]
pub(crate) struct ObjectRules {
    /// Declared properties in the schema's order.
    pub(crate) properties: Vec<(String, NodeId)>,
    /// The same names, for quick "is this declared?" look-ups.
    pub(crate) declared: BTreeSet<String>,
    /// `patternProperties`, each pattern compiled once (see `pattern.rs`).
    pub(crate) patterns: Vec<(regex::Regex, NodeId)>,
    pub(crate) additional: Additional,
    pub(crate) unevaluated: Additional,
    pub(crate) property_names: Option<NodeId>,
    /// Required names in the schema's order, without repeats.
    pub(crate) required: Vec<String>,
    /// `dependentRequired`: when the first is present, the rest must be.
    pub(crate) dependent_required: Vec<(String, Vec<String>)>,
    /// `dependentSchemas`: when the name is present, the object must match the schema.
    pub(crate) dependent_schemas: Vec<(String, NodeId)>,
    pub(crate) min_properties: Option<u64>,
    pub(crate) max_properties: Option<u64>,
}

/// What `items` (or `unevaluatedItems`) allows past what came before it.
pub(crate) type Rest = Additional;

/// Keywords that apply only to arrays.
#[derive(Debug, Default)]
pub(crate) struct ArrayRules {
    pub(crate) prefix: Vec<NodeId>,
    pub(crate) items: Rest,
    pub(crate) unevaluated: Rest,
    pub(crate) contains: Option<NodeId>,
    pub(crate) min_contains: Option<u64>,
    pub(crate) max_contains: Option<u64>,
    pub(crate) min_items: Option<u64>,
    pub(crate) max_items: Option<u64>,
    pub(crate) unique_items: bool,
}

/// Keywords that apply only to strings.
#[derive(Debug, Default)]
pub(crate) struct StringRules {
    pub(crate) min_length: Option<u64>,
    pub(crate) max_length: Option<u64>,
    /// Compiled once here (see `pattern.rs`); validation only searches, in linear time.
    pub(crate) pattern: Option<regex::Regex>,
}

/// Keywords that apply only to numbers.
#[derive(Debug, Default)]
pub(crate) struct NumberRules {
    pub(crate) minimum: Option<Number>,
    pub(crate) maximum: Option<Number>,
    pub(crate) exclusive_minimum: Option<Number>,
    pub(crate) exclusive_maximum: Option<Number>,
    /// Above zero (checked when compiling).
    pub(crate) multiple_of: Option<Number>,
}

/// Keywords that apply subschemas to the value itself.
#[derive(Debug, Default)]
pub(crate) struct InPlace {
    pub(crate) reference: Option<NodeId>,
    pub(crate) all_of: Vec<NodeId>,
    pub(crate) any_of: Vec<NodeId>,
    pub(crate) one_of: Vec<NodeId>,
    pub(crate) not: Option<NodeId>,
    /// `if`, with `then` and `else` (either may be absent).
    pub(crate) condition: Option<(NodeId, Option<NodeId>, Option<NodeId>)>,
}

impl InPlace {
    fn is_empty(&self) -> bool {
        self.reference.is_none()
            && self.all_of.is_empty()
            && self.any_of.is_empty()
            && self.one_of.is_empty()
            && self.not.is_none()
            && self.condition.is_none()
    }
}

/// One compiled schema.
#[derive(Debug, Default)]
pub(crate) struct Node {
    /// `Some` for a boolean schema (`true` admits every value, `false` none); the rules below
    /// are then empty.
    pub(crate) always: Option<bool>,
    /// `None` when `type` is absent, which admits every value.
    pub(crate) types: Option<Vec<JsonType>>,
    pub(crate) enumeration: Option<Vec<Value>>,
    pub(crate) constant: Option<Value>,
    pub(crate) object: ObjectRules,
    pub(crate) array: ArrayRules,
    pub(crate) string: StringRules,
    pub(crate) number: NumberRules,
    pub(crate) in_place: InPlace,
    /// True when `unevaluatedProperties` or `unevaluatedItems` is here: what the other
    /// keywords evaluated must then be gathered.
    pub(crate) gathers: bool,
    /// True when a `$ref` names this node: the one way a node is reached along several paths
    /// (a recursive type's variants), so the one kind of node whose results are remembered.
    pub(crate) shared: bool,
}

impl Node {
    /// True when a keyword applies a subschema to the value itself.
    pub(crate) fn has_in_place(&self) -> bool {
        !self.in_place.is_empty() || !self.object.dependent_schemas.is_empty()
    }

    /// The types this node admits, when `type` is all it asserts (a plain `{"type": "string"}`,
    /// whatever annotations it carries): a value passes it exactly when one of them admits it.
    pub(crate) fn only_types(&self) -> Option<&[JsonType]> {
        let object = &self.object;
        let array = &self.array;
        let nothing_else = self.always.is_none()
            && self.enumeration.is_none()
            && self.constant.is_none()
            && !self.gathers
            && !self.has_in_place()
            && object.properties.is_empty()
            && object.patterns.is_empty()
            && object.additional == Additional::Allow
            && object.unevaluated == Additional::Allow
            && object.property_names.is_none()
            && object.required.is_empty()
            && object.dependent_required.is_empty()
            && object.min_properties.is_none()
            && object.max_properties.is_none()
            && array.prefix.is_empty()
            && array.items == Additional::Allow
            && array.unevaluated == Additional::Allow
            && array.contains.is_none()
            && array.min_contains.is_none()
            && array.max_contains.is_none()
            && array.min_items.is_none()
            && array.max_items.is_none()
            && !array.unique_items
            && self.string.min_length.is_none()
            && self.string.max_length.is_none()
            && self.string.pattern.is_none()
            && self.number.minimum.is_none()
            && self.number.maximum.is_none()
            && self.number.exclusive_minimum.is_none()
            && self.number.exclusive_maximum.is_none()
            && self.number.multiple_of.is_none();
        if nothing_else {
            self.types.as_deref()
        } else {
            None
        }
    }
}
