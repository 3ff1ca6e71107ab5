//! JSON Schemas from Rust types, in the portable form every client can read.
//!
//! Portable means: an object root for inputs, every subschema inlined (no `$ref`/`$defs`),
//! optional fields expressed by leaving them out of `required` (never `type: [.., "null"]`),
//! and no boolean subschemas.

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
/// assert!(schema.get("$schema").is_none());
/// ```
pub fn schema_for<T: JsonSchema>() -> Value {
    generate::<T>(true)
}

/// The schema of `T` as an output: like [`schema_for`], but an `Option<T>` field keeps its
/// `null` alternative, since serde writes `None` as `null` and `structuredContent` must match.
pub(crate) fn output_schema_for<T: JsonSchema>() -> Value {
    generate::<T>(false)
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

/// Makes a generated schema portable: boolean subschemas (`true` = anything) become `{}`,
/// and an optional property (`Option<T>`, left out of `required`) loses its `null` alternative.
fn normalize(value: &mut Value, optional_by_omission: bool) {
    let Value::Object(map) = value else { return };
    collapse_const_alternatives(map);
    let required: Vec<String> = match map.get("required") {
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(|n| n.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    };
    if let Some(Value::Object(props)) = map.get_mut("properties") {
        for (name, sub) in props.iter_mut() {
            fix_bool(sub);
            if optional_by_omission && !required.contains(name) {
                drop_null_alternative(sub);
            }
            normalize(sub, optional_by_omission);
        }
    }
    if let Some(items) = map.get_mut("items") {
        fix_bool(items);
        normalize(items, optional_by_omission);
    }
    if let Some(extra @ Value::Object(_)) = map.get_mut("additionalProperties") {
        normalize(extra, optional_by_omission);
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

fn fix_bool(value: &mut Value) {
    if *value == Value::Bool(true) {
        *value = Value::Object(Map::new());
    }
}

/// Why a generated schema is not portable.
pub(crate) fn portability_defect(schema: &Value) -> Option<String> {
    fn walk(value: &Value, at: &str) -> Option<String> {
        match value {
            Value::Object(map) => {
                for key in ["$ref", "$defs", "definitions"] {
                    if map.contains_key(key) {
                        return Some(format!(
                            "{at} uses {key}; a portable schema inlines every subschema"
                        ));
                    }
                }
                for (key, sub) in map {
                    if matches!(key.as_str(), "properties") {
                        if let Value::Object(props) = sub {
                            for (name, sub) in props {
                                if let Some(defect) = walk(sub, &format!("{at}, property {name}")) {
                                    return Some(defect);
                                }
                            }
                        }
                    } else if matches!(key.as_str(), "items" | "additionalProperties")
                        && let Some(defect) = walk(sub, &format!("{at}, {key}"))
                    {
                        return Some(defect);
                    }
                }
                None
            }
            _ => None,
        }
    }
    walk(schema, "the schema")
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
        let expected = json!({"type": "string", "enum": ["celsius", "fahrenheit"]});
        for property in ["unit", "maybe"] {
            let got = &schema["properties"][property];
            assert_eq!(got["enum"], expected["enum"], "{property}: {got}");
            assert_eq!(got["type"], "string", "{property}: {got}");
            assert!(got.get("oneOf").is_none(), "{property}: {got}");
        }
        let compiled = crate::schema::CompiledSchema::compile(&schema).unwrap();
        assert!(compiled.validate(&json!({"unit": "celsius"})).is_ok());
        assert!(compiled.validate(&json!({"unit": "kelvin"})).is_err());
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
