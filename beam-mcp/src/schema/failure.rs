//! Why a value failed, and how that reads once the value's path is known.
//!
//! Checks return a [`Failure`] without formatting anything; the message and
//! its label are built only for the one failure that is reported.

use std::fmt::Write as _;

use serde_json::{Number, Value};

use super::node::JsonType;
use crate::caller_text::{CALLER_TEXT_BYTES, caller_text};

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
    MultipleOf(&'a Number),
    /// The `false` schema.
    False,
    /// Nested past the bound on evaluations.
    TooDeep(usize),
    /// `anyOf` or `oneOf` matched by no alternative; the closest one's failure.
    NoneMatched(&'static str, Option<String>),
    /// `oneOf` matched by two alternatives (their indexes).
    ManyMatched(usize, usize),
    Not,
    /// Fewer items than `minContains` (or 1) match `contains`.
    ContainsFewer(u64),
    /// More items than `maxContains` match `contains`.
    ContainsMore(u64),
    /// `dependentRequired`: a present name, and the names it needs that are missing.
    Dependent(&'a str, Vec<&'a str>),
    /// A property name `propertyNames` refuses.
    PropertyName(&'a str),
    /// An item no keyword evaluated, under `unevaluatedItems: false` (its index).
    Unevaluated(usize),
}

impl Failure<'_> {
    /// The caller-facing message for a failure at `path` (empty at the root). What the caller
    /// sent (its keys, in the label and the list of unknown properties) is echoed cut: the
    /// label and each name to [`CALLER_TEXT_BYTES`], and the names to as many as fit in that
    /// many bytes, with how many more there were. 900 KB of unknown keys get a line back.
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
                bounded_list(names)
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
            Self::MultipleOf(divisor) => format!("{label} must be a multiple of {divisor}"),
            Self::False => format!("{label} is not allowed"),
            Self::TooDeep(levels) => {
                format!("{label} nests deeper than the {levels} levels this server validates")
            }
            Self::NoneMatched(keyword, None) => {
                format!("{label} matches none of the {keyword} alternatives")
            }
            Self::NoneMatched(keyword, Some(closest)) => format!(
                "{label} matches none of the {keyword} alternatives; the closest fails with: {closest}"
            ),
            Self::ManyMatched(first, second) => format!(
                "{label} matches more than one of the oneOf alternatives ({first} and {second}); it must match exactly one"
            ),
            Self::Not => format!("{label} must not match the schema under not"),
            Self::ContainsFewer(least) => format!(
                "{label} must contain at least {least} {} matching contains",
                Counted::Items.noun(*least)
            ),
            Self::ContainsMore(most) => format!(
                "{label} must contain at most {most} {} matching contains",
                Counted::Items.noun(*most)
            ),
            Self::Dependent(name, missing) => format!(
                "{prefix}{} requires {}: {}",
                caller_text(name),
                if missing.len() == 1 {
                    "property"
                } else {
                    "properties"
                },
                bounded_list(missing)
            ),
            Self::PropertyName(name) => format!(
                "{prefix}property name {} is not allowed by propertyNames",
                caller_text(name)
            ),
            Self::Unevaluated(index) => format!(
                "{label} allows no item at index {index}: no keyword of the schema admits it"
            ),
        }
    }
}

/// Caller names joined with commas, as many as fit in [`CALLER_TEXT_BYTES`] (the first always,
/// cut to that), then how many more there were.
fn bounded_list(names: &[&str]) -> String {
    let mut list = String::new();
    let mut shown = 0;
    for name in names {
        let name = caller_text(name);
        if shown > 0 && list.len() + 2 + name.len() > CALLER_TEXT_BYTES {
            break;
        }
        if shown > 0 {
            list.push_str(", ");
        }
        list.push_str(name);
        shown += 1;
    }
    if shown < names.len() {
        let _ = write!(list, " and {} more", names.len() - shown);
    }
    list
}

/// The longest label echoed whole; a longer one keeps its two ends, the middle elided.
const LABEL_BYTES: usize = 4 * CALLER_TEXT_BYTES;

/// `opts.tags[0].x` style; `arguments` for the root itself. Each key is cut to
/// [`CALLER_TEXT_BYTES`] (a key can be the caller's, under `additionalProperties`), and a label
/// past [`LABEL_BYTES`] keeps its first and last halves of that, with `…` between.
fn label(path: &[Step<'_>]) -> String {
    let mut label = String::new();
    for (position, step) in path.iter().enumerate() {
        match step {
            Step::Key(key) => {
                if position > 0 {
                    label.push('.');
                }
                label.push_str(caller_text(key));
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
    if label.len() > LABEL_BYTES {
        let mut head = LABEL_BYTES / 2;
        while !label.is_char_boundary(head) {
            head -= 1;
        }
        let mut tail = label.len() - LABEL_BYTES / 2;
        while !label.is_char_boundary(tail) {
            tail += 1;
        }
        label = format!("{}…{}", &label[..head], &label[tail..]);
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
    fn unknown_names_are_echoed_cut_and_counted() {
        let many: Vec<String> = (0..100_000).map(|i| format!("key{i:06}")).collect();
        let names: Vec<&str> = many.iter().map(String::as_str).collect();
        let message = Failure::Unknown(names).message(&[]);
        assert!(message.len() < 2 * CALLER_TEXT_BYTES, "{}", message.len());
        assert!(message.starts_with("unknown properties: key000000, key000001, "));
        assert!(message.ends_with(" more"), "{message}");
        let shown = message.matches("key").count();
        assert!(message.contains(&format!(" and {} more", 100_000 - shown)));
        // One name past the bound is cut, on a character boundary.
        let long = "é".repeat(CALLER_TEXT_BYTES);
        let message = Failure::Unknown(vec![long.as_str(), "b"]).message(&[]);
        assert!(
            message.contains(&"é".repeat(CALLER_TEXT_BYTES / 2)),
            "{message}"
        );
        assert!(message.ends_with(" and 1 more"), "{message}");
        // A few short names are all shown.
        let message = Failure::Unknown(vec!["a", "b"]).message(&[Step::Key("opts")]);
        assert_eq!(message, "opts: unknown properties: a, b");
        // A caller key in the label is cut too, and a label past four times that keeps its
        // ends.
        let key = "k".repeat(10_000);
        let message = Failure::Pattern.message(&[Step::Key(&key)]);
        assert_eq!(
            message,
            format!(
                "{} does not match the required pattern",
                "k".repeat(CALLER_TEXT_BYTES)
            )
        );
        let keys: Vec<String> = (0..100).map(|i| format!("{i:0>200}")).collect();
        let path: Vec<Step<'_>> = keys.iter().map(|k| Step::Key(k)).collect();
        let message = Failure::Pattern.message(&path);
        let half = LABEL_BYTES / 2;
        let whole = keys.join(".");
        assert_eq!(
            message,
            format!(
                "{}…{} does not match the required pattern",
                &whole[..half],
                &whole[whole.len() - half..]
            )
        );
    }

    #[test]
    fn counts_are_singular_only_for_one() {
        assert_eq!(Counted::Properties.noun(1), "property");
        assert_eq!(Counted::Items.noun(0), "items");
        assert_eq!(Counted::Characters.noun(2), "characters");
    }
}
