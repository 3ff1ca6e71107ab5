//! Each enforced keyword (other than `type`): passing and failing values,
//! with the exact messages and labels.

use serde_json::{Map, Value, json};

use super::{compile, failure, passes};

/// A root object schema with one property `v` of the given schema.
fn field(schema: Value) -> crate::schema::CompiledSchema {
    compile(json!({"type": "object", "properties": {"v": schema}}))
}

#[test]
fn enum_lists_the_allowed_values() {
    let schema = field(json!({"enum": ["a", 1, {"k": 1}]}));
    passes(&schema, json!({"v": "a"}));
    passes(&schema, json!({"v": {"k": 1}}));
    assert_eq!(
        failure(&schema, json!({"v": "b"})),
        "v must be one of: a, 1, {\"k\":1}"
    );
    assert_eq!(
        failure(&schema, json!({"v": "1"})),
        "v must be one of: a, 1, {\"k\":1}"
    );
}

#[test]
fn enum_renders_non_strings_as_json() {
    let schema = field(json!({"enum": [null, true, [1, "x"], 2.5, "two words"]}));
    assert_eq!(
        failure(&schema, json!({"v": false})),
        "v must be one of: null, true, [1,\"x\"], 2.5, two words"
    );
    passes(&schema, json!({"v": null}));
}

#[test]
fn enum_compares_numbers_by_value() {
    let schema = field(json!({"enum": [1, {"k": [2]}]}));
    passes(&schema, json!({"v": 1.0}));
    passes(&schema, json!({"v": {"k": [2.0]}}));
    let floats = field(json!({"enum": [1.0]}));
    passes(&floats, json!({"v": 1}));
    assert_eq!(failure(&floats, json!({"v": 1.5})), "v must be one of: 1.0");
}

#[test]
fn an_empty_enum_admits_nothing() {
    let schema = field(json!({"enum": []}));
    assert_eq!(
        failure(&schema, json!({"v": null})),
        "v matches no allowed value (the enum is empty)"
    );
}

#[test]
fn const_requires_one_value() {
    let schema = field(json!({"const": "fast"}));
    passes(&schema, json!({"v": "fast"}));
    assert_eq!(failure(&schema, json!({"v": "slow"})), "v must be fast");

    let structured = field(json!({"const": {"a": [1]}}));
    passes(&structured, json!({"v": {"a": [1.0]}}));
    assert_eq!(
        failure(&structured, json!({"v": {"a": [1, 2]}})),
        "v must be {\"a\":[1]}"
    );

    let null = field(json!({"const": null}));
    passes(&null, json!({"v": null}));
    assert_eq!(failure(&null, json!({"v": 0})), "v must be null");
}

#[test]
fn const_compares_numbers_by_value() {
    let schema = field(json!({"const": 1}));
    passes(&schema, json!({"v": 1.0}));
    assert_eq!(failure(&schema, json!({"v": 1.1})), "v must be 1");
}

#[test]
fn required_names_what_is_missing() {
    let schema = compile(json!({"type": "object", "required": ["a", "b"]}));
    passes(&schema, json!({"a": 1, "b": null}));
    assert_eq!(
        failure(&schema, json!({"b": 1})),
        "missing required property: a"
    );
    assert_eq!(
        failure(&schema, json!({})),
        "missing required properties: a, b"
    );
}

#[test]
fn required_keeps_the_schema_order_and_drops_repeats() {
    let schema = compile(json!({"required": ["b", "a", "b"]}));
    assert_eq!(
        failure(&schema, json!({})),
        "missing required properties: b, a"
    );
    assert_eq!(
        failure(&schema, json!({"a": 1})),
        "missing required property: b"
    );
}

#[test]
fn nested_required_is_prefixed_with_the_label() {
    let schema = compile(json!({
        "properties": {"opts": {"required": ["a"], "properties": {
            "inner": {"required": ["x", "y"]}
        }}}
    }));
    assert_eq!(
        failure(&schema, json!({"opts": {}})),
        "opts: missing required property: a"
    );
    assert_eq!(
        failure(&schema, json!({"opts": {"a": 1, "inner": {}}})),
        "opts.inner: missing required properties: x, y"
    );
}

#[test]
fn additional_properties_false_names_unknown_properties() {
    let schema = compile(json!({
        "type": "object",
        "properties": {"a": {}},
        "additionalProperties": false
    }));
    passes(&schema, json!({"a": 1}));
    passes(&schema, json!({}));
    assert_eq!(
        failure(&schema, json!({"a": 1, "x": 2})),
        "unknown property: x"
    );
    assert_eq!(
        failure(&schema, json!({"y": 1, "a": 1, "x": 2})),
        "unknown properties: x, y"
    );
}

#[test]
fn nested_unknown_properties_are_prefixed_with_the_label() {
    let schema = compile(json!({
        "properties": {"opts": {"additionalProperties": false}}
    }));
    assert_eq!(
        failure(&schema, json!({"opts": {"x": 1}})),
        "opts: unknown property: x"
    );
    // Only `opts` is closed; the root still admits extra properties.
    passes(&schema, json!({"opts": {}, "extra": 1}));
}

#[test]
fn additional_properties_true_or_absent_admits_anything() {
    for schema in [
        json!({"properties": {"a": {"type": "string"}}}),
        json!({"properties": {"a": {"type": "string"}}, "additionalProperties": true}),
    ] {
        passes(&compile(schema), json!({"a": "s", "b": [1], "c": null}));
    }
}

#[test]
fn additional_properties_schema_checks_each_undeclared_property() {
    let schema = compile(json!({
        "properties": {"name": {"type": "string"}},
        "additionalProperties": {"type": "integer"}
    }));
    passes(&schema, json!({"name": "n", "a": 1, "b": 2}));
    assert_eq!(
        failure(&schema, json!({"name": "n", "a": "x"})),
        "a must be of type integer"
    );
    // Declared properties follow their own schema, not additionalProperties.
    assert_eq!(
        failure(&schema, json!({"name": 1})),
        "name must be of type string"
    );

    let nested = compile(json!({
        "properties": {"opts": {"additionalProperties": {"type": "object", "required": ["id"]}}}
    }));
    assert_eq!(
        failure(&nested, json!({"opts": {"extra": {}}})),
        "opts.extra: missing required property: id"
    );
}

#[test]
fn ten_thousand_unknown_keys_are_named_in_order_as_many_as_fit_then_counted() {
    let value: Map<String, Value> = (0..10_000).map(|i| (format!("k{i}"), json!(i))).collect();
    let mut names: Vec<String> = (0..10_000).map(|i| format!("k{i}")).collect();
    names.sort();
    let closed = compile(json!({"type": "object", "additionalProperties": false}));
    // The first names, sorted, fill at most 256 bytes; the rest are counted.
    let mut shown = Vec::new();
    for name in &names {
        let next = shown.iter().map(|n: &&String| n.len() + 2).sum::<usize>() + name.len();
        if next > 256 {
            break;
        }
        shown.push(name);
    }
    let shown: Vec<&str> = shown.iter().map(|n| n.as_str()).collect();
    assert_eq!(
        failure(&closed, Value::Object(value.clone())),
        format!(
            "unknown properties: {} and {} more",
            shown.join(", "),
            10_000 - shown.len()
        )
    );
    let open = compile(json!({"type": "object", "additionalProperties": true}));
    passes(&open, Value::Object(value));
}

#[test]
fn property_counts() {
    let schema = compile(json!({"minProperties": 1, "maxProperties": 2}));
    passes(&schema, json!({"a": 1}));
    passes(&schema, json!({"a": 1, "b": 2}));
    assert_eq!(
        failure(&schema, json!({})),
        "arguments must have at least 1 property"
    );
    assert_eq!(
        failure(&schema, json!({"a": 1, "b": 2, "c": 3})),
        "arguments must have at most 2 properties"
    );
    let nested = field(json!({"minProperties": 2, "maxProperties": 1}));
    assert_eq!(
        failure(&nested, json!({"v": {"a": 1}})),
        "v must have at least 2 properties"
    );
    let at_most_one = field(json!({"maxProperties": 1}));
    assert_eq!(
        failure(&at_most_one, json!({"v": {"a": 1, "b": 2}})),
        "v must have at most 1 property"
    );
    // Counts apply to objects only.
    passes(&at_most_one, json!({"v": [1, 2, 3]}));
}

#[test]
fn items_checks_every_element_with_its_index() {
    let schema = compile(json!({
        "properties": {"tags": {"type": "array", "items": {"type": "string"}}}
    }));
    passes(&schema, json!({"tags": []}));
    passes(&schema, json!({"tags": ["a", "b"]}));
    assert_eq!(
        failure(&schema, json!({"tags": ["a", 2, 3]})),
        "tags[1] must be of type string"
    );
}

#[test]
fn labels_combine_properties_and_indexes() {
    let schema = compile(json!({
        "properties": {"opts": {"properties": {
            "mode": {"enum": ["fast"]},
            "tags": {"items": {"properties": {"x": {"type": "integer"}}}}
        }}}
    }));
    assert_eq!(
        failure(&schema, json!({"opts": {"mode": "slow"}})),
        "opts.mode must be one of: fast"
    );
    assert_eq!(
        failure(&schema, json!({"opts": {"tags": [{"x": "1"}]}})),
        "opts.tags[0].x must be of type integer"
    );
    let matrix = compile(json!({"items": {"items": {"type": "null"}}}));
    assert_eq!(
        failure(&matrix, json!([[null], [null, 0]])),
        "arguments[1][1] must be of type null"
    );
}

#[test]
fn item_counts() {
    let schema = field(json!({"minItems": 1, "maxItems": 2}));
    passes(&schema, json!({"v": [1]}));
    passes(&schema, json!({"v": [1, 2]}));
    assert_eq!(
        failure(&schema, json!({"v": []})),
        "v must have at least 1 item"
    );
    assert_eq!(
        failure(&schema, json!({"v": [1, 2, 3]})),
        "v must have at most 2 items"
    );
    let two = field(json!({"minItems": 2, "maxItems": 1}));
    assert_eq!(
        failure(&two, json!({"v": [1]})),
        "v must have at least 2 items"
    );
    assert_eq!(
        failure(&field(json!({"maxItems": 1})), json!({"v": [1, 2]})),
        "v must have at most 1 item"
    );
    // Counts apply to arrays only.
    passes(&schema, json!({"v": "a string is not an array"}));
}

#[test]
fn unique_items_compares_as_json_values() {
    let schema = field(json!({"uniqueItems": true}));
    passes(&schema, json!({"v": [1, "1", true, null, [1], {"a": 1}]}));
    passes(&schema, json!({"v": [[1, 2], [2, 1]]}));
    assert_eq!(
        failure(&schema, json!({"v": [1, 2, 1]})),
        "v must not repeat items"
    );
    assert_eq!(
        failure(&schema, json!({"v": [1, 1.0]})),
        "v must not repeat items"
    );
    assert_eq!(
        failure(&schema, json!({"v": [{"a": [1]}, {"a": [1.0]}]})),
        "v must not repeat items"
    );
    let many: Vec<Value> = (0..1_000).map(|i| json!({"n": i})).collect();
    passes(&schema, json!({"v": many}));
    let mut repeated = many;
    repeated.push(json!({"n": 999.0}));
    assert_eq!(
        failure(&schema, json!({"v": repeated})),
        "v must not repeat items"
    );

    let allowed = field(json!({"uniqueItems": false}));
    passes(&allowed, json!({"v": [1, 1]}));
}

#[test]
fn lengths_count_code_points() {
    let one = field(json!({"minLength": 1, "maxLength": 1}));
    for text in ["a", "é", "😀", "\u{10FFFF}", "中"] {
        passes(&one, json!({"v": text}));
    }
    // "e" + combining acute: two code points.
    assert_eq!(
        failure(&one, json!({"v": "e\u{301}"})),
        "v must have at most 1 character"
    );
    assert_eq!(
        failure(&one, json!({"v": ""})),
        "v must have at least 1 character"
    );
    assert_eq!(
        failure(&one, json!({"v": "😀😀"})),
        "v must have at most 1 character"
    );

    let range = field(json!({"minLength": 2, "maxLength": 3}));
    passes(&range, json!({"v": "ééé"}));
    assert_eq!(
        failure(&range, json!({"v": "é"})),
        "v must have at least 2 characters"
    );
    assert_eq!(
        failure(&range, json!({"v": "abcd"})),
        "v must have at most 3 characters"
    );
    // Lengths apply to strings only.
    passes(&range, json!({"v": 12345}));
}

#[test]
fn pattern_is_an_unanchored_search() {
    let schema = field(json!({"pattern": "b+"}));
    passes(&schema, json!({"v": "abbc"}));
    assert_eq!(
        failure(&schema, json!({"v": "ac"})),
        "v does not match the required pattern"
    );
    let anchored = field(json!({"pattern": "^[a-z]+$"}));
    passes(&anchored, json!({"v": "abc"}));
    assert_eq!(
        failure(&anchored, json!({"v": "abc1"})),
        "v does not match the required pattern"
    );
    // Patterns apply to strings only.
    passes(&anchored, json!({"v": 1}));
}

#[test]
fn pattern_uses_ecma_semantics() {
    // `\d` is ASCII only: ARABIC-INDIC DIGIT THREE is not a digit.
    let digits = field(json!({"pattern": "^\\d+$"}));
    passes(&digits, json!({"v": "0123456789"}));
    assert_eq!(
        failure(&digits, json!({"v": "\u{663}"})),
        "v does not match the required pattern"
    );
    // `$` does not match before a trailing newline.
    let end = field(json!({"pattern": "^a$"}));
    passes(&end, json!({"v": "a"}));
    assert_eq!(
        failure(&end, json!({"v": "a\n"})),
        "v does not match the required pattern"
    );
    // `.` matches a whole code point, and `\p{..}` works under the `u` flag.
    passes(&field(json!({"pattern": "^.$"})), json!({"v": "😀"}));
    let letters = field(json!({"pattern": "^\\p{L}+$"}));
    passes(&letters, json!({"v": "héllo"}));
    assert_eq!(
        failure(&letters, json!({"v": "h3"})),
        "v does not match the required pattern"
    );
    // `\w` is ASCII only too.
    assert_eq!(
        failure(&field(json!({"pattern": "^\\w$"})), json!({"v": "é"})),
        "v does not match the required pattern"
    );
}

#[test]
fn inclusive_bounds() {
    let schema = field(json!({"minimum": 1, "maximum": 1.5}));
    passes(&schema, json!({"v": 1}));
    passes(&schema, json!({"v": 1.0}));
    passes(&schema, json!({"v": 1.5}));
    assert_eq!(failure(&schema, json!({"v": 0})), "v must be >= 1");
    assert_eq!(failure(&schema, json!({"v": 0.999})), "v must be >= 1");
    assert_eq!(failure(&schema, json!({"v": 2})), "v must be <= 1.5");
    // Bounds apply to numbers only.
    passes(&schema, json!({"v": "0"}));
}

#[test]
fn exclusive_bounds() {
    let schema = field(json!({"exclusiveMinimum": 0, "exclusiveMaximum": 10}));
    passes(&schema, json!({"v": 0.1}));
    passes(&schema, json!({"v": 9.99}));
    assert_eq!(failure(&schema, json!({"v": 0})), "v must be > 0");
    assert_eq!(failure(&schema, json!({"v": -0.0})), "v must be > 0");
    assert_eq!(failure(&schema, json!({"v": 10})), "v must be < 10");
    assert_eq!(failure(&schema, json!({"v": 10.0})), "v must be < 10");
}

#[test]
fn bounds_are_exact_for_large_integers_and_render_as_json() {
    let schema = field(json!({"maximum": 9_007_199_254_740_992_u64}));
    passes(&schema, json!({"v": 9_007_199_254_740_992_u64}));
    assert_eq!(
        failure(&schema, json!({"v": 9_007_199_254_740_993_u64})),
        "v must be <= 9007199254740992"
    );
    let negative = field(json!({"minimum": -2.5}));
    assert_eq!(failure(&negative, json!({"v": -3})), "v must be >= -2.5");
    let exponent: Value = serde_json::from_str(r#"{"minimum": 1e2}"#).unwrap();
    assert_eq!(
        failure(&field(exponent), json!({"v": 99})),
        "v must be >= 100.0"
    );
}

#[test]
fn labels_past_the_steps_kept_in_place_name_every_step() {
    // Eleven steps (more than the path keeps without allocating), keys and indexes mixed, and
    // the same failure reached through `anyOf`, whose trials copy the path so far.
    let mut schema = json!({"type": "integer"});
    let mut value = json!("x");
    let mut label = String::new();
    for level in (0..11).rev() {
        if level % 2 == 0 {
            let key = format!("k{level}");
            schema = json!({"properties": {key.clone(): schema}});
            value = json!({key.clone(): value});
            label = format!(".{key}{label}");
        } else {
            schema = json!({"items": schema});
            value = json!([value]);
            label = format!("[0]{label}");
        }
    }
    let label = label.trim_start_matches('.');
    let plain = compile(schema.clone());
    assert_eq!(
        failure(&plain, value.clone()),
        format!("{label} must be of type integer")
    );
    let wrapped = compile(json!({"properties": {"w": {"anyOf": [schema, {"type": "null"}]}}}));
    let message = failure(&wrapped, json!({"w": value}));
    assert!(
        message.contains(&format!("w.{label} must be of type integer")),
        "{message}"
    );
}
