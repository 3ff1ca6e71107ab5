//! Why a value failed, and how that reads once the value's path is known.
//!
//! Checks return a [`Failure`] without formatting anything; the message and
//! its label are built only for the one failure that is reported.

use std::fmt::Write as _;

use serde_json::{Number, Value};

use super::node::JsonType;

/// One step from the arguments down to a nested value.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Step<'a> {
    /// A property of an object.
    Key(&'a str),
    /// An element of an array.
    Index(usize),
}

/// What the counted keywords count, for singular and plural wording.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Counted {
    Properties,
    Items,
    Characters,
}

impl Counted {
    fn noun(self, count: u64) -> &'static str {
        match (self, count == 1) {
            (Self::Properties, true) => "property",
            (Self::Properties, false) => "properties",
            (Self::Items, true) => "item",
            (Self::Items, false) => "items",
            (Self::Characters, true) => "character",
            (Self::Characters, false) => "characters",
        }
    }
}

/// The first rule a value broke, borrowing what the message needs.
#[derive(Debug)]
pub(crate) enum Failure<'a> {
    Type(&'a [JsonType]),
    Enum(&'a [Value]),
    Const(&'a Value),
    Missing(Vec<&'a str>),
    Unknown(Vec<&'a str>),
    AtLeast(u64, Counted),
    AtMost(u64, Counted),
    RepeatedItems,
    Pattern,
    /// A numeric bound: the comparison that had to hold, and its limit.
    Bound(&'static str, &'a Number),
}

impl Failure<'_> {
    /// The caller-facing message for a failure at `path` (empty at the root).
    pub(crate) fn message(&self, path: &[Step<'_>]) -> String {
        let label = label(path);
        let at_root = path.is_empty();
        // Property-list messages read best without a label at the root.
        let prefix = if at_root {
            String::new()
        } else {
            format!("{label}: ")
        };
        match self {
            Self::Type([JsonType::Object]) if at_root => "arguments must be an object".to_owned(),
            Self::Type(kinds) => {
                let names: Vec<&str> = kinds.iter().map(|kind| kind.name()).collect();
                format!("{label} must be of type {}", names.join(" or "))
            }
            Self::Enum([]) => format!("{label} matches no allowed value (the enum is empty)"),
            Self::Enum(options) => {
                let shown: Vec<String> = options.iter().map(show).collect();
                format!("{label} must be one of: {}", shown.join(", "))
            }
            Self::Const(constant) => format!("{label} must be {}", show(constant)),
            Self::Missing(names) => format!(
                "{prefix}missing required {}: {}",
                if names.len() == 1 {
                    "property"
                } else {
                    "properties"
                },
                names.join(", ")
            ),
            Self::Unknown(names) => format!(
                "{prefix}unknown {}: {}",
                if names.len() == 1 {
                    "property"
                } else {
                    "properties"
                },
                names.join(", ")
            ),
            Self::AtLeast(limit, counted) => {
                format!(
                    "{label} must have at least {limit} {}",
                    counted.noun(*limit)
                )
            }
            Self::AtMost(limit, counted) => {
                format!("{label} must have at most {limit} {}", counted.noun(*limit))
            }
            Self::RepeatedItems => format!("{label} must not repeat items"),
            Self::Pattern => format!("{label} does not match the required pattern"),
            Self::Bound(comparison, limit) => format!("{label} must be {comparison} {limit}"),
        }
    }
}

/// `opts.tags[0].x` style; `arguments` for the root itself.
fn label(path: &[Step<'_>]) -> String {
    let mut label = String::new();
    for (position, step) in path.iter().enumerate() {
        match step {
            Step::Key(key) => {
                if position > 0 {
                    label.push('.');
                }
                label.push_str(key);
            }
            Step::Index(index) => {
                if position == 0 {
                    label.push_str("arguments");
                }
                // Writing to a String cannot fail.
                let _ = write!(label, "[{index}]");
            }
        }
    }
    if path.is_empty() {
        label.push_str("arguments");
    }
    label
}

/// Strings bare, everything else as compact JSON.
fn show(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn labels_join_keys_with_dots_and_indexes_with_brackets() {
        assert_eq!(label(&[]), "arguments");
        assert_eq!(label(&[Step::Key("opts"), Step::Key("mode")]), "opts.mode");
        assert_eq!(label(&[Step::Key("tags"), Step::Index(1)]), "tags[1]");
        assert_eq!(
            label(&[
                Step::Key("opts"),
                Step::Key("tags"),
                Step::Index(0),
                Step::Key("x")
            ]),
            "opts.tags[0].x"
        );
        assert_eq!(label(&[Step::Index(2)]), "arguments[2]");
        assert_eq!(label(&[Step::Key(""), Step::Key("a")]), ".a");
    }

    #[test]
    fn values_show_strings_bare_and_the_rest_as_json() {
        assert_eq!(show(&json!("a")), "a");
        assert_eq!(show(&json!(1)), "1");
        assert_eq!(show(&json!({"k": 1})), "{\"k\":1}");
        assert_eq!(show(&json!(null)), "null");
        assert_eq!(show(&json!(["a", 1.5])), "[\"a\",1.5]");
    }

    #[test]
    fn counts_are_singular_only_for_one() {
        assert_eq!(Counted::Properties.noun(1), "property");
        assert_eq!(Counted::Items.noun(0), "items");
        assert_eq!(Counted::Characters.noun(2), "characters");
    }
}
