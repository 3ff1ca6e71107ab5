//! The classification table (every kind of change with its class and words), and property
//! tests of the schema comparison both ways: a generated narrowing is always breaking, a
//! generated widening never is.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::{Class, classify};

fn export(tools: Value, resources: Value, templates: Value, prompts: Value) -> Value {
    json!({ "revision": "2026-07-28", "tools": tools, "resources": resources,
        "resourceTemplates": templates, "prompts": prompts })
}

fn tools(tools: Value) -> Value {
    export(tools, json!([]), json!([]), json!([]))
}

/// A tool `t` taking `input`, with `extra` members merged in.
fn tool(input: Value, extra: Value) -> Value {
    let mut tool = json!({ "name": "t", "description": "d", "inputSchema": input });
    for (k, v) in extra.as_object().unwrap() {
        tool[k] = v.clone();
    }
    tool
}

fn object(properties: Value, required: &[&str]) -> Value {
    json!({ "type": "object", "properties": properties, "required": required, "additionalProperties": false })
}

fn place() -> Value {
    object(json!({ "place": { "type": "string" } }), &["place"])
}

fn with(properties: Value, required: &[&str]) -> Value {
    tools(json!([tool(object(properties, required), json!({}))]))
}

/// The classes and words of each change, in order.
fn seen(old: &Value, new: &Value) -> Vec<(Class, String)> {
    classify(old, new)
        .into_iter()
        .map(|c| (c.class, format!("{}: {}", c.item, c.what)))
        .collect()
}

/// A case of the table: what changes, the export before and after, the changes expected.
type Row = (&'static str, Value, Value, Vec<(Class, &'static str)>);

#[test]
fn every_kind_of_change_is_classified() {
    use Class::{Additive as A, Breaking as B, Cosmetic as C};
    let base = tools(json!([tool(place(), json!({}))]));
    let t = |input: Value, extra: Value| tools(json!([tool(input, extra)]));
    let prompt = |args: Value| {
        export(
            json!([]),
            json!([]),
            json!([]),
            json!([{ "name": "p", "arguments": args }]),
        )
    };
    let resource = |extra: Value| {
        let mut r = json!({ "uri": "a://r", "name": "r", "mimeType": "text/plain" });
        for (k, v) in extra.as_object().unwrap() {
            r[k] = v.clone();
        }
        export(json!([]), json!([r]), json!([]), json!([]))
    };
    let output = |schema: Value| t(place(), json!({ "outputSchema": schema }));
    let number = |extra: Value| {
        let mut n = json!({ "type": "number" });
        for (k, v) in extra.as_object().unwrap() {
            n[k] = v.clone();
        }
        with(json!({ "n": n }), &["n"])
    };
    let string = |extra: Value| {
        let mut s = json!({ "type": "string" });
        for (k, v) in extra.as_object().unwrap() {
            s[k] = v.clone();
        }
        with(json!({ "s": s }), &["s"])
    };
    let out_ab = json!({ "type": "object", "properties": { "a": { "type": "number" }, "b": { "type": "string" } }, "required": ["a", "b"] });
    let out_a =
        json!({ "type": "object", "properties": { "a": { "type": "number" } }, "required": ["a"] });
    let defs = |leaf: &str| {
        t(
            json!({ "type": "object", "properties": { "x": { "$ref": "#/$defs/X" } }, "$defs": { "X": { "type": leaf } } }),
            json!({}),
        )
    };
    let rows: Vec<Row> = vec![
        (
            "a tool removed",
            base.clone(),
            tools(json!([])),
            vec![(B, "tool t: removed")],
        ),
        (
            "a tool added",
            tools(json!([])),
            base.clone(),
            vec![(A, "tool t: added")],
        ),
        (
            "a description",
            base.clone(),
            t(place(), json!({ "description": "e" })),
            vec![(C, "tool t: description changed")],
        ),
        (
            "a title",
            base.clone(),
            t(place(), json!({ "title": "T" })),
            vec![(C, "tool t: title changed")],
        ),
        (
            "an icon",
            base.clone(),
            t(place(), json!({ "icons": [{ "src": "data:," }] })),
            vec![(C, "tool t: icons changed")],
        ),
        (
            "a required argument added",
            base.clone(),
            with(
                json!({ "place": { "type": "string" }, "units": { "type": "string" } }),
                &["place", "units"],
            ),
            vec![
                (B, "tool t: argument units: required now"),
                (A, "tool t: argument units: accepted nothing before"),
            ],
        ),
        (
            "an optional argument added",
            base.clone(),
            with(
                json!({ "place": { "type": "string" }, "units": { "type": "string" } }),
                &["place"],
            ),
            vec![(A, "tool t: argument units: accepted nothing before")],
        ),
        (
            "an argument removed",
            with(
                json!({ "place": { "type": "string" }, "units": { "type": "string" } }),
                &["place"],
            ),
            base.clone(),
            vec![(B, "tool t: argument units: accepts nothing now")],
        ),
        (
            "number narrowed to integer",
            number(json!({})),
            with(json!({ "n": { "type": "integer" } }), &["n"]),
            vec![(B, "tool t: argument n: type integer (was number)")],
        ),
        (
            "integer widened to number",
            with(json!({ "n": { "type": "integer" } }), &["n"]),
            number(json!({})),
            vec![(A, "tool t: argument n: type number (was integer)")],
        ),
        (
            "null allowed",
            string(json!({})),
            with(json!({ "s": { "type": ["string", "null"] } }), &["s"]),
            vec![(A, "tool t: argument s: type string | null (was string)")],
        ),
        (
            "an enum value removed",
            string(json!({ "enum": ["a", "b"] })),
            string(json!({ "enum": ["a"] })),
            vec![(B, "tool t: argument s: enum lost a value")],
        ),
        (
            "an enum value added",
            string(json!({ "enum": ["a"] })),
            string(json!({ "enum": ["a", "b"] })),
            vec![(A, "tool t: argument s: enum gained a value")],
        ),
        (
            "a minimum raised",
            number(json!({ "minimum": 0 })),
            number(json!({ "minimum": 1 })),
            vec![(B, "tool t: argument n: minimum 0 → 1")],
        ),
        (
            "a maximum raised",
            number(json!({ "maximum": 5 })),
            number(json!({ "maximum": 9 })),
            vec![(A, "tool t: argument n: maximum 5 → 9")],
        ),
        (
            "a maximum added",
            number(json!({})),
            number(json!({ "exclusiveMaximum": 9 })),
            vec![(B, "tool t: argument n: exclusiveMaximum 9 added")],
        ),
        (
            "a multipleOf tightened",
            number(json!({ "multipleOf": 2 })),
            number(json!({ "multipleOf": 4 })),
            vec![(B, "tool t: argument n: multipleOf 2 → 4")],
        ),
        (
            "a multipleOf loosened",
            number(json!({ "multipleOf": 4 })),
            number(json!({ "multipleOf": 2 })),
            vec![(A, "tool t: argument n: multipleOf 4 → 2")],
        ),
        (
            "a maxLength lowered",
            string(json!({ "maxLength": 9 })),
            string(json!({ "maxLength": 3 })),
            vec![(B, "tool t: argument s: maxLength 9 → 3")],
        ),
        (
            "a pattern added",
            string(json!({})),
            string(json!({ "pattern": "^a" })),
            vec![(B, "tool t: argument s: pattern added")],
        ),
        (
            "a pattern removed",
            string(json!({ "pattern": "^a" })),
            string(json!({})),
            vec![(A, "tool t: argument s: pattern removed")],
        ),
        (
            "a const added",
            string(json!({})),
            string(json!({ "const": "a" })),
            vec![(B, "tool t: argument s: const added")],
        ),
        (
            "required made optional",
            base.clone(),
            with(json!({ "place": { "type": "string" } }), &[]),
            vec![(A, "tool t: argument place: optional now")],
        ),
        (
            "an argument's description",
            string(json!({})),
            string(json!({ "description": "x" })),
            vec![(C, "tool t: argument s: description changed")],
        ),
        (
            "a format (an annotation)",
            string(json!({})),
            string(json!({ "format": "date" })),
            vec![(C, "tool t: argument s: format changed")],
        ),
        (
            "an array's items widened",
            with(
                json!({ "a": { "type": "array", "items": { "type": "integer" } } }),
                &["a"],
            ),
            with(
                json!({ "a": { "type": "array", "items": { "type": "number" } } }),
                &["a"],
            ),
            vec![(A, "tool t: argument a.[]: type number (was integer)")],
        ),
        (
            "items made unique",
            with(json!({ "a": { "type": "array" } }), &["a"]),
            with(
                json!({ "a": { "type": "array", "uniqueItems": true } }),
                &["a"],
            ),
            vec![(B, "tool t: argument a: items must be unique now")],
        ),
        (
            "a minItems lowered",
            with(json!({ "a": { "type": "array", "minItems": 2 } }), &["a"]),
            with(json!({ "a": { "type": "array", "minItems": 1 } }), &["a"]),
            vec![(A, "tool t: argument a: minItems 2 → 1")],
        ),
        (
            "an anyOf option added",
            with(json!({ "v": { "anyOf": [{ "type": "string" }] } }), &["v"]),
            with(
                json!({ "v": { "anyOf": [{ "type": "string" }, { "type": "null" }] } }),
                &["v"],
            ),
            vec![(A, "tool t: argument v: anyOf gained an option")],
        ),
        (
            "an anyOf option removed",
            with(
                json!({ "v": { "anyOf": [{ "type": "string" }, { "type": "null" }] } }),
                &["v"],
            ),
            with(json!({ "v": { "anyOf": [{ "type": "string" }] } }), &["v"]),
            vec![(B, "tool t: argument v: anyOf lost an option")],
        ),
        (
            "a definition narrowed through $ref",
            defs("number"),
            defs("integer"),
            vec![(B, "tool t: argument x: type integer (was number)")],
        ),
        (
            "an output field removed",
            output(out_ab.clone()),
            output(out_a.clone()),
            vec![
                (B, "tool t: output b: optional now"),
                (B, "tool t: output b: any type now (was string)"),
            ],
        ),
        (
            "an output field added",
            output(out_a.clone()),
            output(out_ab.clone()),
            vec![
                (A, "tool t: output b: type string now"),
                (A, "tool t: output b: required now"),
            ],
        ),
        (
            "an output schema removed",
            output(out_a.clone()),
            base.clone(),
            vec![(B, "tool t: output schema removed")],
        ),
        (
            "an output schema added",
            base.clone(),
            output(out_a.clone()),
            vec![(A, "tool t: output schema added")],
        ),
        (
            "read-only to destructive",
            t(place(), json!({ "annotations": { "readOnlyHint": true } })),
            t(
                place(),
                json!({ "annotations": { "destructiveHint": true } }),
            ),
            vec![
                (B, "tool t: no longer read-only"),
                (B, "tool t: no longer non-destructive"),
                (B, "tool t: no longer idempotent"),
            ],
        ),
        (
            "made idempotent",
            base.clone(),
            t(
                place(),
                json!({ "annotations": { "idempotentHint": true } }),
            ),
            vec![(A, "tool t: idempotent now")],
        ),
        (
            "now open-world",
            t(
                place(),
                json!({ "annotations": { "openWorldHint": false } }),
            ),
            base.clone(),
            vec![(B, "tool t: no longer closed-world")],
        ),
        (
            "a task required",
            base.clone(),
            t(
                place(),
                json!({ "execution": { "taskSupport": "required" } }),
            ),
            vec![(B, "tool t: task support forbidden → required")],
        ),
        (
            "a task allowed",
            base.clone(),
            t(
                place(),
                json!({ "execution": { "taskSupport": "optional" } }),
            ),
            vec![(A, "tool t: task support forbidden → optional")],
        ),
        (
            "a resource removed",
            resource(json!({})),
            export(json!([]), json!([]), json!([]), json!([])),
            vec![(B, "resource a://r: removed")],
        ),
        (
            "a resource's MIME type",
            resource(json!({})),
            resource(json!({ "mimeType": "text/html" })),
            vec![(B, "resource a://r: MIME type changed")],
        ),
        (
            "a resource's description",
            resource(json!({})),
            resource(json!({ "description": "x" })),
            vec![(C, "resource a://r: description changed")],
        ),
        (
            "a template added",
            export(json!([]), json!([]), json!([]), json!([])),
            export(
                json!([]),
                json!([]),
                json!([{ "uriTemplate": "a://{x}", "name": "x" }]),
                json!([]),
            ),
            vec![(A, "template a://{x}: added")],
        ),
        (
            "a prompt argument added, required",
            prompt(json!([])),
            prompt(json!([{ "name": "x", "required": true }])),
            vec![(B, "prompt p: argument x added, required")],
        ),
        (
            "a prompt argument added, optional",
            prompt(json!([])),
            prompt(json!([{ "name": "x" }])),
            vec![(A, "prompt p: argument x added, optional")],
        ),
        (
            "a prompt argument removed",
            prompt(json!([{ "name": "x" }])),
            prompt(json!([])),
            vec![(B, "prompt p: argument x removed")],
        ),
        (
            "a prompt argument made optional",
            prompt(json!([{ "name": "x", "required": true }])),
            prompt(json!([{ "name": "x" }])),
            vec![(A, "prompt p: argument x optional now")],
        ),
        (
            "a prompt argument's description",
            prompt(json!([{ "name": "x" }])),
            prompt(json!([{ "name": "x", "description": "y" }])),
            vec![(C, "prompt p argument x: description changed")],
        ),
        ("nothing", base.clone(), base.clone(), vec![]),
    ];
    assert_eq!(rows.len(), 50, "the README states the count");
    for (what, old, new, expected) in rows {
        let expected: Vec<(Class, String)> = expected
            .into_iter()
            .map(|(c, w)| (c, w.to_owned()))
            .collect();
        let mut got = seen(&old, &new);
        let mut want = expected.clone();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{what}");
    }
}

/// A small schema of the shapes tools take.
fn schema() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        (
            proptest::option::of(0u8..5),
            proptest::option::of(5u8..20),
            any::<bool>()
        )
            .prop_map(|(min, max, pattern)| {
                let mut s = json!({ "type": "string" });
                if let Some(min) = min {
                    s["minLength"] = json!(min);
                }
                if let Some(max) = max {
                    s["maxLength"] = json!(max);
                }
                if pattern {
                    s["pattern"] = json!("^a");
                }
                s
            }),
        (
            prop_oneof![Just("integer"), Just("number")],
            proptest::option::of(-5i8..0),
            proptest::option::of(1i8..9)
        )
            .prop_map(|(t, min, max)| {
                let mut s = json!({ "type": t });
                if let Some(min) = min {
                    s["minimum"] = json!(min);
                }
                if let Some(max) = max {
                    s["maximum"] = json!(max);
                }
                s
            }),
        proptest::collection::btree_set(0u8..9, 1..4).prop_map(|values| json!({ "enum": values })),
        Just(json!({ "type": "boolean" })),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            (inner.clone(), proptest::option::of(1u8..3)).prop_map(|(items, min)| {
                let mut s = json!({ "type": "array", "items": items });
                if let Some(min) = min {
                    s["minItems"] = json!(min);
                }
                s
            }),
            (
                proptest::collection::btree_map("[a-d]", inner, 1..4),
                any::<u8>(),
                any::<bool>()
            )
                .prop_map(|(properties, mask, closed)| {
                    let required: Vec<&String> = properties
                        .keys()
                        .enumerate()
                        .filter(|(i, _)| mask & (1 << i) != 0)
                        .map(|(_, k)| k)
                        .collect();
                    let mut s =
                        json!({ "type": "object", "properties": properties, "required": required });
                    if closed {
                        s["additionalProperties"] = json!(false);
                    }
                    s
                }),
        ]
    })
}

/// Every subschema's pointer, the root's first.
fn nodes(schema: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    if let Some(items) = schema.get("items") {
        nodes(items, format!("{at}/items"), out);
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (k, v) in properties {
            nodes(v, format!("{at}/properties/{k}"), out);
        }
    }
}

/// Changes a node so that it accepts fewer values (or, where the change cannot, the same):
/// each is one a client could be broken by.
fn narrow(node: &mut Value, how: u8) -> bool {
    let map = node.as_object_mut().unwrap();
    let kind = map.get("type").and_then(Value::as_str).map(str::to_owned);
    match (how % 8, kind.as_deref()) {
        (0, Some("string")) => {
            map.insert("pattern".into(), json!("^zz"));
        }
        (1, Some("string")) => {
            let max = map.get("maxLength").and_then(Value::as_u64).unwrap_or(30);
            map.insert("maxLength".into(), json!(max.saturating_sub(1)));
        }
        (2, Some("integer" | "number")) => {
            let min = map.get("minimum").and_then(Value::as_i64).unwrap_or(-10);
            map.insert("minimum".into(), json!(min + 1));
        }
        (3, Some("number")) => {
            map.insert("type".into(), json!("integer"));
        }
        (4, Some("object")) => {
            let names: Vec<String> = map["properties"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect();
            let required: Vec<Value> = map["required"].as_array().unwrap().clone();
            match names.iter().find(|n| !required.contains(&json!(n))) {
                Some(name) => map["required"].as_array_mut().unwrap().push(json!(name)),
                None => {
                    map.insert("additionalProperties".into(), json!(false));
                    map["properties"]["zz"] = json!({ "type": "string" });
                    map["required"].as_array_mut().unwrap().push(json!("zz"));
                }
            }
        }
        (5, Some("object")) if map.get("additionalProperties").is_none() => {
            map.insert("additionalProperties".into(), json!(false));
        }
        (6, Some("array")) => {
            map.insert("uniqueItems".into(), json!(true));
        }
        (7, None) if map["enum"].as_array().is_some_and(|e| e.len() > 1) => {
            map["enum"].as_array_mut().unwrap().pop();
        }
        _ => {
            map.insert("const".into(), json!(7));
        }
    }
    true
}

/// Changes a node so that it accepts more values, by a rule the comparison reads.
fn widen(node: &mut Value, how: u8) {
    let map = node.as_object_mut().unwrap();
    let kind = map.get("type").and_then(Value::as_str).map(str::to_owned);
    match (how % 7, kind.as_deref()) {
        (0, Some("string")) => {
            map.remove("pattern");
            map.remove("maxLength");
        }
        (1, Some("string" | "boolean" | "array")) => {
            let t = map["type"].clone();
            map.insert("type".into(), json!([t, "null"]));
        }
        (2, Some("integer")) => {
            map.insert("type".into(), json!("number"));
        }
        (3, Some("integer" | "number")) => {
            map.remove("minimum");
            if let Some(max) = map.get("maximum").and_then(Value::as_i64) {
                map.insert("maximum".into(), json!(max + 5));
            }
        }
        (4, Some("object")) => {
            map["required"].as_array_mut().unwrap().clear();
        }
        (5, Some("object")) if map.get("additionalProperties").is_some() => {
            map["properties"]["zz"] = json!({ "type": "string" });
        }
        (6, Some("array")) => {
            map.remove("minItems");
        }
        (_, None) => {
            map["enum"].as_array_mut().unwrap().push(json!("new"));
        }
        (_, Some("object")) => {
            map.remove("additionalProperties");
        }
        _ => {
            map.remove("minLength");
            map.remove("minItems");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_narrowing_is_always_breaking(old in schema(), pick in any::<usize>(), how in any::<u8>()) {
        let mut points = Vec::new();
        nodes(&old, String::new(), &mut points);
        let point = &points[pick % points.len()];
        let mut new = old.clone();
        narrow(new.pointer_mut(point).unwrap(), how);
        prop_assume!(new != old);
        let changes = seen(&tools(json!([tool(old.clone(), json!({}))])), &tools(json!([tool(new.clone(), json!({}))])));
        prop_assert!(changes.iter().any(|(c, _)| *c == Class::Breaking), "{old}\n→ {new}\n{changes:?}");
    }

    #[test]
    fn a_widening_is_never_breaking(old in schema(), pick in any::<usize>(), how in any::<u8>()) {
        let mut points = Vec::new();
        nodes(&old, String::new(), &mut points);
        let point = &points[pick % points.len()];
        let mut new = old.clone();
        widen(new.pointer_mut(point).unwrap(), how);
        let changes = seen(&tools(json!([tool(old.clone(), json!({}))])), &tools(json!([tool(new.clone(), json!({}))])));
        prop_assert!(!changes.iter().any(|(c, _)| *c == Class::Breaking), "{old}\n→ {new}\n{changes:?}");
        if new != old {
            prop_assert!(changes.iter().any(|(c, _)| *c == Class::Additive), "{old}\n→ {new}\n{changes:?}");
        }
    }
}
