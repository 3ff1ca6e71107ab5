//! Well-formedness: what compiles, what is refused, and the located messages.

use serde_json::json;

use super::{compile, failure, passes, refusal};

const TYPE_NAMES: &str =
    "type must name JSON types (string, integer, number, boolean, object, array, null)";

#[test]
fn the_schema_must_be_an_object_or_a_boolean() {
    for schema in [json!(null), json!("object"), json!([]), json!(1)] {
        assert_eq!(
            refusal(schema),
            "the schema must be a JSON object or a boolean"
        );
    }
    passes(&compile(json!(true)), json!({"any": "thing"}));
    assert_eq!(
        failure(&compile(json!(false)), json!({})),
        "arguments is not allowed"
    );
}

#[test]
fn sub_schemas_must_be_objects_or_booleans_too() {
    assert_eq!(
        refusal(json!({"properties": {"opts": 1}})),
        "the schema, property opts must be a JSON object or a boolean"
    );
    assert_eq!(
        refusal(json!({"not": "x"})),
        "the schema, not must be a JSON object or a boolean"
    );
    assert_eq!(
        refusal(json!({"properties": {"opts": {"properties": {"mode": 1}}}})),
        "the schema, property opts, property mode must be a JSON object or a boolean"
    );
    let schema = compile(json!({"properties": {"opts": true, "never": false}}));
    passes(&schema, json!({"opts": [1]}));
    assert_eq!(
        failure(&schema, json!({"never": 1})),
        "never is not allowed"
    );
}

#[test]
fn the_empty_schema_accepts_anything() {
    let schema = compile(json!({}));
    for value in [
        json!(null),
        json!(true),
        json!(1.5),
        json!("s"),
        json!([1]),
        json!({"a": 1}),
    ] {
        passes(&schema, value);
    }
}

#[test]
fn every_unsupported_keyword_is_refused_with_its_location() {
    let unsupported = [
        ("definitions", "; 2020-12 names it $defs"),
        (
            "dependencies",
            "; 2020-12 splits it into dependentRequired and dependentSchemas",
        ),
        (
            "additionalItems",
            "; 2020-12 writes items after prefixItems",
        ),
        ("$dynamicRef", "; use $ref"),
        (
            "$recursiveRef",
            "; 2020-12 replaced it, and this server takes $ref",
        ),
        ("nullable", ""),
        ("X-vendor", ""),
        ("", ""),
    ];
    for (key, hint) in unsupported {
        let mut schema = serde_json::Map::new();
        schema.insert(key.to_owned(), json!({}));
        assert_eq!(
            refusal(schema.into()),
            format!("the schema uses {key}, which this server does not enforce{hint}")
        );
    }
}

#[test]
fn unsupported_keywords_are_found_at_every_depth() {
    assert_eq!(
        refusal(json!({"properties": {"opts": {"nullable": true}}})),
        "the schema, property opts uses nullable, which this server does not enforce"
    );
    assert_eq!(
        refusal(json!({"anyOf": [{"items": {"$dynamicRef": "#"}}]})),
        "the schema, anyOf[0], items uses $dynamicRef, which this server does not enforce; use $ref"
    );
    assert_eq!(
        refusal(json!({"$defs": {"a": {"not": {"definitions": {}}}}})),
        "the schema, $defs a, not uses definitions, which this server does not enforce; 2020-12 names it $defs"
    );
}

#[test]
fn unsupported_keywords_are_reported_before_malformed_values() {
    assert_eq!(
        refusal(json!({"type": 5, "dependencies": []})),
        "the schema uses dependencies, which this server does not enforce; 2020-12 splits it into dependentRequired and dependentSchemas"
    );
}

#[test]
fn references_outside_the_document_or_to_nothing_are_refused_by_name() {
    assert_eq!(
        refusal(json!({"$ref": "https://example.com/other.json"})),
        "the schema: $ref https://example.com/other.json points outside this schema; references are resolved within the document only"
    );
    assert_eq!(
        refusal(json!({"properties": {"a": {"$ref": "#/$defs/missing"}}})),
        "the schema, property a: $ref #/$defs/missing points nowhere in this schema"
    );
    assert_eq!(
        refusal(json!({"$ref": "#nope"})),
        "the schema: $ref #nope names no $anchor of this schema"
    );
    assert_eq!(
        refusal(json!({"$schema": "http://json-schema.org/draft-07/schema#"})),
        "the schema: $schema names \"http://json-schema.org/draft-07/schema#\"; this server enforces JSON Schema 2020-12 (https://json-schema.org/draft/2020-12/schema)"
    );
    assert_eq!(
        refusal(json!({"$id": "https://example.com/a#frag"})),
        "the schema: $id must not have a fragment; name a place with $anchor"
    );
}

#[test]
fn annotations_and_extensions_are_ignored_whatever_their_value() {
    let schema = compile(json!({
        "title": 5,
        "description": ["not", "a", "string"],
        "default": {"any": "thing"},
        "examples": "x",
        "format": "email",
        "readOnly": "yes",
        "writeOnly": 0,
        "deprecated": null,
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$comment": false,
        "x-vendor": {"oneOf": []},
        "properties": {"mail": {"type": "string", "format": "email", "x-ui": "wide"}}
    }));
    // `format` is an annotation only: a non-address string passes.
    passes(&schema, json!({"mail": "not an address"}));
    // Identifiers are not annotations: `$id` must be a URI reference.
    assert_eq!(
        refusal(json!({"$id": 7})),
        "the schema: $id must be a string"
    );
}

#[test]
fn type_must_name_json_types() {
    for bad in [
        json!(5),
        json!("float"),
        json!("Object"),
        json!([]),
        json!(["string", 1]),
        json!(["string", "any"]),
        json!(null),
        json!({"type": "string"}),
    ] {
        assert_eq!(
            refusal(json!({"type": bad})),
            format!("the schema: {TYPE_NAMES}")
        );
    }
    assert_eq!(
        refusal(json!({"type": ["string", "null", "string"]})),
        "the schema: type lists string more than once"
    );
    for good in [
        json!("null"),
        json!(["integer", "number"]),
        json!(["array", "object", "boolean"]),
    ] {
        compile(json!({"type": good}));
    }
}

#[test]
fn enum_must_be_a_list_and_const_may_be_anything() {
    assert_eq!(
        refusal(json!({"enum": "a"})),
        "the schema: enum must be a list"
    );
    assert_eq!(
        refusal(json!({"enum": {"a": 1}})),
        "the schema: enum must be a list"
    );
    compile(json!({"enum": [null, 1, "a", [1], {"k": 1}]}));
    for constant in [json!(null), json!(false), json!([1, {"a": 2}]), json!({})] {
        compile(json!({"const": constant}));
    }
}

#[test]
fn properties_must_map_names_to_schemas() {
    assert_eq!(
        refusal(json!({"properties": ["a"]})),
        "the schema: properties must be an object of schemas"
    );
    assert_eq!(
        refusal(json!({"properties": {"a": {}, "b": "string"}})),
        "the schema, property b must be a JSON object or a boolean"
    );
}

#[test]
fn required_must_be_a_list_of_strings() {
    for bad in [
        json!("a"),
        json!([1]),
        json!(["a", null]),
        json!({"a": true}),
    ] {
        assert_eq!(
            refusal(json!({"required": bad})),
            "the schema: required must be a list of strings"
        );
    }
    compile(json!({"required": []}));
}

#[test]
fn additional_properties_must_be_a_boolean_or_a_schema() {
    for bad in [json!(1), json!("no"), json!(null), json!([])] {
        assert_eq!(
            refusal(json!({"additionalProperties": bad})),
            "the schema: additionalProperties must be a boolean or a schema object"
        );
    }
    compile(json!({"additionalProperties": true}));
    compile(json!({"additionalProperties": false}));
    compile(json!({"additionalProperties": {"type": "string"}}));
}

#[test]
fn items_must_be_one_schema() {
    assert_eq!(
        refusal(json!({"items": [{"type": "string"}]})),
        "the schema: items must be a schema; 2020-12 writes the list form as prefixItems"
    );
    assert_eq!(
        refusal(json!({"items": "string"})),
        "the schema: items must be a boolean or a schema object"
    );
}

#[test]
fn unique_items_must_be_a_boolean() {
    for bad in [json!("yes"), json!(1), json!(null)] {
        assert_eq!(
            refusal(json!({"uniqueItems": bad})),
            "the schema: uniqueItems must be a boolean"
        );
    }
}

#[test]
fn counts_must_be_non_negative_integers() {
    let keys = [
        "minProperties",
        "maxProperties",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "minContains",
        "maxContains",
    ];
    for key in keys {
        for bad in [
            json!(-1),
            json!(1.5),
            json!(-1.0),
            json!("3"),
            json!(null),
            json!(true),
        ] {
            let mut schema = serde_json::Map::new();
            schema.insert(key.to_owned(), bad);
            assert_eq!(
                refusal(schema.into()),
                format!("the schema: {key} must be a non-negative integer")
            );
        }
        // A whole number is a count however it is written (2020-12).
        for good in [json!(0), json!(1.0), json!(1e2)] {
            let mut schema = serde_json::Map::new();
            schema.insert(key.to_owned(), good);
            compile(schema.into());
        }
    }
}

#[test]
fn bounds_must_be_numbers() {
    for key in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
        for bad in [json!("1"), json!(null), json!([1])] {
            let mut schema = serde_json::Map::new();
            schema.insert(key.to_owned(), bad);
            assert_eq!(
                refusal(schema.into()),
                format!("the schema: {key} must be a number")
            );
        }
        let mut schema = serde_json::Map::new();
        schema.insert(key.to_owned(), json!(-2.5));
        compile(schema.into());
    }
    assert_eq!(
        refusal(json!({"minimum": 0, "exclusiveMinimum": true})),
        "the schema: exclusiveMinimum must be a number (the boolean draft-4 form is not supported)"
    );
    assert_eq!(
        refusal(json!({"maximum": true})),
        "the schema: maximum must be a number"
    );
}

#[test]
fn pattern_must_be_a_compiling_ecma_regex() {
    assert_eq!(
        refusal(json!({"pattern": 5})),
        "the schema: pattern must be a string"
    );
    for bad in ["(", "[a-", "a{2,1}", "*a", "(?<n>a)(?<n>b)"] {
        let message = refusal(json!({"pattern": bad}));
        assert!(
            message.starts_with("the schema: pattern does not compile: "),
            "{bad}: {message}"
        );
        assert!(message.len() > "the schema: pattern does not compile: ".len());
    }
    // ECMA-only syntax compiles: named groups, Unicode properties, `\u{..}`.
    for good in ["(?<year>\\d{4})", "^\\p{L}+$", "\\u{1F600}"] {
        compile(json!({"pattern": good}));
    }
    // Lookbehind is ECMA-262 too, but not matchable in linear time: refused (tests/pattern.rs).
    assert!(
        refusal(json!({"pattern": "(?<=a)b"}))
            .starts_with("the schema: pattern \"(?<=a)b\" uses lookbehind")
    );
}

#[test]
fn malformed_values_are_located_at_depth() {
    assert_eq!(
        refusal(json!({"properties": {"opts": {"items": {"minLength": -1}}}})),
        "the schema, property opts, items: minLength must be a non-negative integer"
    );
    assert!(
        refusal(json!({"additionalProperties": {"pattern": "("}}))
            .starts_with("the schema, additionalProperties: pattern does not compile: ")
    );
}

#[test]
fn the_first_problem_depth_first_is_reported() {
    assert_eq!(
        refusal(json!({"properties": {
            "a": {"properties": {"deep": {"type": 1}}},
            "b": {"oneOf": "x"}
        }})),
        format!("the schema, property a, property deep: {TYPE_NAMES}")
    );
}

#[test]
fn an_id_that_names_the_base_itself_starts_no_resource() {
    let schema = compile(json!({
        "$defs": {"a": {"$id": "#", "type": "string"}},
        "properties": {"x": {"$ref": "#/$defs/a"}}
    }));
    passes(&schema, json!({"x": "s"}));
    assert_eq!(
        failure(&schema, json!({"x": 1})),
        "x must be of type string"
    );
}
