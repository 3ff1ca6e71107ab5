//! Validating a value against a compiled schema.
//!
//! Per value the order is type → enum → const → shape, and the first failure
//! wins. Nested values are visited depth-first from an explicit task list, so
//! the order is exactly that of a recursive walk while the call stack stays
//! flat. The value is only borrowed: keys appear in the path by reference and
//! nothing about the caller's value outlives the call.

use std::cmp::Ordering;

use serde_json::{Map, Number, Value};

use super::equal::json_equal;
use super::error::ValidationError;
use super::failure::{Counted, Failure, Step};
use super::node::{Additional, ArrayRules, Node, NumberRules, ObjectRules, ROOT, StringRules};
use super::{number, unique};

/// Work still to do in the depth-first walk.
enum Task<'a> {
    /// Check `value` against `node`, reached through `step` (none for the root).
    Visit {
        node: &'a Node,
        value: &'a Value,
        step: Option<Step<'a>>,
    },
    /// All of a value's children are done: drop its step from the path.
    Leave,
}

/// Validates `value` against the schema whose root is `nodes[ROOT]`.
pub(crate) fn validate<'a>(nodes: &'a [Node], value: &'a Value) -> Result<(), ValidationError> {
    let Some(root) = nodes.get(ROOT) else {
        return Ok(());
    };
    let mut tasks = vec![Task::Visit {
        node: root,
        value,
        step: None,
    }];
    let mut path: Vec<Step<'a>> = Vec::new();
    while let Some(task) = tasks.pop() {
        let Task::Visit { node, value, step } = task else {
            path.pop();
            continue;
        };
        if let Some(step) = step {
            path.push(step);
        }
        check(node, value).map_err(|failure| ValidationError::new(failure.message(&path)))?;
        let leave = tasks.len();
        tasks.push(Task::Leave);
        queue_children(nodes, node, value, &mut tasks);
        match tasks.get_mut(leave + 1..) {
            // Reversed so the first child is popped first.
            Some(children) if !children.is_empty() => children.reverse(),
            // No children: this value is done, so undo its Leave and its step.
            _ => {
                tasks.pop();
                path.pop();
            }
        }
    }
    Ok(())
}

/// The checks on `value` itself, before any of its children.
fn check<'a>(node: &'a Node, value: &'a Value) -> Result<(), Failure<'a>> {
    if let Some(kinds) = &node.types
        && !kinds.iter().any(|kind| kind.admits(value))
    {
        return Err(Failure::Type(kinds));
    }
    if let Some(options) = &node.enumeration
        && !options.iter().any(|option| json_equal(option, value))
    {
        return Err(Failure::Enum(options));
    }
    if let Some(constant) = &node.constant
        && !json_equal(constant, value)
    {
        return Err(Failure::Const(constant));
    }
    match value {
        Value::Object(map) => check_object(&node.object, map),
        Value::Array(items) => check_array(&node.array, items),
        Value::String(text) => check_string(&node.string, text),
        Value::Number(number) => check_number(&node.number, number),
        Value::Null | Value::Bool(_) => Ok(()),
    }
}

fn check_object<'a>(
    rules: &'a ObjectRules,
    map: &'a Map<String, Value>,
) -> Result<(), Failure<'a>> {
    let missing: Vec<&str> = rules
        .required
        .iter()
        .map(String::as_str)
        .filter(|name| !map.contains_key(*name))
        .collect();
    if !missing.is_empty() {
        return Err(Failure::Missing(missing));
    }
    if rules.additional == Additional::Deny {
        let mut unknown: Vec<&str> = map
            .keys()
            .map(String::as_str)
            .filter(|key| !rules.declared.contains(*key))
            .collect();
        if !unknown.is_empty() {
            // Already sorted unless serde_json keeps insertion order.
            unknown.sort_unstable();
            return Err(Failure::Unknown(unknown));
        }
    }
    check_count(
        count(map.len()),
        rules.min_properties,
        rules.max_properties,
        Counted::Properties,
    )
}

fn check_array<'a>(rules: &'a ArrayRules, items: &'a [Value]) -> Result<(), Failure<'a>> {
    check_count(
        count(items.len()),
        rules.min_items,
        rules.max_items,
        Counted::Items,
    )?;
    if rules.unique_items && unique::has_duplicates(items) {
        return Err(Failure::RepeatedItems);
    }
    Ok(())
}

fn check_string<'a>(rules: &'a StringRules, text: &str) -> Result<(), Failure<'a>> {
    if rules.min_length.is_some() || rules.max_length.is_some() {
        // Code points, not bytes or UTF-16 units: "é" and "😀" are one each.
        let length = count(text.chars().count());
        check_count(
            length,
            rules.min_length,
            rules.max_length,
            Counted::Characters,
        )?;
    }
    if let Some(pattern) = &rules.pattern
        && !pattern.is_match(text)
    {
        return Err(Failure::Pattern);
    }
    Ok(())
}

fn check_number<'a>(rules: &'a NumberRules, value: &Number) -> Result<(), Failure<'a>> {
    let bounds = [
        (
            &rules.minimum,
            ">=",
            &[Ordering::Greater, Ordering::Equal][..],
        ),
        (&rules.maximum, "<=", &[Ordering::Less, Ordering::Equal][..]),
        (&rules.exclusive_minimum, ">", &[Ordering::Greater][..]),
        (&rules.exclusive_maximum, "<", &[Ordering::Less][..]),
    ];
    for (limit, comparison, allowed) in bounds {
        if let Some(limit) = limit {
            let holds = number::compare(value, limit).is_some_and(|order| allowed.contains(&order));
            if !holds {
                return Err(Failure::Bound(comparison, limit));
            }
        }
    }
    Ok(())
}

fn check_count<'a>(
    actual: u64,
    min: Option<u64>,
    max: Option<u64>,
    counted: Counted,
) -> Result<(), Failure<'a>> {
    if let Some(min) = min
        && actual < min
    {
        return Err(Failure::AtLeast(min, counted));
    }
    if let Some(max) = max
        && actual > max
    {
        return Err(Failure::AtMost(max, counted));
    }
    Ok(())
}

/// Lengths as the `u64` the schema's counts use.
fn count(length: usize) -> u64 {
    u64::try_from(length).unwrap_or(u64::MAX)
}

/// Queues the children of `value` that have a schema, in evaluation order:
/// declared properties in the schema's order, then additional properties,
/// or array elements in order.
fn queue_children<'a>(
    nodes: &'a [Node],
    node: &'a Node,
    value: &'a Value,
    tasks: &mut Vec<Task<'a>>,
) {
    match value {
        Value::Object(map) => {
            let rules = &node.object;
            for (name, id) in &rules.properties {
                if let (Some(value), Some(child)) = (map.get(name), nodes.get(*id)) {
                    tasks.push(Task::Visit {
                        node: child,
                        value,
                        step: Some(Step::Key(name)),
                    });
                }
            }
            if let Additional::Schema(id) = rules.additional
                && let Some(child) = nodes.get(id)
            {
                for (key, value) in map {
                    if !rules.declared.contains(key) {
                        tasks.push(Task::Visit {
                            node: child,
                            value,
                            step: Some(Step::Key(key)),
                        });
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some(child) = node.array.items.and_then(|id| nodes.get(id)) {
                tasks.extend(items.iter().enumerate().map(|(index, value)| Task::Visit {
                    node: child,
                    value,
                    step: Some(Step::Index(index)),
                }));
            }
        }
        _ => {}
    }
}
