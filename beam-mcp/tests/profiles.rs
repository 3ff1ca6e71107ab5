//! Client profiles: every tool's input schema in each profile, checked against a checker of the
//! published constraints of the model-provider dialect the profile targets, and enforced as
//! shown. The MCP clients in `tests/interop` do not validate schemas, so these checkers are
//! the evidence.
//!
//! - **Flat**, Gemini's `FunctionDeclaration.parameters`: the OpenAPI 3.0 subset of
//!   <https://ai.google.dev/api/caching#Schema> (the `Schema` message's fields are the closed
//!   list of keywords; `type` one value; `enum` of strings, on a string; formats `int32`,
//!   `int64` for integers, `float`, `double` for numbers, `enum`, `date-time` for strings).
//! - **Strict**, OpenAI's structured outputs with `strict: true`
//!   (<https://platform.openai.com/docs/guides/structured-outputs#supported-schemas>): the root
//!   an object and not `anyOf`; every object `additionalProperties: false` with every property
//!   required; the listed keywords only (`allOf`, `not`, `if`/`then`/`else`, `dependent*` are
//!   named unsupported; anything unlisted is treated so); the listed string formats; `$ref` to
//!   `#` or `#/$defs/..`; at most 10 levels of nested objects, 5000 properties, 1000 enum
//!   values.
//!
//! What a dialect cannot say keeps its portable form (`docs/wire.md`, "Client profiles"); the
//! expected findings below are exactly those, and anything else a checker finds fails.

#![allow(
    dead_code,
    reason = "the fields are read through Debug: each tool echoes what it received"
)]

use std::collections::{BTreeMap, BTreeSet};

use beam_mcp::testing::TestClient;
use beam_mcp::{Args, SchemaProfile, Server};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Shape {
    /// A circle.
    Circle {
        r: f64,
    },
    Square {
        side: u32,
    },
}

#[derive(Debug, Deserialize, JsonSchema)]
enum Op {
    Add(i64, i64),
    Reset,
    Set { value: i64 },
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
enum Event {
    Text(String),
    Pair(u8, u8),
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Id {
    Number(u64),
    Name(String),
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Tree {
    name: String,
    children: Vec<Tree>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Settings {
    max_items: u32,
    #[serde(default)]
    verbose: bool,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Job {
    name: String,
    #[serde(flatten)]
    schedule: Schedule,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Schedule {
    Once { at: String },
    Every { minutes: u32 },
}

/// A unit.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Unit {
    /// Degrees Celsius.
    Celsius,
    /// Degrees Fahrenheit.
    Fahrenheit,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Bounded {
    #[schemars(range(min = 1, max = 10))]
    n: u8,
    #[schemars(length(min = 2, max = 5))]
    s: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "command", rename_all = "snake_case")]
enum Command {
    Start { delay: u32 },
    Stop,
}

/// Takes enums in three representations.
#[beam_mcp::tool]
fn enums(shape: Shape, op: Op, event: Event, id: Id) -> String {
    format!("{shape:?} {op:?} {event:?} {id:?}")
}

/// Takes a recursive tree.
#[beam_mcp::tool]
fn tree(tree: Tree) -> String {
    format!("{tree:?}")
}

/// Takes a tuple.
#[beam_mcp::tool]
fn tuple(pair: (u8, String)) -> String {
    format!("{pair:?}")
}

/// Takes a map.
#[beam_mcp::tool]
fn map(scores: BTreeMap<String, u32>) -> String {
    format!("{scores:?}")
}

/// Takes optional values and structs with serde attributes.
#[beam_mcp::tool]
fn options(note: Option<String>, unit: Option<Unit>, settings: Settings, job: Job) -> String {
    format!("{note:?} {unit:?} {settings:?} {job:?}")
}

/// Takes bounded values.
#[beam_mcp::tool]
fn bounded(bounded: Bounded) -> String {
    format!("{bounded:?}")
}

/// Takes a whole tagged enum.
#[beam_mcp::tool]
fn command(Args(command): Args<Command>) -> String {
    format!("{command:?}")
}

fn server(configure: impl FnOnce(beam_mcp::ServerBuilder) -> beam_mcp::ServerBuilder) -> Server {
    configure(
        Server::builder()
            .tool(enums::DEF)
            .tool(tree::DEF)
            .tool(tuple::DEF)
            .tool(map::DEF)
            .tool(options::DEF)
            .tool(bounded::DEF)
            .tool(command::DEF),
    )
    .build()
    .expect("every shape is served")
}

/// Every subschema of `schema` with its JSON pointer (through every keyword that holds one).
fn subschemas<'a>(schema: &'a Value, at: String, out: &mut Vec<(String, &'a Value)>) {
    let Value::Object(map) = schema else { return };
    out.push((at.clone(), schema));
    for (key, sub) in map {
        match key.as_str() {
            "properties" | "$defs" | "patternProperties" | "dependentSchemas" => {
                for (name, s) in sub.as_object().into_iter().flatten() {
                    subschemas(s, format!("{at}/{key}/{name}"), out);
                }
            }
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                for (i, s) in sub.as_array().into_iter().flatten().enumerate() {
                    subschemas(s, format!("{at}/{key}/{i}"), out);
                }
            }
            "items"
            | "additionalProperties"
            | "not"
            | "if"
            | "then"
            | "else"
            | "contains"
            | "propertyNames"
            | "unevaluatedProperties"
            | "unevaluatedItems" => {
                subschemas(sub, format!("{at}/{key}"), out);
            }
            _ => {}
        }
    }
}

/// What Gemini's `parameters` refuses in `schema`, as `keyword` (or a named rule) per finding.
fn gemini_findings(schema: &Value) -> BTreeSet<String> {
    const FIELDS: [&str; 22] = [
        "type",
        "format",
        "title",
        "description",
        "nullable",
        "enum",
        "items",
        "maxItems",
        "minItems",
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "pattern",
        "example",
        "anyOf",
        "propertyOrdering",
        "default",
    ];
    const TYPES: [&str; 7] = [
        "string", "number", "integer", "boolean", "array", "object", "null",
    ];
    let mut all = Vec::new();
    subschemas(schema, String::new(), &mut all);
    let mut findings = BTreeSet::new();
    for (_, node) in all {
        let map = node.as_object().expect("a subschema is an object");
        for key in map.keys() {
            if !FIELDS.contains(&key.as_str()) {
                findings.insert(key.clone());
            }
        }
        let kind = map.get("type");
        match kind {
            Some(Value::String(t)) if TYPES.contains(&t.as_str()) => {}
            Some(_) => {
                findings.insert("type not one of Gemini's types".into());
            }
            None => {}
        }
        if let Some(Value::Array(values)) = map.get("enum")
            && (kind != Some(&json!("string")) || !values.iter().all(Value::is_string))
        {
            findings.insert("enum not of strings on a string".into());
        }
        if let Some(format) = map.get("format").and_then(Value::as_str) {
            let allowed: &[&str] = match kind.and_then(Value::as_str) {
                Some("integer") => &["int32", "int64"],
                Some("number") => &["float", "double"],
                Some("string") => &["enum", "date-time"],
                _ => &[],
            };
            if !allowed.contains(&format) {
                findings.insert(format!("format {format}"));
            }
        }
    }
    findings
}

/// What OpenAI's strict mode refuses in `schema`.
fn openai_strict_findings(schema: &Value) -> BTreeSet<String> {
    const KEYWORDS: [&str; 19] = [
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "const",
        "anyOf",
        "$defs",
        "$ref",
        "description",
        "pattern",
        "format",
        "multipleOf",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minItems",
    ];
    const FORMATS: [&str; 9] = [
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
    let mut findings = BTreeSet::new();
    if schema.get("type") != Some(&json!("object")) || schema.get("anyOf").is_some() {
        findings.insert("root not an object without anyOf".into());
    }
    let mut all = Vec::new();
    subschemas(schema, String::new(), &mut all);
    let mut properties_total = 0;
    let mut enum_values = 0;
    for (at, node) in &all {
        let map = node.as_object().expect("a subschema is an object");
        for key in map.keys() {
            if !KEYWORDS.contains(&key.as_str()) && key != "maxItems" {
                findings.insert(key.clone());
            }
        }
        let is_object = map.get("type") == Some(&json!("object")) || map.contains_key("properties");
        if is_object {
            let names: BTreeSet<&str> = map
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| p.keys().map(String::as_str).collect())
                .unwrap_or_default();
            properties_total += names.len();
            let required: BTreeSet<&str> = map
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            if !names.is_subset(&required) {
                findings.insert("an object property not required".into());
            }
            match map.get("additionalProperties") {
                Some(Value::Bool(false)) => {}
                Some(Value::Object(_)) => {
                    findings.insert("additionalProperties a schema (a map)".into());
                }
                _ => {
                    findings.insert("an object without additionalProperties: false".into());
                }
            }
        }
        if let Some(format) = map.get("format").and_then(Value::as_str)
            && !FORMATS.contains(&format)
        {
            findings.insert(format!("format {format}"));
        }
        if let Some(reference) = map.get("$ref").and_then(Value::as_str)
            && reference != "#"
            && !reference.starts_with("#/$defs/")
        {
            findings.insert(format!("$ref {reference}"));
        }
        if let Some(Value::Array(values)) = map.get("enum") {
            enum_values += values.len();
        }
        let depth = at.matches("/properties/").count();
        if depth > 10 {
            findings.insert("nested past 10 levels".into());
        }
    }
    if properties_total > 5000 {
        findings.insert("more than 5000 properties".into());
    }
    if enum_values > 1000 {
        findings.insert("more than 1000 enum values".into());
    }
    findings
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

/// Each tool's input schema as a client named `beam-mcp-testing` is shown it in `profile`,
/// at 2026-07-28 (the name in each request's `_meta`) and at 2025-11-25 (from `initialize`),
/// which must agree.
async fn listed(profile: SchemaProfile) -> BTreeMap<String, Value> {
    let configure =
        |b: beam_mcp::ServerBuilder| b.client_schema_profile("beam-mcp-testing", profile);
    let mut modern = TestClient::new(server(configure));
    let mut legacy = TestClient::legacy(server(configure)).await.unwrap();
    let schemas = |tools: Vec<beam_mcp::testing::ListedTool>| -> BTreeMap<String, Value> {
        tools
            .into_iter()
            .map(|t| (t.name, t.input_schema))
            .collect()
    };
    let shown = schemas(modern.list_tools().await.unwrap());
    assert_eq!(shown, schemas(legacy.list_tools().await.unwrap()));
    shown
}

#[tokio::test]
async fn the_flat_profile_meets_geminis_parameters_but_for_what_it_cannot_say() {
    let findings: BTreeMap<String, BTreeSet<String>> = listed(SchemaProfile::Flat)
        .await
        .into_iter()
        .map(|(name, schema)| (name, gemini_findings(&schema)))
        .filter(|(_, found)| !found.is_empty())
        .collect();
    let expected: BTreeMap<String, BTreeSet<String>> = [
        // Recursion has no flat form: it keeps `$defs`.
        ("tree", set(&["$defs", "$ref"])),
        // A tuple, alone or in a variant: positions have no OpenAPI 3.0 form.
        ("tuple", set(&["prefixItems"])),
        ("enums", set(&["prefixItems"])),
        // A map: no `additionalProperties` in Gemini's `Schema`.
        ("map", set(&["additionalProperties"])),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    assert_eq!(findings, expected);
}

#[tokio::test]
async fn the_strict_profile_meets_openais_strict_mode_but_for_what_it_cannot_say() {
    let findings: BTreeMap<String, BTreeSet<String>> = listed(SchemaProfile::Strict)
        .await
        .into_iter()
        .map(|(name, schema)| (name, openai_strict_findings(&schema)))
        .filter(|(_, found)| !found.is_empty())
        .collect();
    let expected: BTreeMap<String, BTreeSet<String>> = [
        // Tuples (not in OpenAI's published list), alone or in a variant.
        ("tuple", set(&["prefixItems"])),
        ("enums", set(&["prefixItems"])),
        ("map", set(&["additionalProperties a schema (a map)"])),
        ("bounded", set(&["minLength", "maxLength"])),
        // A whole enum as the arguments: the root is alternatives, which MCP also requires
        // to say `type: "object"`.
        (
            "command",
            set(&[
                "root not an object without anyOf",
                "an object without additionalProperties: false",
            ]),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    assert_eq!(findings, expected);
}

/// The portable profile is what the profiles change: it is shown unchanged to a client no
/// profile names, and Gemini's checker finds its `type` arrays and `const`s (so the checker is
/// not vacuous).
#[tokio::test]
async fn a_client_no_profile_names_is_shown_the_portable_form() {
    let mut other = TestClient::new(server(|b| {
        b.client_schema_profile("some-other-client", SchemaProfile::Flat)
    }));
    let portable = TestClient::new(server(|b| b));
    let mut portable = portable;
    let shown = other.list_tools().await.unwrap();
    assert_eq!(
        shown.iter().map(|t| &t.input_schema).collect::<Vec<_>>(),
        portable
            .list_tools()
            .await
            .unwrap()
            .iter()
            .map(|t| &t.input_schema)
            .collect::<Vec<_>>()
    );
    let options = shown.iter().find(|t| t.name == "options").unwrap();
    let found = gemini_findings(&options.input_schema);
    assert!(
        found.contains("type not one of Gemini's types"),
        "{found:?}"
    );
    assert!(!openai_strict_findings(&options.input_schema).is_empty());
}

/// What a client is shown is what it is held to: in the strict form an `Option` must be sent
/// (as `null` when absent) and a defaulted field too; in the flat form `nullable` lets `null`
/// through; a value the form refuses is a tool error naming it, before host code.
#[tokio::test]
async fn each_form_is_enforced_as_shown() {
    let settings = json!({"maxItems": 3, "verbose": false});
    let job = json!({"name": "a", "type": "once", "at": "noon"});
    let mut strict = TestClient::new(server(|b| b.schema_profile(SchemaProfile::Strict)));
    let all = json!({"note": null, "unit": "celsius", "settings": settings, "job": job});
    let answer = strict.call_tool("options", all).await.unwrap();
    assert!(!answer.is_error, "{}", answer.text());
    assert!(
        answer.text().starts_with("None Some(Celsius)"),
        "{}",
        answer.text()
    );
    let left_out = json!({"unit": null, "settings": settings, "job": job});
    let refused = strict.call_tool("options", left_out).await.unwrap();
    assert!(refused.is_error);
    assert!(refused.text().contains("note"), "{}", refused.text());
    let no_default = json!({"note": null, "unit": null, "settings": {"maxItems": 3}, "job": job});
    let refused = strict.call_tool("options", no_default).await.unwrap();
    assert!(refused.is_error);
    assert!(refused.text().contains("verbose"), "{}", refused.text());
    let extra = json!({"note": null, "unit": null, "settings": settings,
        "job": {"name": "a", "type": "once", "at": "noon", "other": 1}});
    let refused = strict.call_tool("options", extra).await.unwrap();
    assert!(
        refused.is_error,
        "a strict object is closed: {}",
        refused.text()
    );

    let mut flat = TestClient::new(server(|b| b.schema_profile(SchemaProfile::Flat)));
    let answer = flat
        .call_tool(
            "options",
            json!({"unit": null, "settings": {"maxItems": 1}, "job": job}),
        )
        .await
        .unwrap();
    assert!(!answer.is_error, "{}", answer.text());
    let refused = flat
        .call_tool(
            "options",
            json!({"unit": "kelvin", "settings": {"maxItems": 1}, "job": job}),
        )
        .await
        .unwrap();
    assert!(refused.is_error);
    assert!(refused.text().contains("unit"), "{}", refused.text());
    // Loosened where serde still refuses: an unknown field of a `deny_unknown_fields` struct
    // passes the flat form (Gemini has no `additionalProperties`) and is refused by serde,
    // before host code, as a tool error.
    let refused = flat
        .call_tool(
            "options",
            json!({"settings": {"maxItems": 1, "other": true}, "job": job}),
        )
        .await
        .unwrap();
    assert!(refused.is_error);
    assert!(refused.text().contains("other"), "{}", refused.text());
}
