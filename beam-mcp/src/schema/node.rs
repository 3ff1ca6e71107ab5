//! The compiled form of a schema: a flat arena of nodes linked by index.
//!
//! An arena rather than boxed children keeps compiling, dropping and cloning
//! free of recursion however deeply a host nests its schema.

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

    /// Whether `value` is of this type. `integer` accepts only numbers written
    /// without fraction or exponent, so `1.0` and `1e2` are not integers.
    pub(crate) fn admits(self, value: &Value) -> bool {
        match (self, value) {
            (Self::String, Value::String(_))
            | (Self::Number, Value::Number(_))
            | (Self::Boolean, Value::Bool(_))
            | (Self::Object, Value::Object(_))
            | (Self::Array, Value::Array(_))
            | (Self::Null, Value::Null) => true,
            (Self::Integer, Value::Number(n)) => n.is_i64() || n.is_u64(),
            _ => false,
        }
    }
}

/// What `additionalProperties` allows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Additional {
    /// Absent or `true`.
    #[default]
    Allow,
    /// `false`.
    Deny,
    /// A schema every undeclared property must satisfy.
    Schema(NodeId),
}

/// Keywords that apply only to objects.
#[derive(Debug, Default)]
pub(crate) struct ObjectRules {
    /// Declared properties in the schema's order.
    pub(crate) properties: Vec<(String, NodeId)>,
    /// The same names, for quick "is this declared?" look-ups.
    pub(crate) declared: BTreeSet<String>,
    /// Required names in the schema's order, without repeats.
    pub(crate) required: Vec<String>,
    pub(crate) additional: Additional,
    pub(crate) min_properties: Option<u64>,
    pub(crate) max_properties: Option<u64>,
}

/// Keywords that apply only to arrays.
#[derive(Debug, Default)]
pub(crate) struct ArrayRules {
    pub(crate) items: Option<NodeId>,
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
}

/// One compiled schema object.
#[derive(Debug, Default)]
pub(crate) struct Node {
    /// `None` when `type` is absent, which admits every value.
    pub(crate) types: Option<Vec<JsonType>>,
    pub(crate) enumeration: Option<Vec<Value>>,
    pub(crate) constant: Option<Value>,
    pub(crate) object: ObjectRules,
    pub(crate) array: ArrayRules,
    pub(crate) string: StringRules,
    pub(crate) number: NumberRules,
}
