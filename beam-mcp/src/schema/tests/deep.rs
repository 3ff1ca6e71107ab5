//! Depth: deep schemas and values must not exhaust the stack.
//!
//! serde_json's own `Clone` and `Drop` for `Value` recurse, so the very deep
//! cases drive the compiler and validator directly and take their input
//! apart by hand.

use serde_json::{Map, Value, json};

use super::{compile, failure, passes};
use crate::schema::{check, validate};

const DEEP: usize = 100_000;

/// `{"items": {"items": ... {"type": "integer"} ...}}`, `levels` deep.
fn nested_items_schema(levels: usize) -> Value {
    let mut schema = json!({"type": "integer"});
    for _ in 0..levels {
        let mut outer = Map::new();
        outer.insert("items".to_owned(), schema);
        schema = Value::Object(outer);
    }
    schema
}

/// `[[ ... [leaf] ... ]]`, `levels` deep.
fn nested_array(levels: usize, leaf: Value) -> Value {
    let mut value = leaf;
    for _ in 0..levels {
        value = Value::Array(vec![value]);
    }
    value
}

/// Takes a deep value apart one level at a time.
fn dismantle(mut value: Value) {
    loop {
        value = match value {
            Value::Array(mut items) => items.pop().unwrap_or(Value::Null),
            Value::Object(mut map) => match map.keys().next().cloned() {
                Some(key) => map.remove(&key).unwrap_or(Value::Null),
                None => return,
            },
            _ => return,
        }
    }
}

#[test]
fn very_deep_schemas_compile_and_values_past_the_bound_are_refused_without_overflow() {
    let schema = nested_items_schema(DEEP);
    let nodes = check::compile(&schema).expect("deep schema compiles");
    assert_eq!(nodes.len(), DEEP + 1);

    // Within the bound, a value as deep as a request can be is validated in full.
    let levels = 128;
    let good = nested_array(levels, json!(7));
    let bad = nested_array(levels, json!("7"));
    let small = check::compile(&nested_items_schema(levels)).unwrap();
    assert!(validate::validate(&small, &good).is_ok());
    assert_eq!(
        validate::validate(&small, &bad).unwrap_err().message(),
        format!("arguments{} must be of type integer", "[0]".repeat(levels))
    );

    // Past it, a refusal with a message, on a test thread's 2 MiB stack.
    let deep = nested_array(DEEP, json!(7));
    let message = validate::validate(&nodes, &deep)
        .unwrap_err()
        .message()
        .to_owned();
    // Taken apart before asserting: a failed assertion would drop them recursively.
    for value in [schema, good, bad, deep] {
        dismantle(value);
    }
    let bound = validate::MAX_DEPTH;
    assert_eq!(
        message,
        format!(
            "arguments{} nests deeper than the {bound} levels this server validates",
            "[0]".repeat(bound)
        )
    );
}

#[test]
fn a_problem_at_the_bottom_of_a_deep_schema_is_located() {
    let mut schema = json!({"minLength": "3"});
    for _ in 0..DEEP {
        let mut outer = Map::new();
        outer.insert("items".to_owned(), schema);
        schema = Value::Object(outer);
    }
    let message = check::compile(&schema).unwrap_err().message().to_owned();
    assert!(message.starts_with("the schema, items, items"));
    assert!(message.ends_with(", items: minLength must be a non-negative integer"));
    dismantle(schema);
}

#[test]
fn values_deeper_than_the_schema_are_not_descended() {
    let nodes = check::compile(&json!({"type": "array", "items": {"type": "array"}})).unwrap();
    let value = nested_array(DEEP, json!(null));
    assert!(validate::validate(&nodes, &value).is_ok());
    dismantle(value);
}

#[test]
fn deep_repeated_items_are_found() {
    let nodes = check::compile(&json!({"uniqueItems": true})).unwrap();
    // Enough elements to take the hashing path; the two deep ones are equal
    // below the depth where hashing stops.
    let mut items: Vec<Value> = (0..10).map(|i| json!(i)).collect();
    items.push(nested_array(DEEP, json!(1)));
    items.push(nested_array(DEEP, json!(1.0)));
    let value = Value::Array(items);
    assert_eq!(
        validate::validate(&nodes, &value).unwrap_err().message(),
        "arguments must not repeat items"
    );
    if let Value::Array(items) = value {
        items.into_iter().for_each(dismantle);
    }
}

#[test]
fn moderately_deep_schemas_work_through_the_public_api() {
    let levels = 200;
    let schema = compile(nested_items_schema(levels));
    passes(&schema, nested_array(levels, json!(1)));
    let message = failure(&schema, nested_array(levels, json!(1.5)));
    assert_eq!(
        message,
        format!("arguments{} must be of type integer", "[0]".repeat(levels))
    );
}

/// A recursive enum (`oneOf` of variants sharing their recursive part, which is checked before
/// the tag) is validated in time linear in the value: each part of the value is evaluated once
/// per subschema, not once per path of alternatives to it. Without that, 40 levels of three
/// recursive variants are 3^40 evaluations, and this test does not end.
#[test]
fn alternatives_sharing_a_recursive_part_cost_linear_time() {
    let variant = |kind: &str| {
        json!({"type": "object", "required": ["kind", "args"], "properties": {
            "args": {"type": "array", "items": {"$ref": "#/$defs/e"}},
            "kind": {"const": kind}}})
    };
    let schema = compile(json!({
        "$defs": {"e": {"oneOf": [
            variant("add"), variant("mul"), variant("neg"),
            {"type": "object", "required": ["kind", "value"], "properties": {
                "kind": {"const": "num"}, "value": {"type": "number"}}}
        ]}},
        "$ref": "#/$defs/e"
    }));
    let nested = |leaf: Value| {
        let mut value = json!({"kind": "num", "value": leaf});
        for _ in 0..40 {
            value = json!({"kind": "neg", "args": [value]});
        }
        value
    };
    passes(&schema, nested(json!(1)));
    let message = failure(&schema, nested(json!("one")));
    assert!(
        message.starts_with("arguments matches none of the oneOf alternatives; the closest fails with: args[0] matches none"),
        "{message}"
    );
}
