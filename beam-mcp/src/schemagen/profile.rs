//! Client profiles: the form a tool's input schema takes for one kind of client, derived once
//! from the portable form when the catalog is built. A profile changes the form only: the set
//! of tools is the same, and what a client is shown is what its arguments are checked against.

use serde_json::{Map, Value};

/// The form of the tools' `inputSchema` a client is shown, and its arguments are checked
/// against. Chosen on the builder for every client ([`ServerBuilder::schema_profile`]) or by
/// the client's `clientInfo.name` ([`ServerBuilder::client_schema_profile`]); derived once per
/// catalog, never per request.
///
/// | profile | for | form |
/// | --- | --- | --- |
/// | `Portable` (default) | every MCP client | JSON Schema 2020-12; every subschema inlined except where recursion needs `$defs`; `Option<T>` as `type: [T, "null"]` |
/// | `Flat` | model providers that take the OpenAPI 3.0 subset (Gemini's `FunctionDeclaration.parameters`) | no `type` arrays (`nullable: true`), no `const` (a one-value `enum`), `anyOf` for `oneOf`, no `additionalProperties: false`, no annotations but `title`, `description` and `default`, formats only `int32`, `int64`, `float`, `double`, `date-time` |
/// | `Strict` | strict structured outputs (OpenAI `strict: true`) | every object closed (`additionalProperties: false`) with every property required (an `Option` is sent as `null`, a defaulted field always sent); `anyOf` for `oneOf`; a one-value `enum` for `const`; the string formats OpenAI lists and no other annotation but `description` |
///
/// Every form keeps `x-mcp-header`, the one `x-` key that is protocol rather than description.
/// What a dialect cannot say keeps its portable form, and the docs say so (`docs/wire.md`,
/// "Client profiles"): a recursive type keeps `$defs` and `$ref`, a map its
/// `additionalProperties`, a tuple its `prefixItems`.
///
/// Enforcement follows the form: a `Flat` schema's `nullable` is read by its OpenAPI meaning
/// (the value may also be `null`); a loosening (`anyOf` for `oneOf`, an open object) lets a
/// value past the schema only where serde, which reads the arguments next, refuses it before
/// host code runs (a tool error, as every refusal).
///
/// [`ServerBuilder::schema_profile`]: crate::ServerBuilder::schema_profile
/// [`ServerBuilder::client_schema_profile`]: crate::ServerBuilder::client_schema_profile
///
/// ```
/// use beam_mcp::SchemaProfile;
/// use serde_json::json;
///
/// let portable = json!({
///     "type": "object",
///     "properties": {"note": {"type": ["string", "null"]}, "n": {"type": "integer", "format": "uint8"}},
///     "required": ["n"],
/// });
/// let strict = SchemaProfile::Strict.form(&portable);
/// assert_eq!(strict["required"], json!(["n", "note"]));
/// assert_eq!(strict["additionalProperties"], false);
/// let flat = SchemaProfile::Flat.form(&portable);
/// assert_eq!(flat["properties"]["note"], json!({"type": "string", "nullable": true}));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SchemaProfile {
    /// JSON Schema 2020-12 as the macros generate it: what every MCP client reads.
    #[default]
    Portable,
    /// The OpenAPI 3.0 subset of Gemini's function declarations.
    Flat,
    /// The strict mode of OpenAI's structured outputs.
    Strict,
}

/// Which profile each client is shown: one for every client, and others by `clientInfo.name`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Profiles {
    pub(crate) default: SchemaProfile,
    /// Exact client names, each with its profile.
    pub(crate) by_client: Vec<(String, SchemaProfile)>,
}

impl Profiles {
    /// The profiles some client may be shown, other than `Portable` (the form every tool has).
    pub(crate) fn derived(&self) -> Vec<SchemaProfile> {
        let mut derived: Vec<SchemaProfile> = std::iter::once(self.default)
            .chain(self.by_client.iter().map(|(_, p)| *p))
            .filter(|p| *p != SchemaProfile::Portable)
            .collect();
        derived.sort_by_key(|p| *p as u8);
        derived.dedup();
        derived
    }

    /// The profile of the client named `name` (`None`: it sent no name).
    pub(crate) fn for_client(&self, name: Option<&str>) -> SchemaProfile {
        name.and_then(|name| self.by_client.iter().find(|(n, _)| n == name))
            .map_or(self.default, |(_, p)| *p)
    }

    /// True when every client is shown the same form (nothing to look up per request).
    pub(crate) fn is_uniform(&self) -> bool {
        self.by_client.is_empty()
    }
}

/// The string formats OpenAI's strict mode lists.
const STRICT_FORMATS: [&str; 9] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// The formats Gemini's `Schema` lists (`int32`, `int64` for integers, `float`, `double` for
/// numbers, `date-time` for strings).
const FLAT_FORMATS: [&str; 5] = ["int32", "int64", "float", "double", "date-time"];

impl SchemaProfile {
    /// The form of the portable input schema `portable` in this profile (a copy; `Portable`
    /// gives it back as it is).
    pub fn form(self, portable: &Value) -> Value {
        let mut schema = portable.clone();
        match self {
            SchemaProfile::Portable => {}
            SchemaProfile::Flat => each_schema(&mut schema, &mut flatten_node),
            SchemaProfile::Strict => {
                each_schema(&mut schema, &mut strict_node);
                // MCP requires an object root, which alternatives of objects alone would not say.
                if let Value::Object(root) = &mut schema {
                    root.entry("type").or_insert_with(|| Value::from("object"));
                }
            }
        }
        schema
    }

    /// The schema arguments are checked against when a client is shown `form`: the form
    /// itself, with a `Flat` form's `nullable` written as 2020-12 says it.
    pub(crate) fn enforced(self, form: &Value) -> Value {
        let mut schema = form.clone();
        if self == SchemaProfile::Flat {
            each_schema(&mut schema, &mut |map| {
                if map.remove("nullable") == Some(Value::Bool(true)) {
                    let rest = std::mem::take(map);
                    map.insert(
                        "anyOf".into(),
                        serde_json::json!([{ "type": "null" }, Value::Object(rest)]),
                    );
                }
            });
        }
        schema
    }
}

/// How deep [`each_schema`] descends: a generated schema is a few levels deep, and a
/// hand-written one (`ToolDef::with_input_schema`) deeper than this is left as written below
/// it, rather than recursing until the stack runs out at `build()`.
const MAX_FORM_DEPTH: usize = 256;

/// Calls `visit` on every subschema of `schema`, each after its own subschemas (so a rewrite
/// of a node sees its children already rewritten, and is not walked again).
fn each_schema(schema: &mut Value, visit: &mut dyn FnMut(&mut Map<String, Value>)) {
    each_schema_at(schema, visit, 0);
}

fn each_schema_at(
    schema: &mut Value,
    visit: &mut dyn FnMut(&mut Map<String, Value>),
    depth: usize,
) {
    if depth > MAX_FORM_DEPTH {
        return;
    }
    let Value::Object(map) = schema else { return };
    for (key, sub) in map.iter_mut() {
        match key.as_str() {
            "properties" | "patternProperties" | "$defs" | "dependentSchemas" => {
                if let Value::Object(named) = sub {
                    for sub in named.values_mut() {
                        each_schema_at(sub, visit, depth + 1);
                    }
                }
            }
            "prefixItems" | "allOf" | "anyOf" | "oneOf" => {
                if let Value::Array(list) = sub {
                    for sub in list.iter_mut() {
                        each_schema_at(sub, visit, depth + 1);
                    }
                }
            }
            "items"
            | "contains"
            | "not"
            | "if"
            | "then"
            | "else"
            | "propertyNames"
            | "additionalProperties"
            | "unevaluatedProperties"
            | "unevaluatedItems" => {
                each_schema_at(sub, visit, depth + 1);
            }
            _ => {}
        }
    }
    visit(map);
}

/// `oneOf` as `anyOf` (merged into an `anyOf` already there), `const` as a one-value `enum`.
fn common_rewrites(map: &mut Map<String, Value>) {
    if let Some(Value::Array(branches)) = map.remove("oneOf") {
        match map.get_mut("anyOf") {
            // Both at once: each must hold, so the `oneOf` goes under an `allOf` unchanged.
            Some(_) => {
                map.insert("allOf".into(), serde_json::json!([{ "anyOf": branches }]));
            }
            None => {
                map.insert("anyOf".into(), Value::Array(branches));
            }
        }
    }
    if let Some(constant) = map.remove("const") {
        map.insert("enum".into(), Value::Array(vec![constant]));
    }
}

/// Keeps only the annotations in `kept`, and a `format` in `formats`. Of the `x-` keys only
/// `x-mcp-header` stays: it is protocol, not description (over HTTP at 2026-07-28 a client must
/// mirror that argument in its `Mcp-Param-*` header, and is refused without it).
fn keep_annotations(map: &mut Map<String, Value>, kept: &[&str], formats: &[&str]) {
    const ANNOTATIONS: [&str; 9] = [
        "title",
        "description",
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$comment",
        "format",
    ];
    map.retain(|key, value| {
        if key.starts_with("x-") {
            return key == "x-mcp-header";
        }
        if key == "format" {
            return value.as_str().is_some_and(|f| formats.contains(&f));
        }
        !ANNOTATIONS.contains(&key.as_str()) || kept.contains(&key.as_str())
    });
}

fn flatten_node(map: &mut Map<String, Value>) {
    common_rewrites(map);
    keep_annotations(map, &["title", "description", "default"], &FLAT_FORMATS);
    if map.get("additionalProperties") == Some(&Value::Bool(false)) {
        map.remove("additionalProperties");
    }
    // `type: [T, "null"]`: `type: T` and `nullable`; `null` leaves the `enum` (a Gemini enum
    // holds strings), `nullable` lets it through.
    if let Some(Value::Array(types)) = map.get("type") {
        let others: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        if others.len() == 1 && types.len() == 2 {
            map.insert("type".into(), others.into_iter().next().expect("one type"));
            map.insert("nullable".into(), Value::Bool(true));
            if let Some(Value::Array(values)) = map.get_mut("enum") {
                values.retain(|v| !v.is_null());
            }
        }
    }
}

fn strict_node(map: &mut Map<String, Value>) {
    common_rewrites(map);
    keep_annotations(map, &["description"], &STRICT_FORMATS);
    distribute_properties(map);
    close(map);
    // Alternatives that are each a closed object say the type: an object beside them would
    // be one without `additionalProperties: false`, which strict mode refuses.
    let alternatives_are_objects =
        map.get("anyOf")
            .and_then(Value::as_array)
            .is_some_and(|branches| {
                !branches.is_empty()
                    && branches
                        .iter()
                        .all(|b| b.get("type") == Some(&Value::from("object")))
            });
    if alternatives_are_objects
        && !map.contains_key("properties")
        && map.get("type") == Some(&Value::from("object"))
    {
        map.remove("type");
    }
}

/// Every property required, no other property allowed (a map's value schema stays).
fn close(map: &mut Map<String, Value>) {
    let Some(Value::Object(properties)) = map.get("properties") else {
        return;
    };
    let names: Vec<Value> = properties.keys().cloned().map(Value::String).collect();
    map.insert("required".into(), Value::Array(names));
    match map.get("additionalProperties") {
        // A map's value schema has no strict form: it stays (docs/wire.md).
        Some(Value::Object(_)) => {}
        _ => {
            map.insert("additionalProperties".into(), Value::Bool(false));
        }
    }
}

/// An object with properties beside alternatives that add their own (serde's `flatten` of a
/// tagged enum): each alternative gets the shared properties, so that each can be closed. A
/// closed root would refuse the alternatives' properties. Left as it is when an alternative is
/// not an object with properties (it then stays open).
fn distribute_properties(map: &mut Map<String, Value>) {
    let Some(Value::Array(branches)) = map.get("anyOf") else {
        return;
    };
    let Some(Value::Object(shared)) = map.get("properties") else {
        return;
    };
    let all_objects = branches
        .iter()
        .all(|b| b.get("properties").is_some_and(Value::is_object) && b.get("$ref").is_none());
    if !all_objects {
        return;
    }
    let shared = shared.clone();
    let Some(Value::Array(branches)) = map.get_mut("anyOf") else {
        return;
    };
    for branch in branches.iter_mut() {
        let Some(Value::Object(properties)) = branch.get_mut("properties") else {
            continue;
        };
        for (name, schema) in &shared {
            properties
                .entry(name.clone())
                .or_insert_with(|| schema.clone());
        }
        if let Value::Object(branch) = branch {
            branch.insert("type".into(), Value::from("object"));
            close(branch);
        }
    }
    map.remove("properties");
    map.remove("required");
    map.remove("additionalProperties");
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::SchemaProfile;
    use crate::schema::CompiledSchema;

    #[test]
    fn a_flat_nullable_is_enforced_as_its_openapi_meaning() {
        let portable = json!({
            "type": "object",
            "properties": {"unit": {"type": ["string", "null"], "enum": ["c", "f", null]}},
        });
        let flat = SchemaProfile::Flat.form(&portable);
        assert_eq!(
            flat["properties"]["unit"],
            json!({"type": "string", "nullable": true, "enum": ["c", "f"]})
        );
        let enforced =
            CompiledSchema::compile(&SchemaProfile::Flat.enforced(&flat)).expect("2020-12");
        for ok in [json!({"unit": "c"}), json!({"unit": null}), json!({})] {
            assert!(enforced.validate(&ok).is_ok(), "{ok}");
        }
        for bad in [json!({"unit": "k"}), json!({"unit": 1})] {
            assert!(enforced.validate(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn strict_requires_every_property_and_closes_every_object_but_a_map() {
        let portable = json!({
            "type": "object",
            "properties": {
                "scores": {"type": "object", "additionalProperties": {"type": "integer"}},
                "inner": {"type": "object", "properties": {"a": {"type": "string", "default": "x"}}},
            },
            "required": ["scores"],
        });
        let strict = SchemaProfile::Strict.form(&portable);
        assert_eq!(strict["required"], json!(["inner", "scores"]));
        assert_eq!(strict["additionalProperties"], false);
        assert_eq!(
            strict["properties"]["inner"],
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false})
        );
        assert_eq!(
            strict["properties"]["scores"]["additionalProperties"],
            json!({"type": "integer"})
        );
    }

    #[test]
    fn a_hand_written_schema_deeper_than_the_walk_is_left_as_written_below_it() {
        let mut schema = json!({"type": "string", "x-note": "deepest"});
        for _ in 0..300 {
            schema = json!({ "items": schema });
        }
        let form = SchemaProfile::Strict.form(&schema);
        let mut node = &form;
        let mut depth = 0;
        while let Some(next) = node.get("items") {
            node = next;
            depth += 1;
        }
        assert_eq!(depth, 300);
        assert_eq!(node["x-note"], "deepest", "below the walk, as written");
        // Above the bound the walk ran: an annotation there is gone.
        let mut shallow = json!({"type": "string", "x-note": "gone"});
        for _ in 0..10 {
            shallow = json!({ "items": shallow });
        }
        let form = SchemaProfile::Strict.form(&shallow);
        assert!(!form.to_string().contains("x-note"), "{form}");
    }

    #[test]
    fn a_header_mirror_stays_in_every_form() {
        let portable = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region", "x-note": "gone"}}});
        for profile in [SchemaProfile::Flat, SchemaProfile::Strict] {
            let region = &profile.form(&portable)["properties"]["region"];
            assert_eq!(region["x-mcp-header"], "Region", "{profile:?}");
            assert!(region.get("x-note").is_none(), "{profile:?}");
        }
    }

    #[test]
    fn one_of_becomes_any_of_and_const_a_one_value_enum() {
        let portable = json!({"oneOf": [{"const": "a"}, {"const": "b"}], "type": "string",
            "x-other": 1});
        for profile in [SchemaProfile::Flat, SchemaProfile::Strict] {
            let form = profile.form(&portable);
            assert_eq!(
                form,
                json!({"anyOf": [{"enum": ["a"]}, {"enum": ["b"]}], "type": "string"}),
                "{profile:?}"
            );
        }
        assert_eq!(SchemaProfile::Portable.form(&portable), portable);
    }
}
