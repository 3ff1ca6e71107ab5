//! Evaluation order: type → enum → const → shape, depth-first, first failure wins.

use serde_json::{Value, json};

use super::{compile, failure};

#[test]
fn type_comes_before_enum_and_const() {
    let schema = compile(json!({"type": "string", "enum": ["a"], "const": "a"}));
    assert_eq!(
        failure(&schema, json!(1)),
        "arguments must be of type string"
    );
}

#[test]
fn enum_comes_before_const() {
    let schema = compile(json!({"enum": ["a", "b"], "const": "a"}));
    assert_eq!(
        failure(&schema, json!("c")),
        "arguments must be one of: a, b"
    );
    assert_eq!(failure(&schema, json!("b")), "arguments must be a");
}

#[test]
fn const_comes_before_shape() {
    let schema = compile(json!({"const": "abc", "minLength": 5}));
    assert_eq!(failure(&schema, json!("abcdef")), "arguments must be abc");
    assert_eq!(
        failure(&schema, json!("abc")),
        "arguments must have at least 5 characters"
    );
}

#[test]
fn object_checks_run_required_then_unknown_then_counts() {
    let schema = compile(json!({
        "properties": {"a": {}, "b": {}},
        "required": ["a"],
        "additionalProperties": false,
        "minProperties": 2
    }));
    assert_eq!(
        failure(&schema, json!({"x": 1})),
        "missing required property: a"
    );
    assert_eq!(
        failure(&schema, json!({"a": 1, "x": 1})),
        "unknown property: x"
    );
    assert_eq!(
        failure(&schema, json!({"a": 1})),
        "arguments must have at least 2 properties"
    );
}

#[test]
fn an_objects_own_checks_come_before_its_properties() {
    let schema = compile(json!({
        "properties": {"a": {"type": "string"}},
        "required": ["b"],
        "minProperties": 3
    }));
    assert_eq!(
        failure(&schema, json!({"a": 1})),
        "missing required property: b"
    );
    assert_eq!(
        failure(&schema, json!({"a": 1, "b": 1})),
        "arguments must have at least 3 properties"
    );
    assert_eq!(
        failure(&schema, json!({"a": 1, "b": 1, "c": 1})),
        "a must be of type string"
    );
}

#[test]
fn declared_properties_come_before_additional_ones() {
    let schema = compile(json!({
        "properties": {"z": {"type": "string"}},
        "additionalProperties": {"type": "string"}
    }));
    // `a` sorts first, but `z` is declared.
    assert_eq!(
        failure(&schema, json!({"a": 1, "z": 1})),
        "z must be of type string"
    );
    assert_eq!(
        failure(&schema, json!({"a": 1, "z": "s"})),
        "a must be of type string"
    );
}

#[test]
fn properties_are_checked_in_order_and_depth_first() {
    let schema = compile(json!({
        "properties": {
            "a": {"properties": {"x": {"type": "string"}}},
            "b": {"type": "string"}
        }
    }));
    assert_eq!(
        failure(&schema, json!({"a": {"x": 1}, "b": 1})),
        "a.x must be of type string"
    );
    assert_eq!(
        failure(&schema, json!({"a": {"x": "s"}, "b": 1})),
        "b must be of type string"
    );
}

#[test]
fn array_checks_run_counts_then_uniqueness_then_items() {
    let schema = compile(json!({
        "properties": {"tags": {"minItems": 3, "uniqueItems": true, "items": {"type": "integer"}}}
    }));
    assert_eq!(
        failure(&schema, json!({"tags": ["a", "a"]})),
        "tags must have at least 3 items"
    );
    assert_eq!(
        failure(&schema, json!({"tags": ["a", "a", "b"]})),
        "tags must not repeat items"
    );
    assert_eq!(
        failure(&schema, json!({"tags": [1, "a", 2.5]})),
        "tags[1] must be of type integer"
    );
}

#[test]
fn string_checks_run_length_then_pattern() {
    let schema = compile(json!({"minLength": 2, "pattern": "^b"}));
    assert_eq!(
        failure(&schema, json!("a")),
        "arguments must have at least 2 characters"
    );
    assert_eq!(
        failure(&schema, json!("ab")),
        "arguments does not match the required pattern"
    );
}

#[test]
fn number_checks_run_minimum_maximum_then_exclusive_bounds() {
    let schema = compile(json!({
        "minimum": 5, "maximum": 1, "exclusiveMinimum": 10, "exclusiveMaximum": 0
    }));
    assert_eq!(failure(&schema, json!(3)), "arguments must be >= 5");
    assert_eq!(failure(&schema, json!(7)), "arguments must be <= 1");
    let exclusive = compile(json!({"exclusiveMinimum": 10, "exclusiveMaximum": 0}));
    assert_eq!(failure(&exclusive, json!(5)), "arguments must be > 10");
    assert_eq!(failure(&exclusive, json!(11)), "arguments must be < 0");
}

#[test]
fn a_failure_deep_in_one_element_stops_before_later_elements() {
    let schema = compile(json!({
        "items": {"properties": {"n": {"maximum": 1}}, "required": ["n"]}
    }));
    assert_eq!(
        failure(&schema, json!([{"n": 1}, {"n": 2}, {}])),
        "arguments[1].n must be <= 1"
    );
}

#[test]
fn a_tagged_union_explains_the_variant_its_tag_names() {
    // Every branch but the one whose tag matches fails first at the tag's `const`: the
    // explanation is the matching branch's own failure, whichever branch comes first.
    let branch = |unit: &str, degrees: Value| {
        json!({"type": "object", "required": ["unit", "degrees"], "properties": {
            "unit": {"const": unit}, "degrees": degrees}})
    };
    let schema = compile(json!({"oneOf": [
        branch("celsius", json!({"type": "number"})),
        branch("kelvin", json!({"type": "number", "minimum": 0})),
    ]}));
    let message = failure(&schema, json!({"unit": "kelvin", "degrees": -1}));
    assert_eq!(
        message,
        "arguments matches none of the oneOf alternatives; the closest fails with: degrees must be >= 0"
    );
    let message = failure(&schema, json!({"unit": "rankine", "degrees": 1}));
    assert!(message.ends_with("unit must be celsius"), "{message}");
}
