//! `type`: the seven names, lists, the integer as serde reads it, and root wording.

use serde_json::{Value, json};

use super::{compile, failure, passes};

/// A root object schema with one property `v` of the given schema.
fn field(schema: Value) -> crate::schema::CompiledSchema {
    compile(json!({"type": "object", "properties": {"v": schema}}))
}

#[test]
fn each_type_name_admits_its_values_only() {
    let samples = [
        ("string", json!("s")),
        ("integer", json!(3)),
        ("number", json!(2.5)),
        ("boolean", json!(false)),
        ("object", json!({"a": 1})),
        ("array", json!([1])),
        ("null", json!(null)),
    ];
    for (name, _) in &samples {
        let schema = field(json!({"type": name}));
        for (other, value) in &samples {
            let admitted = other == name || (*name == "number" && *other == "integer");
            if admitted {
                passes(&schema, json!({"v": value}));
            } else {
                assert_eq!(
                    failure(&schema, json!({"v": value})),
                    format!("v must be of type {name}")
                );
            }
        }
    }
}

#[test]
fn integer_means_a_whole_value_that_serde_reads_as_an_integer() {
    let schema = field(json!({"type": "integer"}));
    // Whole values, however written (2020-12), within the 64-bit range: the server reads each
    // as the integer before host code sees it (`whole_numbers_as_integers`).
    for good in [
        "0",
        "-5",
        "9223372036854775807",
        "-9223372036854775808",
        "18446744073709551615",
        "1.0",
        "-0.0",
        "1e2",
        "1E0",
        "-9.2e18",
    ] {
        passes(
            &schema,
            json!({"v": serde_json::from_str::<Value>(good).unwrap()}),
        );
    }
    // Fractions, and whole values past what an i64 or a u64 holds (serde would refuse them).
    for bad in ["2.5", "1.5e300", "1e20", "-1e19", "0.1"] {
        let value: Value = serde_json::from_str(bad).unwrap();
        assert_eq!(
            failure(&schema, json!({"v": value})),
            "v must be of type integer"
        );
    }
}

#[test]
fn number_admits_every_number() {
    let schema = field(json!({"type": "number"}));
    for good in ["1", "1.0", "1e2", "-0.5", "18446744073709551615"] {
        passes(
            &schema,
            json!({"v": serde_json::from_str::<Value>(good).unwrap()}),
        );
    }
    assert_eq!(
        failure(&schema, json!({"v": "1"})),
        "v must be of type number"
    );
}

#[test]
fn type_lists_admit_any_listed_type_and_name_them_all() {
    let schema = field(json!({"type": ["string", "null"]}));
    passes(&schema, json!({"v": "s"}));
    passes(&schema, json!({"v": null}));
    assert_eq!(
        failure(&schema, json!({"v": 1})),
        "v must be of type string or null"
    );

    let schema = field(json!({"type": ["integer", "boolean", "array"]}));
    assert_eq!(
        failure(&schema, json!({"v": 1.5})),
        "v must be of type integer or boolean or array"
    );
}

#[test]
fn booleans_and_null_are_preserved_not_coerced() {
    let boolean = compile(json!({"type": "boolean"}));
    passes(&boolean, json!(true));
    passes(&boolean, json!(false));
    assert_eq!(
        failure(&boolean, json!(0)),
        "arguments must be of type boolean"
    );
    assert_eq!(
        failure(&boolean, json!("true")),
        "arguments must be of type boolean"
    );

    let string = compile(json!({"type": "string"}));
    assert_eq!(
        failure(&string, json!(true)),
        "arguments must be of type string"
    );
    assert_eq!(
        failure(&string, json!(null)),
        "arguments must be of type string"
    );

    let null = compile(json!({"type": "null"}));
    passes(&null, json!(null));
    assert_eq!(
        failure(&null, json!(false)),
        "arguments must be of type null"
    );
    assert_eq!(failure(&null, json!("")), "arguments must be of type null");
}

#[test]
fn a_non_object_root_against_an_object_schema_reads_as_arguments() {
    let schema = compile(json!({"type": "object"}));
    for value in [json!([]), json!("x"), json!(1), json!(null), json!(true)] {
        assert_eq!(failure(&schema, value), "arguments must be an object");
    }
    passes(&schema, json!({}));
    // The one-name list is the same type.
    let listed = compile(json!({"type": ["object"]}));
    assert_eq!(failure(&listed, json!([])), "arguments must be an object");
}

#[test]
fn other_root_types_use_the_general_message() {
    assert_eq!(
        failure(&compile(json!({"type": ["object", "null"]})), json!(1)),
        "arguments must be of type object or null"
    );
    assert_eq!(
        failure(&compile(json!({"type": "array"})), json!({})),
        "arguments must be of type array"
    );
}

#[test]
fn nested_objects_use_the_general_message() {
    let schema = field(json!({"type": "object"}));
    assert_eq!(
        failure(&schema, json!({"v": []})),
        "v must be of type object"
    );
}

#[test]
fn a_missing_type_admits_any_value() {
    let schema = field(json!({"description": "anything"}));
    for value in [
        json!(null),
        json!(1.0),
        json!("s"),
        json!([]),
        json!({}),
        json!(true),
    ] {
        passes(&schema, json!({"v": value}));
    }
}
