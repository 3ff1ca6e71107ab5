//! Checking a schema's well-formedness and compiling it into an arena.
//!
//! Two passes, each over an explicit work list so that schema depth cannot exhaust the stack.
//! The first indexes the document: the base URI of every subschema (`$id`), its resources and
//! its anchors. The second compiles each subschema once, into the node its location names, so
//! that a `$ref` to a place already compiled (an ancestor: a recursive type) shares its node.
//! Every problem is reported with its location, e.g.
//! `the schema, property opts, items: pattern does not compile: ...`.

use std::collections::{BTreeSet, HashMap};
use std::fmt::{Display, Write as _};

use serde_json::{Map, Number, Value};

use super::error::SchemaError;
use super::keywords;
use super::node::{Additional, JsonType, Node, NodeId, ROOT};
use super::uri;

/// The message for any `type` that is not a valid name or list of names.
const TYPE_NAMES: &str =
    "type must name JSON types (string, integer, number, boolean, object, array, null)";

/// The dialect this server enforces; `$schema` may name it, or be left out.
const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// Keywords whose value is one subschema.
const ONE: [&str; 10] = [
    "additionalProperties",
    "propertyNames",
    "unevaluatedProperties",
    "items",
    "contains",
    "unevaluatedItems",
    "not",
    "if",
    "then",
    "else",
];
/// Keywords whose value is an object of subschemas.
const NAMED: [&str; 4] = [
    "properties",
    "patternProperties",
    "dependentSchemas",
    "$defs",
];
/// Keywords whose value is a list of subschemas.
const LISTED: [&str; 4] = ["allOf", "anyOf", "oneOf", "prefixItems"];

/// Checks `schema` and compiles it; the root node is at [`ROOT`].
pub(crate) fn compile(schema: &Value) -> Result<Vec<Node>, SchemaError> {
    let index = Index::build(schema)?;
    let mut compiler = Compiler {
        index: &index,
        nodes: vec![Node::default()],
        at: HashMap::from([(address(schema), ROOT)]),
        work: vec![(schema, ROOT)],
        shared: Vec::new(),
    };
    while let Some((value, slot)) = compiler.work.pop() {
        let queued = compiler.work.len();
        let node = compiler
            .compile_one(value)
            .map_err(|problem| problem.locate(&index.describe(value)))?;
        compiler.nodes[slot] = node;
        // Reversed so the first subschema found is the next one checked: the first problem
        // reported is the first one met reading the schema top-down.
        compiler.work[queued..].reverse();
    }
    for id in compiler.shared {
        compiler.nodes[id].shared = true;
    }
    Ok(compiler.nodes)
}

/// A subschema's identity: where it lives in the document (which outlives the compiling).
fn address(value: &Value) -> usize {
    std::ptr::from_ref(value) as usize
}

/// How a subschema hangs from its parent, for messages.
#[derive(Debug, Clone, Copy)]
enum Segment<'s> {
    /// `items`, `not`, ...
    Keyword(&'s str),
    /// `properties`, `$defs`, ... and the name.
    Named(&'s str, &'s str),
    /// `anyOf`, `prefixItems`, ... and the index.
    Listed(&'s str, usize),
}

/// Where each identifier of the document points: built before compiling, since a `$ref` may
/// name a place compiled later. Keyed by address, so that its size is linear in the document's
/// however deep it nests.
#[derive(Debug, Default)]
struct Index<'s> {
    /// Each subschema's parent and how it hangs from it.
    parents: HashMap<usize, (usize, Segment<'s>)>,
    /// The base URI in effect at each subschema (after its own `$id`), as an index in `uris`.
    bases: HashMap<usize, usize>,
    uris: Vec<String>,
    /// Each resource's absolute URI (no fragment) → its schema.
    resources: HashMap<String, &'s Value>,
    /// `resource URI#anchor` → its schema.
    anchors: HashMap<String, &'s Value>,
}

impl<'s> Index<'s> {
    fn build(schema: &'s Value) -> Result<Index<'s>, SchemaError> {
        let mut index = Index {
            uris: vec![uri::DEFAULT_BASE.to_owned()],
            ..Index::default()
        };
        index.resources.insert(uri::DEFAULT_BASE.to_owned(), schema);
        let mut work = vec![(schema, 0)];
        while let Some((value, mut base)) = work.pop() {
            let here = address(value);
            let Value::Object(map) = value else {
                index.bases.insert(here, base);
                continue;
            };
            if let Some(id) = map.get("$id") {
                let Value::String(id) = id else {
                    return Err(bad("$id must be a string").locate(&index.describe(value)));
                };
                let resolved = uri::resolve(&index.uris[base], id);
                let (absolute, fragment) = uri::split_fragment(&resolved);
                if !fragment.is_empty() {
                    return Err(
                        bad("$id must not have a fragment; name a place with $anchor")
                            .locate(&index.describe(value)),
                    );
                }
                // `"$id": "#"` (or the base itself) names no new resource.
                if absolute != index.uris[base] {
                    index.uris.push(absolute.to_owned());
                    base = index.uris.len() - 1;
                    index.resources.insert(absolute.to_owned(), value);
                }
            }
            for key in ["$anchor", "$dynamicAnchor"] {
                if let Some(anchor) = map.get(key) {
                    let Some(name) = anchor.as_str().filter(|name| is_anchor(name)) else {
                        return Err(bad(format_args!(
                            "{key} must be a name: a letter or _, then letters, digits, -, _ or ."
                        ))
                        .locate(&index.describe(value)));
                    };
                    let named = format!("{}#{name}", index.uris[base]);
                    index.anchors.insert(named, value);
                }
            }
            let queued = work.len();
            for_each_subschema(map, |segment, sub| {
                index.parents.insert(address(sub), (here, segment));
                work.push((sub, base));
            });
            work[queued..].reverse();
            index.bases.insert(here, base);
        }
        Ok(index)
    }

    /// The base URI at a subschema, if it is one where it sits (a place only a `$ref` reaches,
    /// inside an unknown keyword, has none).
    fn base_of(&self, value: &Value) -> Option<&str> {
        self.bases
            .get(&address(value))
            .map(|&i| self.uris[i].as_str())
    }

    /// A subschema's location as messages word it: `the schema, property opts, items`.
    fn describe(&self, value: &Value) -> String {
        let mut segments = Vec::new();
        let mut here = address(value);
        while let Some(&(parent, segment)) = self.parents.get(&here) {
            segments.push(segment);
            here = parent;
        }
        let mut text = String::from("the schema");
        for segment in segments.iter().rev() {
            let _ = match *segment {
                Segment::Keyword(key) => write!(text, ", {key}"),
                Segment::Named("properties", name) => write!(text, ", property {name}"),
                Segment::Named(key, name) => write!(text, ", {key} {name}"),
                Segment::Listed(key, i) => write!(text, ", {key}[{i}]"),
            };
        }
        text
    }
}

/// `$anchor`'s grammar: `^[A-Za-z_][-A-Za-z0-9._]*$`.
fn is_anchor(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Calls `visit(segment, subschema)` for each subschema of a schema object, in the order of its
/// keys.
fn for_each_subschema<'s>(
    map: &'s Map<String, Value>,
    mut visit: impl FnMut(Segment<'s>, &'s Value),
) {
    for (key, value) in map {
        let key = key.as_str();
        if ONE.contains(&key) {
            visit(Segment::Keyword(key), value);
        } else if NAMED.contains(&key) {
            if let Value::Object(named) = value {
                for (name, sub) in named {
                    visit(Segment::Named(key, name), sub);
                }
            }
        } else if LISTED.contains(&key)
            && let Value::Array(list) = value
        {
            for (i, sub) in list.iter().enumerate() {
                visit(Segment::Listed(key, i), sub);
            }
        }
    }
}

/// A problem found in one schema, before its location is known.
enum Problem {
    /// The schema is neither an object nor a boolean.
    NotSchema,
    /// A keyword outside 2020-12 or refused by this server.
    Unsupported(String),
    /// A keyword with a value of the wrong kind, or a reference that cannot be followed.
    Malformed(String),
}

impl Problem {
    fn locate(self, location: &str) -> SchemaError {
        SchemaError::new(match self {
            Self::NotSchema => format!("{location} must be a JSON object or a boolean"),
            Self::Unsupported(key) => format!(
                "{location} uses {key}, which this server does not enforce{}",
                keywords::refusal_hint(&key)
            ),
            Self::Malformed(detail) => format!("{location}: {detail}"),
        })
    }
}

struct Compiler<'s> {
    index: &'s Index<'s>,
    nodes: Vec<Node>,
    /// The node compiled (or to be) from each subschema, by address.
    at: HashMap<usize, NodeId>,
    work: Vec<(&'s Value, NodeId)>,
    /// The nodes a `$ref` names.
    shared: Vec<NodeId>,
}

impl<'s> Compiler<'s> {
    /// The node for `value`: the one already there, or a new one queued.
    fn node_for(&mut self, value: &'s Value) -> NodeId {
        if let Some(&id) = self.at.get(&address(value)) {
            return id;
        }
        let id = self.nodes.len();
        self.nodes.push(Node::default());
        self.at.insert(address(value), id);
        self.work.push((value, id));
        id
    }

    /// Where `$ref: reference` points, from the subschema `from`.
    fn follow(&mut self, from: &'s Value, reference: &str) -> Result<NodeId, Problem> {
        let base = self.index.base_of(from).unwrap_or(uri::DEFAULT_BASE);
        let target = uri::resolve(base, reference);
        let (resource, fragment) = uri::split_fragment(&target);
        let Some(&at) = self.index.resources.get(resource) else {
            return Err(bad(format_args!(
                "$ref {reference} points outside this schema; references are resolved within the document only"
            )));
        };
        let place = if fragment.is_empty() {
            at
        } else if fragment.starts_with('/') {
            at.pointer(&fragment).ok_or_else(|| {
                bad(format_args!(
                    "$ref {reference} points nowhere in this schema"
                ))
            })?
        } else {
            self.index
                .anchors
                .get(&format!("{resource}#{fragment}"))
                .copied()
                .ok_or_else(|| {
                    bad(format_args!(
                        "$ref {reference} names no $anchor of this schema"
                    ))
                })?
        };
        let id = self.node_for(place);
        self.shared.push(id);
        Ok(id)
    }

    /// Compiles one subschema, queueing its subschemas.
    fn compile_one(&mut self, value: &'s Value) -> Result<Node, Problem> {
        let map = match value {
            Value::Object(map) => map,
            Value::Bool(always) => {
                return Ok(Node {
                    always: Some(*always),
                    ..Node::default()
                });
            }
            _ => return Err(Problem::NotSchema),
        };
        // Unenforced keywords first: a schema relying on one must not be trusted, whatever
        // else is wrong with it.
        if let Some(key) = map.keys().find(|key| !keywords::is_allowed(key)) {
            return Err(Problem::Unsupported(key.clone()));
        }
        if let Some(dialect) = map.get("$schema") {
            let named = dialect.as_str().map(|d| d.trim_end_matches('#'));
            if named != Some(DIALECT) {
                return Err(bad(format_args!(
                    "$schema names {dialect}; this server enforces JSON Schema 2020-12 ({DIALECT})"
                )));
            }
        }
        let mut node = Node::default();
        for (key, sub) in map {
            self.keyword(value, &mut node, key, sub)?;
        }
        if let Some(condition) = &mut node.in_place.condition {
            // `then` and `else` were read before or after `if`: set them now.
            condition.1 = map.get("then").map(|then| self.node_for(then));
            condition.2 = map.get("else").map(|otherwise| self.node_for(otherwise));
        }
        node.gathers =
            map.contains_key("unevaluatedProperties") || map.contains_key("unevaluatedItems");
        Ok(node)
    }

    fn keyword(
        &mut self,
        schema: &'s Value,
        node: &mut Node,
        key: &str,
        value: &'s Value,
    ) -> Result<(), Problem> {
        match key {
            "type" => node.types = Some(types(value)?),
            "enum" => match value {
                Value::Array(options) => node.enumeration = Some(options.clone()),
                _ => return Err(bad("enum must be a list")),
            },
            "const" => node.constant = Some(value.clone()),
            "properties" => {
                for (name, sub) in schemas_named(key, value)? {
                    let slot = self.node_for(sub);
                    node.object.properties.push((name.clone(), slot));
                    node.object.declared.insert(name.clone());
                }
            }
            "patternProperties" => {
                for (name, sub) in schemas_named(key, value)? {
                    let regex = super::pattern::compile(name)
                        .map_err(|refusal| bad(refusal.describe(name)))?;
                    let slot = self.node_for(sub);
                    node.object.patterns.push((regex, slot));
                }
            }
            "dependentSchemas" => {
                for (name, sub) in schemas_named(key, value)? {
                    let slot = self.node_for(sub);
                    node.object.dependent_schemas.push((name.clone(), slot));
                }
            }
            "$defs" => {
                // Checked and compiled here, though only a `$ref` applies them.
                for sub in schemas_named(key, value)?.values() {
                    self.node_for(sub);
                }
            }
            "additionalProperties" => node.object.additional = self.rest(key, value)?,
            "unevaluatedProperties" => node.object.unevaluated = self.rest(key, value)?,
            "items" => {
                if value.is_array() {
                    return Err(bad(
                        "items must be a schema; 2020-12 writes the list form as prefixItems",
                    ));
                }
                node.array.items = self.rest(key, value)?;
            }
            "unevaluatedItems" => node.array.unevaluated = self.rest(key, value)?,
            "propertyNames" => node.object.property_names = Some(self.node_for(value)),
            "contains" => node.array.contains = Some(self.node_for(value)),
            "not" => node.in_place.not = Some(self.node_for(value)),
            "if" => node.in_place.condition = Some((self.node_for(value), None, None)),
            // Without `if` they do nothing; with it they are set once every key is read.
            "then" | "else" if !matches!(value, Value::Object(_) | Value::Bool(_)) => {
                return Err(bad(format_args!("{key} must be a schema")));
            }
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => {
                let Value::Array(list) = value else {
                    return Err(bad(format_args!(
                        "{key} must be a non-empty list of schemas"
                    )));
                };
                if list.is_empty() {
                    return Err(bad(format_args!(
                        "{key} must be a non-empty list of schemas"
                    )));
                }
                let ids: Vec<NodeId> = list.iter().map(|sub| self.node_for(sub)).collect();
                match key {
                    "allOf" => node.in_place.all_of = ids,
                    "anyOf" => node.in_place.any_of = ids,
                    "oneOf" => node.in_place.one_of = ids,
                    _ => node.array.prefix = ids,
                }
            }
            "$ref" => {
                let Value::String(reference) = value else {
                    return Err(bad("$ref must be a string"));
                };
                node.in_place.reference = Some(self.follow(schema, reference)?);
            }
            "required" => node.object.required = names(key, value)?,
            "dependentRequired" => {
                let Value::Object(map) = value else {
                    return Err(bad("dependentRequired must be an object of lists of names"));
                };
                for (name, needed) in map {
                    node.object
                        .dependent_required
                        .push((name.clone(), names(key, needed)?));
                }
            }
            "minProperties" => node.object.min_properties = Some(count(key, value)?),
            "maxProperties" => node.object.max_properties = Some(count(key, value)?),
            "minItems" => node.array.min_items = Some(count(key, value)?),
            "maxItems" => node.array.max_items = Some(count(key, value)?),
            "minContains" => node.array.min_contains = Some(count(key, value)?),
            "maxContains" => node.array.max_contains = Some(count(key, value)?),
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
            "multipleOf" => {
                let number = bound(key, value)?;
                if number.as_f64().is_none_or(|n| n <= 0.0) {
                    return Err(bad("multipleOf must be a number above zero"));
                }
                node.number.multiple_of = Some(number);
            }
            "$id" | "$anchor" | "$dynamicAnchor" if !value.is_string() => {
                return Err(bad(format_args!("{key} must be a string")));
            }
            // Annotations and `x-` extensions: allowed above, ignored here.
            _ => {}
        }
        Ok(())
    }

    /// `additionalProperties`, `unevaluatedProperties`, `items`, `unevaluatedItems`: `false`
    /// is named in messages (unknown properties, extra items), a schema (`true` too) applied.
    fn rest(&mut self, key: &str, value: &'s Value) -> Result<Additional, Problem> {
        match value {
            // `true` is a schema too: what it applies to counts as evaluated.
            Value::Bool(false) => Ok(Additional::Deny),
            Value::Bool(true) | Value::Object(_) => Ok(Additional::Schema(self.node_for(value))),
            _ => Err(bad(format_args!(
                "{key} must be a boolean or a schema object"
            ))),
        }
    }
}

/// An object of subschemas, checked to be one.
fn schemas_named<'s>(key: &str, value: &'s Value) -> Result<&'s Map<String, Value>, Problem> {
    match value {
        Value::Object(map) => Ok(map),
        _ => Err(bad(format_args!("{key} must be an object of schemas"))),
    }
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

/// `required` and `dependentRequired`'s lists: strings; repeats are dropped so messages name
/// each once.
fn names(key: &str, value: &Value) -> Result<Vec<String>, Problem> {
    let message = || bad(format_args!("{key} must be a list of strings"));
    let Value::Array(names) = value else {
        return Err(message());
    };
    let mut kept: Vec<String> = Vec::with_capacity(names.len());
    let mut seen = BTreeSet::new();
    for name in names {
        let Value::String(name) = name else {
            return Err(message());
        };
        if seen.insert(name.as_str()) {
            kept.push(name.clone());
        }
    }
    Ok(kept)
}

/// The count keywords: a non-negative integer (`2.0` is one too, as 2020-12 says).
fn count(key: &str, value: &Value) -> Result<u64, Problem> {
    let whole = value
        .as_f64()
        .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 2f64.powi(64));
    value
        .as_u64()
        // Exact: whole and within u64's range, checked above.
        .or_else(|| whole.map(|f| f as u64))
        .ok_or_else(|| bad(format_args!("{key} must be a non-negative integer")))
}

/// The four bounds and `multipleOf`: any number. The boolean draft-4 form of the exclusive
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
