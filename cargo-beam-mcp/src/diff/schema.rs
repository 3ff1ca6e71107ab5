//! Whether a JSON Schema (2020-12) accepts less, more or the same after a change, keyword by
//! keyword: what `diff` needs to call an argument change breaking or additive.
//!
//! The comparison is sound in one direction by design: every change it cannot place (a
//! `$ref` moved to another definition, an `if` rewritten, a keyword it does not know) is
//! reported as a narrowing, so a narrowing is never missed; a widening is reported as one
//! only where each keyword's rule shows it.

use std::collections::HashSet;

use serde_json::{Map, Value};

/// What changed between two schemas, each finding with the path where it is.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Findings {
    /// Values the old schema accepts that the new one refuses (or may refuse).
    pub(crate) narrowed: Vec<String>,
    /// Values the new schema accepts that the old one refused.
    pub(crate) widened: Vec<String>,
    /// Annotations that changed (descriptions, titles, examples, defaults, `format`).
    pub(crate) cosmetic: Vec<String>,
}

/// Keywords that say something about a value without deciding whether it is accepted
/// (`format` too: 2020-12 makes it an annotation unless a vocabulary asks otherwise, and
/// beam-mcp's validator reads it as one).
const ANNOTATIONS: [&str; 12] = [
    "title",
    "description",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
    "format",
    "$schema",
    "$id",
    "$anchor",
];

/// Compares `old` with `new` (whole documents: their `$ref`s resolve within each).
pub(crate) fn compare(old: &Value, new: &Value) -> Findings {
    let mut walker = Walker {
        old_root: old,
        new_root: new,
        seen: HashSet::new(),
        findings: Findings::default(),
    };
    walker.walk(old, new, "");
    walker.findings
}

struct Walker<'a> {
    old_root: &'a Value,
    new_root: &'a Value,
    /// `$ref` pairs being compared: met again (a recursive type), they are taken as equal.
    seen: HashSet<(String, String)>,
    findings: Findings,
}

/// A schema's assertions: its object without annotations, `true` as an empty one.
fn assertions(schema: &Value) -> Option<Map<String, Value>> {
    match schema {
        Value::Bool(true) => Some(Map::new()),
        Value::Object(map) => Some(
            map.iter()
                .filter(|(k, _)| !ANNOTATIONS.contains(&k.as_str()) && k.as_str() != "$defs")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        _ => None,
    }
}

fn at(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn number(value: Option<&Value>) -> Option<f64> {
    value.and_then(Value::as_f64)
}

impl Walker<'_> {
    fn narrowed(&mut self, path: &str, what: impl Into<String>) {
        self.findings
            .narrowed
            .push(format!("{}: {}", shown(path), what.into()));
    }

    fn widened(&mut self, path: &str, what: impl Into<String>) {
        self.findings
            .widened
            .push(format!("{}: {}", shown(path), what.into()));
    }

    /// The definition a `$ref` names in `root` (`#/$defs/Name`, or any JSON pointer).
    fn resolve<'v>(root: &'v Value, reference: &str) -> Option<&'v Value> {
        let pointer = reference.strip_prefix('#')?;
        root.pointer(pointer)
    }

    fn walk(&mut self, old: &Value, new: &Value, path: &str) {
        self.cosmetic(old, new, path);
        let (Some(mut o), Some(mut n)) = (
            assertions(old).or_else(|| (old == &Value::Bool(false)).then(Map::new)),
            assertions(new).or_else(|| (new == &Value::Bool(false)).then(Map::new)),
        ) else {
            if old != new {
                self.narrowed(path, "not a schema before or after");
            }
            return;
        };
        match (old == &Value::Bool(false), new == &Value::Bool(false)) {
            (true, true) => return,
            (true, false) => return self.widened(path, "accepted nothing before"),
            (false, true) => return self.narrowed(path, "accepts nothing now"),
            (false, false) => {}
        }
        // A `$ref` alone stands for its definition.
        let old_ref = o.get("$ref").and_then(Value::as_str).map(str::to_owned);
        let new_ref = n.get("$ref").and_then(Value::as_str).map(str::to_owned);
        if old_ref.is_some() || new_ref.is_some() {
            let key = (
                old_ref.clone().unwrap_or_default(),
                new_ref.clone().unwrap_or_default(),
            );
            let alone = |m: &Map<String, Value>| m.len() == 1;
            if (old_ref.is_none() || alone(&o)) && (new_ref.is_none() || alone(&n)) {
                if !self.seen.insert(key.clone()) {
                    return;
                }
                let old_target = match &old_ref {
                    Some(r) => Self::resolve(self.old_root, r),
                    None => Some(old),
                };
                let new_target = match &new_ref {
                    Some(r) => Self::resolve(self.new_root, r),
                    None => Some(new),
                };
                match (old_target, new_target) {
                    (Some(ot), Some(nt)) => self.walk(ot, nt, path),
                    _ => self.narrowed(path, "a $ref that does not resolve"),
                }
                self.seen.remove(&key);
                return;
            }
            if old_ref != new_ref {
                return self.narrowed(path, "$ref changed beside other keywords");
            }
            o.remove("$ref");
            n.remove("$ref");
        }
        self.types(&o, &n, path);
        self.values(&o, &n, path);
        self.bounds(&o, &n, path);
        self.strings(&o, &n, path);
        self.arrays(&o, &n, path);
        self.objects(&o, &n, path);
        self.combinators(&o, &n, path);
        const KNOWN: [&str; 42] = [
            "type",
            "enum",
            "const",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minLength",
            "maxLength",
            "pattern",
            "items",
            "prefixItems",
            "minItems",
            "maxItems",
            "uniqueItems",
            "contains",
            "minContains",
            "maxContains",
            "unevaluatedItems",
            "properties",
            "required",
            "additionalProperties",
            "minProperties",
            "maxProperties",
            "propertyNames",
            "patternProperties",
            "dependentRequired",
            "dependentSchemas",
            "unevaluatedProperties",
            "anyOf",
            "oneOf",
            "allOf",
            "not",
            "if",
            "then",
            "else",
            "$ref",
            "contentEncoding",
            "contentMediaType",
            "contentSchema",
            "$dynamicRef",
        ];
        let unknown: Vec<&String> = o
            .keys()
            .chain(n.keys())
            .filter(|k| !KNOWN.contains(&k.as_str()))
            .collect();
        for key in unknown {
            if o.get(key) != n.get(key) {
                self.narrowed(
                    &at(path, key),
                    "a keyword this comparison does not read changed",
                );
            }
        }
    }

    fn cosmetic(&mut self, old: &Value, new: &Value, path: &str) {
        for key in ANNOTATIONS {
            if old.get(key) != new.get(key) {
                self.findings
                    .cosmetic
                    .push(format!("{}: {key} changed", shown(path)));
            }
        }
    }

    fn types(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, path: &str) {
        let set = |m: &Map<String, Value>| -> Option<Vec<String>> {
            match m.get("type")? {
                Value::String(t) => Some(vec![t.clone()]),
                Value::Array(ts) => Some(
                    ts.iter()
                        .filter_map(|t| t.as_str().map(str::to_owned))
                        .collect(),
                ),
                _ => Some(Vec::new()),
            }
        };
        let covers = |set: &[String], t: &str| {
            set.iter().any(|s| s == t) || (t == "integer" && set.iter().any(|s| s == "number"))
        };
        match (set(o), set(n)) {
            (None, None) => {}
            (None, Some(new)) => self.narrowed(path, format!("type {} now", new.join(" | "))),
            (Some(old), None) => {
                self.widened(path, format!("any type now (was {})", old.join(" | ")))
            }
            (Some(old), Some(new)) => {
                let lost: Vec<&String> = old.iter().filter(|t| !covers(&new, t)).collect();
                // `number` narrowed to `integer`: fractions are refused now.
                let fractions_lost =
                    old.iter().any(|t| t == "number") && !new.iter().any(|t| t == "number");
                if !lost.is_empty() || fractions_lost {
                    self.narrowed(
                        path,
                        format!("type {} (was {})", new.join(" | "), old.join(" | ")),
                    );
                }
                let gained = new.iter().any(|t| !covers(&old, t))
                    || (new.iter().any(|t| t == "number") && !old.iter().any(|t| t == "number"));
                if gained {
                    self.widened(
                        path,
                        format!("type {} (was {})", new.join(" | "), old.join(" | ")),
                    );
                }
            }
        }
    }

    fn values(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, path: &str) {
        match (o.get("enum"), n.get("enum")) {
            (None, None) => {}
            (None, Some(_)) => self.narrowed(path, "enum added"),
            (Some(_), None) => self.widened(path, "enum removed"),
            (Some(old), Some(new)) => {
                let (old, new) = (old.as_array(), new.as_array());
                let (Some(old), Some(new)) = (old, new) else {
                    return self.narrowed(path, "enum is not an array");
                };
                if old.iter().any(|v| !new.contains(v)) {
                    self.narrowed(path, "enum lost a value");
                }
                if new.iter().any(|v| !old.contains(v)) {
                    self.widened(path, "enum gained a value");
                }
            }
        }
        match (o.get("const"), n.get("const")) {
            (None, None) => {}
            (None, Some(_)) => self.narrowed(path, "const added"),
            (Some(_), None) => self.widened(path, "const removed"),
            (Some(old), Some(new)) if old != new => {
                self.narrowed(path, "const changed");
                self.widened(path, "const changed");
            }
            _ => {}
        }
    }

    fn bounds(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, path: &str) {
        // A lower bound raised or added narrows; an upper bound lowered or added narrows.
        for (key, lower) in [
            ("minimum", true),
            ("exclusiveMinimum", true),
            ("minLength", true),
            ("minItems", true),
            ("minContains", true),
            ("minProperties", true),
            ("maximum", false),
            ("exclusiveMaximum", false),
            ("maxLength", false),
            ("maxItems", false),
            ("maxContains", false),
            ("maxProperties", false),
        ] {
            let (old, new) = (number(o.get(key)), number(n.get(key)));
            let tighter = |a: f64, b: f64| if lower { b > a } else { b < a };
            match (old, new) {
                (None, None) => {}
                (None, Some(b)) => self.narrowed(path, format!("{key} {b} added")),
                (Some(a), None) => self.widened(path, format!("{key} {a} removed")),
                (Some(a), Some(b)) if tighter(a, b) => {
                    self.narrowed(path, format!("{key} {a} → {b}"));
                }
                (Some(a), Some(b)) if tighter(b, a) => {
                    self.widened(path, format!("{key} {a} → {b}"));
                }
                _ => {}
            }
        }
        match (number(o.get("multipleOf")), number(n.get("multipleOf"))) {
            (None, None) => {}
            (None, Some(b)) => self.narrowed(path, format!("multipleOf {b} added")),
            (Some(a), None) => self.widened(path, format!("multipleOf {a} removed")),
            (Some(a), Some(b)) if a != b => {
                let multiple = |x: f64, of: f64| (x / of).fract() == 0.0;
                if multiple(b, a) {
                    // Multiples of b are multiples of a: fewer values pass.
                    self.narrowed(path, format!("multipleOf {a} → {b}"));
                } else if multiple(a, b) {
                    self.widened(path, format!("multipleOf {a} → {b}"));
                } else {
                    self.narrowed(path, format!("multipleOf {a} → {b}"));
                    self.widened(path, format!("multipleOf {a} → {b}"));
                }
            }
            _ => {}
        }
    }

    fn strings(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, path: &str) {
        match (o.get("pattern"), n.get("pattern")) {
            (None, None) => {}
            (None, Some(_)) => self.narrowed(path, "pattern added"),
            (Some(_), None) => self.widened(path, "pattern removed"),
            (Some(a), Some(b)) if a != b => self.narrowed(path, "pattern changed"),
            _ => {}
        }
        for key in ["contentEncoding", "contentMediaType", "contentSchema"] {
            if o.get(key) != n.get(key) {
                self.findings
                    .cosmetic
                    .push(format!("{}: {key} changed", shown(path)));
            }
        }
    }

    fn arrays(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, path: &str) {
        self.optional_schema(o.get("items"), n.get("items"), &at(path, "[]"), true);
        self.optional_schema(
            o.get("contains"),
            n.get("contains"),
            &at(path, "contains"),
            false,
        );
        self.optional_schema(
            o.get("unevaluatedItems"),
            n.get("unevaluatedItems"),
            &at(path, "unevaluatedItems"),
            true,
        );
        match (o.get("prefixItems"), n.get("prefixItems")) {
            (None, None) => {}
            (Some(Value::Array(a)), Some(Value::Array(b))) if a.len() == b.len() => {
                for (i, (x, y)) in a.iter().zip(b).enumerate() {
                    self.walk(x, y, &at(path, &format!("[{i}]")));
                }
            }
            (a, b) if a != b => self.narrowed(path, "prefixItems changed in length"),
            _ => {}
        }
        let unique =
            |m: &Map<String, Value>| m.get("uniqueItems").and_then(Value::as_bool) == Some(true);
        match (unique(o), unique(n)) {
            (false, true) => self.narrowed(path, "items must be unique now"),
            (true, false) => self.widened(path, "items need not be unique now"),
            _ => {}
        }
    }

    /// A keyword holding one schema that applies when present (`items`, `contains`, ...).
    /// Absent means "anything" for `items`-like keywords (`absent_is_true`), and "no
    /// requirement" for `contains`.
    fn optional_schema(
        &mut self,
        old: Option<&Value>,
        new: Option<&Value>,
        path: &str,
        absent_is_true: bool,
    ) {
        match (old, new) {
            (None, None) => {}
            (Some(a), Some(b)) => self.walk(a, b, path),
            (None, Some(b)) if absent_is_true => self.walk(&Value::Bool(true), b, path),
            (Some(a), None) if absent_is_true => self.walk(a, &Value::Bool(true), path),
            (None, Some(_)) => self.narrowed(path, "added"),
            (Some(_), None) => self.widened(path, "removed"),
        }
    }

    fn objects(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, path: &str) {
        let empty = Map::new();
        let props =
            |m: &Map<String, Value>| m.get("properties").and_then(Value::as_object).cloned();
        let (old_props, new_props) = (props(o), props(n));
        let (old_props, new_props) = (
            old_props.as_ref().unwrap_or(&empty),
            new_props.as_ref().unwrap_or(&empty),
        );
        // What a property no `properties` entry names is held to: `additionalProperties`
        // (or `unevaluatedProperties`, read the same way here), `true` when absent. With
        // `patternProperties` beside them the two cannot be told apart by name alone.
        let rest = |m: &Map<String, Value>| {
            m.get("additionalProperties")
                .or_else(|| m.get("unevaluatedProperties"))
                .cloned()
                .unwrap_or(Value::Bool(true))
        };
        let (old_rest, new_rest) = (rest(o), rest(n));
        let patterns = o.get("patternProperties").is_some() || n.get("patternProperties").is_some();
        for (name, old_schema) in old_props {
            let where_ = at(path, name);
            match new_props.get(name) {
                Some(new_schema) => self.walk(old_schema, new_schema, &where_),
                None if patterns => self.narrowed(&where_, "removed beside patternProperties"),
                None => self.walk(old_schema, &new_rest, &where_),
            }
        }
        for (name, new_schema) in new_props {
            if !old_props.contains_key(name) {
                let where_ = at(path, name);
                if patterns {
                    self.narrowed(&where_, "added beside patternProperties");
                } else {
                    self.walk(&old_rest, new_schema, &where_);
                }
            }
        }
        let restricts = |m: &Map<String, Value>| {
            m.contains_key("additionalProperties") || m.contains_key("unevaluatedProperties")
        };
        if restricts(o) || restricts(n) {
            self.walk(&old_rest, &new_rest, &at(path, "(other properties)"));
        }
        match (o.get("patternProperties"), n.get("patternProperties")) {
            (a, b) if a == b => {}
            (Some(Value::Object(a)), Some(Value::Object(b))) if a.keys().eq(b.keys()) => {
                for (key, x) in a {
                    self.walk(x, &b[key], &at(path, &format!("/{key}/")));
                }
            }
            _ => self.narrowed(path, "patternProperties changed"),
        }
        let required = |m: &Map<String, Value>| -> Vec<String> {
            m.get("required")
                .and_then(Value::as_array)
                .map(|r| {
                    r.iter()
                        .filter_map(|v| v.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default()
        };
        let (old_required, new_required) = (required(o), required(n));
        for name in &new_required {
            if !old_required.contains(name) {
                self.narrowed(&at(path, name), "required now");
            }
        }
        for name in &old_required {
            if !new_required.contains(name) {
                self.widened(&at(path, name), "optional now");
            }
        }
        self.optional_schema(
            o.get("propertyNames"),
            n.get("propertyNames"),
            &at(path, "(names)"),
            true,
        );
        let map_of = |m: &Map<String, Value>, key: &str| {
            m.get(key)
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default()
        };
        let (old_dr, new_dr) = (
            map_of(o, "dependentRequired"),
            map_of(n, "dependentRequired"),
        );
        for (key, names) in &new_dr {
            let before = old_dr
                .get(key)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let after = names.as_array().cloned().unwrap_or_default();
            if after.iter().any(|v| !before.contains(v)) {
                self.narrowed(&at(path, key), "dependentRequired gained a name");
            }
        }
        for (key, names) in &old_dr {
            let after = new_dr
                .get(key)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            if names
                .as_array()
                .is_some_and(|b| b.iter().any(|v| !after.contains(v)))
            {
                self.widened(&at(path, key), "dependentRequired lost a name");
            }
        }
        let (old_ds, new_ds) = (map_of(o, "dependentSchemas"), map_of(n, "dependentSchemas"));
        for key in old_ds
            .keys()
            .chain(new_ds.keys())
            .collect::<std::collections::BTreeSet<_>>()
        {
            self.optional_schema(
                old_ds.get(key),
                new_ds.get(key),
                &at(path, &format!("(if {key})")),
                true,
            );
        }
    }

    fn combinators(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, path: &str) {
        let list =
            |m: &Map<String, Value>, key: &str| m.get(key).and_then(Value::as_array).cloned();
        // anyOf: an option kept as it was, or compared in place; options added widen,
        // options removed narrow.
        match (list(o, "anyOf"), list(n, "anyOf")) {
            (None, None) => {}
            (None, Some(_)) => self.narrowed(path, "anyOf added"),
            (Some(_), None) => self.widened(path, "anyOf removed"),
            (Some(a), Some(b)) => self.options(&a, &b, path, "anyOf", false),
        }
        match (list(o, "oneOf"), list(n, "oneOf")) {
            (None, None) => {}
            (None, Some(_)) => self.narrowed(path, "oneOf added"),
            (Some(_), None) => self.widened(path, "oneOf removed"),
            (Some(a), Some(b)) => self.options(&a, &b, path, "oneOf", true),
        }
        match (list(o, "allOf"), list(n, "allOf")) {
            (None, None) => {}
            (Some(a), Some(b)) if a.len() == b.len() => {
                for (i, (x, y)) in a.iter().zip(&b).enumerate() {
                    self.walk(x, y, &at(path, &format!("allOf[{i}]")));
                }
            }
            (a, b) => {
                let (a, b) = (a.unwrap_or_default(), b.unwrap_or_default());
                if b.iter().any(|x| !a.contains(x)) {
                    self.narrowed(path, "allOf gained a schema");
                }
                if a.iter().any(|x| !b.contains(x)) {
                    self.widened(path, "allOf lost a schema");
                }
            }
        }
        match (o.get("not"), n.get("not")) {
            (None, None) => {}
            (None, Some(_)) => self.narrowed(path, "not added"),
            (Some(_), None) => self.widened(path, "not removed"),
            (Some(a), Some(b)) => {
                // Inside `not`, a wider schema refuses more.
                let inner = compare_within(self, b, a, &at(path, "not"));
                self.findings.narrowed.extend(inner.narrowed);
                self.findings.widened.extend(inner.widened);
            }
        }
        for key in ["if", "then", "else"] {
            if o.get(key) != n.get(key) {
                self.narrowed(&at(path, key), "a conditional changed");
            }
        }
    }

    /// `anyOf`/`oneOf` options: those equal on both sides kept; with as many options on both
    /// sides, the rest compared in place; otherwise an option gained widens (a `oneOf` option
    /// may also overlap another, which narrows) and an option lost narrows.
    fn options(&mut self, old: &[Value], new: &[Value], path: &str, key: &str, exclusive: bool) {
        let gained: Vec<&Value> = new.iter().filter(|x| !old.contains(x)).collect();
        let lost: Vec<&Value> = old.iter().filter(|x| !new.contains(x)).collect();
        if gained.len() == lost.len() {
            for (i, (a, b)) in lost.iter().zip(&gained).enumerate() {
                self.walk(a, b, &at(path, &format!("{key}[{i}]")));
            }
            return;
        }
        if !gained.is_empty() {
            self.widened(path, format!("{key} gained an option"));
            if exclusive {
                self.narrowed(path, "oneOf gained an option that may overlap another");
            }
        }
        if !lost.is_empty() {
            self.narrowed(path, format!("{key} lost an option"));
        }
    }
}

/// `old` against `new` with the roots of `walker` (for `not`, called with the sides swapped).
fn compare_within(walker: &Walker<'_>, old: &Value, new: &Value, path: &str) -> Findings {
    let mut inner = Walker {
        old_root: walker.new_root,
        new_root: walker.old_root,
        seen: walker.seen.clone(),
        findings: Findings::default(),
    };
    inner.walk(old, new, path);
    inner.findings
}

fn shown(path: &str) -> &str {
    if path.is_empty() { "(the value)" } else { path }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn verdict(old: Value, new: Value) -> (bool, bool) {
        let f = compare(&old, &new);
        (!f.narrowed.is_empty(), !f.widened.is_empty())
    }

    #[test]
    fn a_recursive_type_is_compared_without_end() {
        let tree = |leaf: &str| {
            json!({ "$ref": "#/$defs/Tree", "$defs": { "Tree": { "type": "object",
                "properties": { "value": { "type": leaf },
                    "children": { "type": "array", "items": { "$ref": "#/$defs/Tree" } } },
                "required": ["value"] } } })
        };
        assert_eq!(verdict(tree("number"), tree("number")), (false, false));
        assert_eq!(verdict(tree("number"), tree("integer")), (true, false));
        assert_eq!(verdict(tree("integer"), tree("number")), (false, true));
    }

    #[test]
    fn annotations_are_cosmetic() {
        let f = compare(
            &json!({ "type": "string", "description": "a" }),
            &json!({ "type": "string", "description": "b", "format": "date" }),
        );
        assert!(f.narrowed.is_empty() && f.widened.is_empty());
        assert_eq!(f.cosmetic.len(), 2);
    }
}
