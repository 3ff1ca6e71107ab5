//! The quick verdict on plain objects of properties against the full evaluation: random
//! schemas of that shape (each property's own schema drawn from leaves, unions, arrays, nested
//! objects, `$ref`s and boolean schemas) and random values, the verdicts compared; and the
//! shapes the quick form must not take.

use serde_json::{Map, Value, json};

use crate::json::tests::Cases;
use crate::schema::check;
use crate::schema::flat::Flat;
use crate::schema::validate;

/// A property's schema.
fn property(cases: &mut Cases) -> Value {
    let choices = [
        json!({"type": "string"}),
        json!({"type": "integer", "minimum": 0, "maximum": 10}),
        json!({"type": "integer", "format": "int64", "minimum": i64::MIN, "maximum": i64::MAX}),
        json!({"type": ["string", "null"]}),
        json!({"enum": ["x", "y", 3]}),
        json!({"type": "number", "multipleOf": 0.5, "exclusiveMaximum": 3}),
        json!({"type": "string", "minLength": 2, "pattern": "^a"}),
        json!({"type": "boolean", "description": "a flag"}),
        json!({}),
        json!(false),
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}),
        json!({"type": "array", "items": {"type": "integer"}, "maxItems": 2}),
        json!({"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"],
               "additionalProperties": false}),
        json!({"$ref": "#/$defs/small"}),
        json!({"type": "object", "unevaluatedProperties": false,
               "allOf": [{"properties": {"x": true}}]}),
        // Nodes that assert only their type, checked without an evaluation.
        json!({"type": "integer"}),
        json!({"type": ["number", "null"], "title": "n"}),
        json!({"type": "object"}),
        json!({"type": "array", "description": "any items"}),
        json!({"type": "string", "format": "date", "default": "x"}),
    ];
    choices[cases.below(choices.len() as u64) as usize].clone()
}

/// A plain object schema of up to three properties, some required, unknown keys allowed,
/// refused or left unsaid.
fn schema(cases: &mut Cases) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for name in ["a", "b", "c"] {
        if cases.below(3) > 0 {
            properties.insert(name.to_owned(), property(cases));
            if cases.below(2) == 1 {
                required.push(json!(name));
            }
        }
    }
    let mut schema = json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "$defs": {"small": {"type": "integer", "maximum": 5}},
    });
    match cases.below(3) {
        0 => schema["additionalProperties"] = json!(false),
        1 => schema["additionalProperties"] = json!(true),
        _ => {}
    }
    schema
}

/// A value for a property.
fn member(cases: &mut Cases) -> Value {
    let choices = [
        json!("x"),
        json!("ab"),
        json!(""),
        json!(3),
        json!(-1),
        json!(11),
        json!(2.5),
        json!(1.0),
        json!(null),
        json!(true),
        json!([1, 2]),
        json!([1, "a"]),
        json!({"x": 1}),
        json!({"x": 1, "y": 2}),
        json!({}),
    ];
    choices[cases.below(choices.len() as u64) as usize].clone()
}

/// Mostly an object of known and unknown keys; sometimes no object at all.
fn value(cases: &mut Cases) -> Value {
    if cases.below(10) == 0 {
        return member(cases);
    }
    let mut map = Map::new();
    for name in ["a", "b", "c", "d"] {
        if cases.below(2) == 1 {
            map.insert(name.to_owned(), member(cases));
        }
    }
    Value::Object(map)
}

#[test]
fn the_quick_verdict_is_the_full_one_wherever_it_is_given() {
    let mut cases = Cases(0x2545_F491_4F6C_DD1D);
    let (mut passed, mut failed) = (0, 0);
    for case in 0..400 {
        let schema = schema(&mut cases);
        let nodes = check::compile(&schema).unwrap_or_else(|e| panic!("{schema}: {e}"));
        let flat = Flat::of(&nodes).unwrap_or_else(|| panic!("case {case}: {schema} is plain"));
        for _ in 0..25 {
            let value = value(&mut cases);
            let full = validate::validate(&nodes, &value).is_ok();
            // The quick form gives only passes: a failure is the full evaluation's to explain.
            assert_eq!(
                flat.passes(&nodes, &value),
                full,
                "case {case}: {value} against {schema}"
            );
            if full {
                passed += 1;
            } else {
                failed += 1;
            }
        }
    }
    // Both verdicts are reached often (about 1,000 passes and 9,000 failures here).
    assert!(
        passed > 800 && failed > 800,
        "{passed} passed, {failed} failed"
    );
}

#[test]
fn a_root_that_asks_more_of_the_object_gets_no_quick_form() {
    for schema in [
        json!({"type": "object", "properties": {"a": true}, "minProperties": 1}),
        json!({"properties": {"a": true}, "patternProperties": {"^x": true}}),
        json!({"properties": {"a": true}, "additionalProperties": {"type": "string"}}),
        json!({"properties": {"a": true}, "required": ["a", "z"]}),
        json!({"properties": {"a": true}, "dependentRequired": {"a": ["b"]}}),
        json!({"properties": {"a": true}, "propertyNames": {"maxLength": 3}}),
        json!({"properties": {"a": true}, "unevaluatedProperties": false}),
        json!({"properties": {"a": true}, "allOf": [{"required": ["a"]}]}),
        json!({"properties": {"a": true}, "enum": [{"a": 1}]}),
        json!({"type": "array"}),
        json!(true),
    ] {
        let nodes = check::compile(&schema).unwrap_or_else(|e| panic!("{schema}: {e}"));
        assert!(Flat::of(&nodes).is_none(), "{schema}");
    }
    // A plain root over a type that is not only an object still gets one.
    let nodes = check::compile(&json!({"type": ["object", "null"], "properties": {"a": true}}));
    assert!(Flat::of(&nodes.unwrap()).is_some());
}

#[test]
fn only_a_node_that_asserts_nothing_but_its_type_is_checked_by_type() {
    let only = |property: Value| {
        let schema = json!({"type": "object", "properties": {"p": property},
                            "$defs": {"small": {"type": "integer", "maximum": 5}}});
        let nodes = check::compile(&schema).unwrap_or_else(|e| panic!("{schema}: {e}"));
        let id = nodes[0].object.properties[0].1;
        nodes[id].only_types().map(<[_]>::len)
    };
    assert_eq!(only(json!({"type": "string"})), Some(1));
    assert_eq!(
        only(json!({"type": ["integer", "null"], "description": "d"})),
        Some(2)
    );
    assert_eq!(only(json!({"type": "string", "format": "email"})), Some(1));
    for asserts_more in [
        json!({}),
        json!(true),
        json!({"type": "string", "minLength": 1}),
        json!({"type": "string", "pattern": "a"}),
        json!({"type": "integer", "maximum": 3}),
        json!({"type": "number", "multipleOf": 2}),
        json!({"type": "string", "enum": ["a"]}),
        json!({"type": "string", "const": "a"}),
        json!({"type": "array", "items": {"type": "string"}}),
        json!({"type": "array", "uniqueItems": true}),
        json!({"type": "object", "properties": {"x": true}}),
        json!({"type": "object", "additionalProperties": false}),
        json!({"type": "object", "required": ["x"]}),
        json!({"type": "string", "allOf": [{"maxLength": 2}]}),
        json!({"type": "string", "not": {"const": "a"}}),
        json!({"type": "integer", "$ref": "#/$defs/small"}),
    ] {
        assert_eq!(only(asserts_more.clone()), None, "{asserts_more}");
    }
}
