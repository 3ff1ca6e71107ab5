//! JSON Schemas from Rust types, in the portable form: every subschema inlined except where a
//! recursive type needs `$defs` (a tree, a linked list), no `$schema`, no root `title` (the Rust
//! type's name is not a description), and a unit enum with documented variants written as the
//! `enum` of its values.
//!
//! An `Option<T>` field of an input stays out of `required` and keeps its `null` alternative:
//! a caller may leave it out or send `null`, and serde reads both as `None`. An elicitation
//! form (flat, primitive fields, as the spec restricts it) leaves `null` out.

mod profile;

pub(crate) use profile::Profiles;
pub use profile::SchemaProfile;

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

/// The schema of `T`, portable, computed without caching (the server calls it once per tool).
///
/// ```
/// #[derive(schemars::JsonSchema)]
/// struct Place { name: String, days: Option<u8> }
/// let schema = beam_mcp::schema_for::<Place>();
/// assert_eq!(schema["type"], "object");
/// assert_eq!(schema["required"], serde_json::json!(["name"]));
/// // `days` may be left out, or sent as `null`.
/// assert_eq!(schema["properties"]["days"]["type"], serde_json::json!(["integer", "null"]));
/// assert!(schema.get("$schema").is_none());
/// ```
pub fn schema_for<T: JsonSchema>() -> Value {
    generate::<T>(false)
}

/// The schema of `T` as an output: the same as an input's, since serde writes `None` as `null`
/// and `structuredContent` must match.
pub(crate) fn output_schema_for<T: JsonSchema>() -> Value {
    generate::<T>(false)
}

/// The schema of an elicitation form: like [`schema_for`], but an optional field loses its
/// `null` alternative (a form's fields are primitive; leaving one out is how it is absent).
pub(crate) fn form_schema_for<T: JsonSchema>() -> Value {
    generate::<T>(true)
}

fn generate<T: JsonSchema>(optional_by_omission: bool) -> Value {
    let generator = SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator();
    let mut value = generator.into_root_schema_for::<T>().to_value();
    if let Value::Object(root) = &mut value {
        // The root's title is the Rust type's name: an implementation detail, not a description.
        root.remove("title");
    }
    normalize(&mut value, optional_by_omission);
    value
}

/// Writes documented unit enums as `enum`s, at every depth; for a form, an optional property
/// (left out of `required`) also loses its `null` alternative.
fn normalize(value: &mut Value, optional_by_omission: bool) {
    let mut work = vec![value];
    while let Some(value) = work.pop() {
        let Value::Object(map) = value else { continue };
        collapse_const_alternatives(map);
        bound_integer(map);
        close_adjacent_unit_variants(map);
        if optional_by_omission {
            let required: Vec<String> = match map.get("required") {
                Some(Value::Array(names)) => names
                    .iter()
                    .filter_map(|n| n.as_str().map(str::to_owned))
                    .collect(),
                _ => Vec::new(),
            };
            if let Some(Value::Object(props)) = map.get_mut("properties") {
                for (name, sub) in props.iter_mut() {
                    if !required.contains(name) {
                        drop_null_alternative(sub);
                    }
                }
            }
        }
        if !optional_by_omission {
            merge_null_alternative(map);
        }
        for (key, sub) in map.iter_mut() {
            match key.as_str() {
                "properties" | "patternProperties" | "$defs" | "dependentSchemas" => {
                    if let Value::Object(named) = sub {
                        work.extend(named.values_mut().map(unbool));
                    }
                }
                "prefixItems" | "allOf" | "anyOf" | "oneOf" => {
                    if let Value::Array(list) = sub {
                        work.extend(list.iter_mut().map(unbool));
                    }
                }
                // `additionalProperties` and the like may stay booleans: MCP's schemas allow
                // them there, and `false` reads as "no others" in every client.
                "items" | "contains" | "not" | "if" | "then" | "else" | "propertyNames" => {
                    work.push(unbool(sub));
                }
                "additionalProperties" | "unevaluatedProperties" | "unevaluatedItems" => {
                    work.push(sub);
                }
                _ => {}
            }
        }
    }
}

/// An adjacently tagged enum (`#[serde(tag = "t", content = "c")]`) is `oneOf` objects of the
/// tag (a `const`) and the content; schemars leaves a unit variant's content unsaid, and serde
/// refuses any but `null` there. Such a branch gets `"c": {"type": "null"}`, found by shape:
/// every branch holds the tag's `const`, and nothing but the tag and one content key. An
/// internally tagged enum of that very shape (every struct variant's one field named alike)
/// gets the rule too: stricter than serde, which would ignore the field on a unit variant.
fn close_adjacent_unit_variants(map: &mut Map<String, Value>) {
    let Some(Value::Array(branches)) = map.get_mut("oneOf") else {
        return;
    };
    let properties_of = |b: &Value| b.get("properties").and_then(Value::as_object).cloned();
    let Some(first) = branches.first().and_then(properties_of) else {
        return;
    };
    let tag = first
        .iter()
        .find_map(|(name, s)| s.get("const").map(|_| name.clone()));
    let Some(tag) = tag else { return };
    let mut content: Option<String> = None;
    for branch in branches.iter() {
        let Some(properties) = properties_of(branch) else {
            return;
        };
        if properties.get(&tag).and_then(|s| s.get("const")).is_none() {
            return;
        }
        for name in properties.keys().filter(|n| **n != tag) {
            match &content {
                Some(c) if c != name => return,
                Some(_) => {}
                None => content = Some(name.clone()),
            }
        }
    }
    let Some(content) = content else { return };
    for branch in branches.iter_mut() {
        if let Some(Value::Object(properties)) = branch.get_mut("properties") {
            properties
                .entry(content.clone())
                .or_insert_with(|| serde_json::json!({ "type": "null" }));
        }
    }
}

/// An integer of a Rust type gets that type's range as `minimum` and `maximum` (schemars says
/// only `format: "uint32"`, and `minimum: 0`): without them the schema would take `2^32` for a
/// `u32`, which serde then refuses. A bound already tighter (`#[schemars(range(..))]`) stays.
/// For `u64` and `usize` the low end only: no JSON integer the validator takes is above them.
fn bound_integer(map: &mut Map<String, Value>) {
    let is_integer = match map.get("type") {
        Some(Value::String(t)) => t == "integer",
        Some(Value::Array(types)) => types.iter().any(|t| t == "integer"),
        _ => false,
    };
    let Some(format) = map
        .get("format")
        .and_then(Value::as_str)
        .filter(|_| is_integer)
    else {
        return;
    };
    let (low, high): (Value, Value) = match format {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "int64" | "int" => (i64::MIN.into(), i64::MAX.into()),
        "uint8" => (0.into(), u8::MAX.into()),
        "uint16" => (0.into(), u16::MAX.into()),
        "uint32" => (0.into(), u32::MAX.into()),
        // The validator's `integer` ends at `u64::MAX` already: only the low end is said.
        "uint64" | "uint" => (0.into(), Value::Null),
        _ => return,
    };
    let tighter = |existing: Option<&Value>, bound: &Value, keep_larger: bool| {
        let (Some(existing), Some(bound)) = (existing.and_then(Value::as_f64), bound.as_f64())
        else {
            return false;
        };
        if keep_larger {
            existing >= bound
        } else {
            existing <= bound
        }
    };
    if !tighter(map.get("minimum"), &low, true) {
        map.insert("minimum".into(), low);
    }
    if !high.is_null() && !tighter(map.get("maximum"), &high, false) {
        map.insert("maximum".into(), high);
    }
}

/// A boolean subschema as an object, the form MCP's own schemas require where a subschema
/// stands for a property or an item: `true` is `{}`, `false` is `{"not": {}}`.
fn unbool(value: &mut Value) -> &mut Value {
    if let Value::Bool(admits) = value {
        *value = if *admits {
            Value::Object(Map::new())
        } else {
            serde_json::json!({ "not": {} })
        };
    }
    value
}

/// `{"anyOf": [X, {"type": "null"}]}`, schemars' `Option<X>` where `X` is not a plain type,
/// becomes `X` with `null` added to its `type` (and to its `enum`, or its `const` made an
/// `enum`), the form every client reads (and the strict modes of model providers ask for).
/// Left as it is when `X` has no single `type` or is a `$ref`.
fn merge_null_alternative(map: &mut Map<String, Value>) {
    let Some(Value::Array(alternatives)) = map.get("anyOf") else {
        return;
    };
    let null = serde_json::json!({ "type": "null" });
    if alternatives.len() != 2 || alternatives[1] != null {
        return;
    }
    let Value::Object(inner) = &alternatives[0] else {
        return;
    };
    let mut inner = inner.clone();
    collapse_const_alternatives(&mut inner);
    let Some(Value::String(kind)) = inner.get("type").cloned() else {
        return;
    };
    if inner.contains_key("$ref") {
        return;
    }
    inner.insert("type".into(), serde_json::json!([kind, "null"]));
    if let Some(Value::Array(values)) = inner.get_mut("enum") {
        values.push(Value::Null);
    } else if let Some(constant) = inner.remove("const") {
        inner.insert("enum".into(), serde_json::json!([constant, null]));
    }
    map.remove("anyOf");
    for (key, value) in inner {
        map.entry(key).or_insert(value);
    }
}

/// `{"type": ["T", "null"]}` becomes `{"type": "T"}`; `{"anyOf": [X, {"type": "null"}]}` becomes X.
fn drop_null_alternative(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    if let Some(Value::Array(types)) = map.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types.remove(0);
            map.insert("type".into(), only);
        }
        return;
    }
    if let Some(Value::Array(alternatives)) = map.get("anyOf") {
        let null = serde_json::json!({ "type": "null" });
        let rest: Vec<&Value> = alternatives.iter().filter(|a| **a != null).collect();
        if rest.len() == 1 && alternatives.len() == 2 {
            let mut inner = rest[0].clone();
            map.remove("anyOf");
            if let Value::Object(inner_map) = &mut inner {
                for (k, v) in std::mem::take(map) {
                    inner_map.entry(k).or_insert(v);
                }
            }
            *schema = inner;
        }
    }
}

/// A unit enum whose variants carry doc comments is generated as `oneOf` one `const` per
/// variant; that is exactly an `enum` of the values (the branches are distinct, so one matches
/// at most), which the validator enforces. The variants' descriptions are annotations and go.
/// Titled branches stay: `oneOf` of `const` and `title` is an elicitation form's titled
/// single-select (SEP-1330), which clients show by title.
fn collapse_const_alternatives(map: &mut Map<String, Value>) {
    let Some(Value::Array(branches)) = map.get("oneOf") else {
        return;
    };
    let mut values = Vec::with_capacity(branches.len());
    let mut kind: Option<&Value> = None;
    for branch in branches {
        let Value::Object(branch) = branch else {
            return;
        };
        let Some(value) = branch.get("const") else {
            return;
        };
        let only_annotations = branch
            .keys()
            .all(|k| matches!(k.as_str(), "const" | "type" | "description"));
        let same_kind = match (kind, branch.get("type")) {
            (_, None) => false,
            (None, Some(t)) => {
                kind = Some(t);
                true
            }
            (Some(k), Some(t)) => k == t,
        };
        if !only_annotations || !same_kind || values.contains(value) {
            return;
        }
        values.push(value.clone());
    }
    let kind = kind.cloned();
    map.remove("oneOf");
    if let Some(kind) = kind {
        map.entry("type").or_insert(kind);
    }
    map.insert("enum".into(), Value::Array(values));
}

/// The input schema's root as the spec requires it, `type: "object"`: an enum whose variants
/// are all objects (internally or adjacently tagged, externally tagged struct variants, or
/// untagged struct variants) gets it written at its root. Anything else is refused, naming what
/// to take instead.
pub(crate) fn object_root(schema: &mut Value) -> Result<(), String> {
    if schema.get("type").and_then(Value::as_str) == Some("object") {
        return Ok(());
    }
    let defs = schema.get("$defs").cloned();
    let is_object = |branch: &Value| {
        let branch = match branch.get("$ref").and_then(Value::as_str) {
            Some(r) => r
                .strip_prefix("#/$defs/")
                .and_then(|name| defs.as_ref()?.get(name))
                .unwrap_or(branch),
            None => branch,
        };
        branch.get("type").and_then(Value::as_str) == Some("object")
    };
    let all_objects = ["oneOf", "anyOf"].iter().any(|key| {
        schema
            .get(*key)
            .and_then(Value::as_array)
            .is_some_and(|branches| !branches.is_empty() && branches.iter().all(is_object))
    });
    match schema {
        Value::Object(root) if all_objects => {
            root.insert("type".into(), Value::from("object"));
            Ok(())
        }
        _ => Err(
            "the input schema's root must have type \"object\" (the spec requires it): \
                  take named parameters, or `Args<T>` of a struct, or of an enum whose \
                  variants are all objects (`#[serde(tag = \"...\")]`, or struct variants)"
                .to_owned(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use schemars::JsonSchema;
    use serde_json::json;

    /// Documented variants: schemars writes `oneOf` one `const` each.
    #[derive(JsonSchema)]
    #[serde(rename_all = "lowercase")]
    #[allow(dead_code)]
    enum Unit {
        /// Degrees Celsius.
        Celsius,
        /// Degrees Fahrenheit.
        Fahrenheit,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Args {
        unit: Unit,
        maybe: Option<Unit>,
    }

    #[test]
    fn a_documented_unit_enum_is_an_enum_the_validator_enforces() {
        let schema = super::schema_for::<Args>();
        let unit = &schema["properties"]["unit"];
        assert_eq!(unit["enum"], json!(["celsius", "fahrenheit"]), "{unit}");
        assert_eq!(unit["type"], "string", "{unit}");
        assert!(unit.get("oneOf").is_none(), "{unit}");
        // The optional one may also be `null`: serde reads it as `None`.
        let maybe = &schema["properties"]["maybe"];
        assert_eq!(
            maybe["enum"],
            json!(["celsius", "fahrenheit", null]),
            "{maybe}"
        );
        assert_eq!(maybe["type"], json!(["string", "null"]), "{maybe}");
        assert!(maybe.get("anyOf").is_none(), "{maybe}");
        let compiled = crate::schema::CompiledSchema::compile(&schema).unwrap();
        assert!(compiled.validate(&json!({"unit": "celsius"})).is_ok());
        assert!(
            compiled
                .validate(&json!({"unit": "celsius", "maybe": null}))
                .is_ok()
        );
        assert!(compiled.validate(&json!({"unit": "kelvin"})).is_err());
        assert!(compiled.validate(&json!({"unit": null})).is_err());
        // A form leaves `null` out.
        let form = super::form_schema_for::<Args>();
        assert_eq!(form["properties"]["maybe"]["type"], "string");
    }

    #[test]
    fn alternatives_that_are_not_distinct_constants_stay() {
        let mut value = json!({"oneOf": [{"const": 1, "type": "integer"}, {"type": "string"}]});
        super::normalize(&mut value, true);
        assert!(value.get("oneOf").is_some());
        let mut value =
            json!({"oneOf": [{"const": 1, "type": "integer"}, {"const": "1", "type": "string"}]});
        super::normalize(&mut value, true);
        assert!(
            value.get("oneOf").is_some(),
            "mixed types keep their branches"
        );
    }
}
