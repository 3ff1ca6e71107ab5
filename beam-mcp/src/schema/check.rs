//! Checking a schema's well-formedness and compiling it into an arena.
//!
//! Every problem is reported with its location, e.g.
//! `the schema, property opts, items: pattern does not compile: ...`.
//! The walk uses an explicit work list, so schema depth cannot exhaust the
//! stack; it is depth-first, so the first problem reported is the first one
//! met reading the schema top-down.

use std::collections::BTreeSet;
use std::fmt::Display;

use serde_json::{Number, Value};

use super::error::SchemaError;
use super::keywords;
use super::node::{Additional, JsonType, Node, NodeId, ROOT};

/// The message for any `type` that is not a valid name or list of names.
const TYPE_NAMES: &str =
    "type must name JSON types (string, integer, number, boolean, object, array, null)";

/// One step in the location of a sub-schema, as messages word it.
#[derive(Debug, Clone, Copy)]
enum Segment<'s> {
    Root,
    Property(&'s str),
    Items,
    Additional,
}

/// Locations as a parent-linked arena, spelled out only for the one error
/// reported, so deep schemas cost linear time rather than quadratic.
#[derive(Debug, Default)]
struct Locations<'s> {
    entries: Vec<(usize, Segment<'s>)>,
}

impl<'s> Locations<'s> {
    /// Records `segment` below `parent` and returns its index.
    fn add(&mut self, parent: usize, segment: Segment<'s>) -> usize {
        self.entries.push((parent, segment));
        self.entries.len() - 1
    }

    /// `the schema, property opts, items` for the entry at `index`.
    fn describe(&self, mut index: usize) -> String {
        let mut segments = Vec::new();
        while let Some(&(parent, segment)) = self.entries.get(index) {
            segments.push(segment);
            if matches!(segment, Segment::Root) || parent == index {
                break;
            }
            index = parent;
        }
        let mut text = String::new();
        for segment in segments.iter().rev() {
            match segment {
                Segment::Root => text.push_str("the schema"),
                Segment::Property(name) => {
                    text.push_str(", property ");
                    text.push_str(name);
                }
                Segment::Items => text.push_str(", items"),
                Segment::Additional => text.push_str(", additionalProperties"),
            }
        }
        text
    }
}

/// A schema object still to be compiled into `slot`.
struct Pending<'s> {
    schema: &'s Value,
    location: usize,
    slot: NodeId,
}

/// Checks `schema` and compiles it; the root node is at [`ROOT`].
pub(crate) fn compile(schema: &Value) -> Result<Vec<Node>, SchemaError> {
    let mut nodes = vec![Node::default()];
    let mut locations = Locations::default();
    let root = locations.add(0, Segment::Root);
    let mut work = vec![Pending {
        schema,
        location: root,
        slot: ROOT,
    }];
    let mut children = Vec::new();
    while let Some(job) = work.pop() {
        let node = compile_one(&job, &mut nodes, &mut children)
            .map_err(|problem| problem.locate(&locations.describe(job.location)))?;
        if let Some(place) = nodes.get_mut(job.slot) {
            *place = node;
        }
        // Reversed so the first child found is the next one checked.
        work.extend(
            children
                .drain(..)
                .rev()
                .map(|(schema, segment, slot)| Pending {
                    schema,
                    location: locations.add(job.location, segment),
                    slot,
                }),
        );
    }
    Ok(nodes)
}

/// A problem found in one schema object, before its location is known.
enum Problem {
    /// The schema itself is not an object.
    NotObject,
    /// A keyword outside the subset.
    Unsupported(String),
    /// A keyword with a value of the wrong kind.
    Malformed(String),
}

impl Problem {
    fn locate(self, location: &str) -> SchemaError {
        SchemaError::new(match self {
            Self::NotObject => format!("{location} must be a JSON object"),
            Self::Unsupported(key) => {
                format!("{location} uses {key}, which this server does not enforce")
            }
            Self::Malformed(detail) => format!("{location}: {detail}"),
        })
    }
}

/// A sub-schema found in a schema object: what, where, and its reserved slot.
type Child<'s> = (&'s Value, Segment<'s>, NodeId);

/// Compiles one schema object, reserving a slot in `nodes` for each
/// sub-schema and listing it in `children`.
fn compile_one<'s>(
    job: &Pending<'s>,
    nodes: &mut Vec<Node>,
    children: &mut Vec<Child<'s>>,
) -> Result<Node, Problem> {
    let Value::Object(map) = job.schema else {
        return Err(Problem::NotObject);
    };
    // Unenforced keywords first: a schema relying on one must not be trusted,
    // whatever else is wrong with it.
    if let Some(key) = map.keys().find(|key| !keywords::is_allowed(key)) {
        return Err(Problem::Unsupported(key.clone()));
    }
    let mut child = |schema: &'s Value, segment: Segment<'s>| {
        let slot = nodes.len();
        nodes.push(Node::default());
        children.push((schema, segment, slot));
        slot
    };

    let mut node = Node::default();
    for (key, value) in map {
        match key.as_str() {
            "type" => node.types = Some(types(value)?),
            "enum" => match value {
                Value::Array(options) => node.enumeration = Some(options.clone()),
                _ => return Err(bad("enum must be a list")),
            },
            "const" => node.constant = Some(value.clone()),
            "properties" => {
                let Value::Object(properties) = value else {
                    return Err(bad("properties must be an object of schemas"));
                };
                for (name, schema) in properties {
                    let slot = child(schema, Segment::Property(name));
                    node.object.properties.push((name.clone(), slot));
                    node.object.declared.insert(name.clone());
                }
            }
            "required" => node.object.required = required(value)?,
            "additionalProperties" => {
                node.object.additional = match value {
                    Value::Bool(true) => Additional::Allow,
                    Value::Bool(false) => Additional::Deny,
                    Value::Object(_) => Additional::Schema(child(value, Segment::Additional)),
                    _ => {
                        return Err(bad(
                            "additionalProperties must be a boolean or a schema object",
                        ));
                    }
                }
            }
            "minProperties" => node.object.min_properties = Some(count(key, value)?),
            "maxProperties" => node.object.max_properties = Some(count(key, value)?),
            "items" => match value {
                Value::Array(_) => {
                    return Err(bad(
                        "items must be a single schema; the list form is not enforced",
                    ));
                }
                _ => node.array.items = Some(child(value, Segment::Items)),
            },
            "minItems" => node.array.min_items = Some(count(key, value)?),
            "maxItems" => node.array.max_items = Some(count(key, value)?),
            "uniqueItems" => match value {
                Value::Bool(unique) => node.array.unique_items = *unique,
                _ => return Err(bad("uniqueItems must be a boolean")),
            },
            "minLength" => node.string.min_length = Some(count(key, value)?),
            "maxLength" => node.string.max_length = Some(count(key, value)?),
            "pattern" => node.string.pattern = Some(pattern(value)?),
            "minimum" => node.number.minimum = Some(bound(key, value)?),
            "maximum" => node.number.maximum = Some(bound(key, value)?),
            "exclusiveMinimum" => node.number.exclusive_minimum = Some(bound(key, value)?),
            "exclusiveMaximum" => node.number.exclusive_maximum = Some(bound(key, value)?),
            // Annotations and `x-` extensions: allowed above, ignored here.
            _ => {}
        }
    }
    Ok(node)
}

/// A keyword with a value of the wrong kind.
fn bad(detail: impl Display) -> Problem {
    Problem::Malformed(detail.to_string())
}

/// `type`: one name, or a non-empty list of distinct names.
fn types(value: &Value) -> Result<Vec<JsonType>, Problem> {
    let names = match value {
        Value::String(_) => std::slice::from_ref(value),
        Value::Array(names) if !names.is_empty() => names.as_slice(),
        _ => return Err(bad(TYPE_NAMES)),
    };
    let mut kinds = Vec::with_capacity(names.len());
    for name in names {
        let kind = name
            .as_str()
            .and_then(JsonType::from_name)
            .ok_or_else(|| bad(TYPE_NAMES))?;
        if kinds.contains(&kind) {
            return Err(bad(format_args!(
                "type lists {} more than once",
                kind.name()
            )));
        }
        kinds.push(kind);
    }
    Ok(kinds)
}

/// `required`: a list of strings; repeats are dropped so messages name each once.
fn required(value: &Value) -> Result<Vec<String>, Problem> {
    let Value::Array(names) = value else {
        return Err(bad("required must be a list of strings"));
    };
    let mut required: Vec<String> = Vec::with_capacity(names.len());
    let mut seen = BTreeSet::new();
    for name in names {
        let Value::String(name) = name else {
            return Err(bad("required must be a list of strings"));
        };
        if seen.insert(name.as_str()) {
            required.push(name.clone());
        }
    }
    Ok(required)
}

/// The six count keywords: a non-negative integer in integer form (`2.0` is refused).
fn count(key: &str, value: &Value) -> Result<u64, Problem> {
    value
        .as_u64()
        .ok_or_else(|| bad(format_args!("{key} must be a non-negative integer")))
}

/// The four bounds: any number. The boolean draft-4 form of the exclusive
/// bounds gets a pointed message, since it is the likely mistake.
fn bound(key: &str, value: &Value) -> Result<Number, Problem> {
    match value {
        Value::Number(number) => Ok(number.clone()),
        Value::Bool(_) if key.starts_with("exclusive") => Err(bad(format_args!(
            "{key} must be a number (the boolean draft-4 form is not supported)"
        ))),
        _ => Err(bad(format_args!("{key} must be a number"))),
    }
}

/// `pattern`: an ECMA-262 regular expression (with the `u` flag, as JSON
/// Schema recommends), translated and compiled once for a linear-time engine;
/// what that engine cannot match is refused here, naming the pattern.
fn pattern(value: &Value) -> Result<regex::Regex, Problem> {
    let Value::String(source) = value else {
        return Err(bad("pattern must be a string"));
    };
    super::pattern::compile(source).map_err(|refusal| bad(refusal.describe(source)))
}
