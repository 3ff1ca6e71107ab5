//! The public surface: advertising, cloning, debugging, error types.

use serde_json::json;

use super::{compile, failure, passes};
use crate::schema::{CompiledSchema, SchemaError, ValidationError};

#[test]
fn as_value_returns_the_schema_as_given() {
    let given = json!({
        "type": "object",
        "title": "Weather",
        "x-ui": {"order": 1},
        "properties": {"city": {"type": "string", "description": "Where"}}
    });
    let schema = compile(given.clone());
    assert_eq!(schema.as_value(), &given);
}

#[test]
fn clones_share_the_compiled_form_and_behave_alike() {
    let schema = compile(json!({"type": "object", "required": ["a"]}));
    let copy = schema.clone();
    assert!(std::ptr::eq(schema.as_value(), copy.as_value()));
    assert_eq!(failure(&copy, json!({})), "missing required property: a");
    passes(&copy, json!({"a": 1}));
}

#[test]
fn debug_shows_the_schema() {
    let schema = compile(json!({"type": "string"}));
    let shown = format!("{schema:?}");
    assert!(shown.starts_with("CompiledSchema"), "{shown}");
    assert!(shown.contains("string"), "{shown}");
}

#[test]
fn errors_display_their_message() {
    let refused = CompiledSchema::compile(&json!({"not": 1})).unwrap_err();
    assert_eq!(refused.to_string(), refused.message());
    assert_eq!(refused, SchemaError::new(refused.message()));

    let schema = compile(json!({"type": "string"}));
    let invalid = schema.validate(&json!(1)).unwrap_err();
    assert_eq!(invalid.to_string(), "arguments must be of type string");
    assert_eq!(
        invalid,
        ValidationError::new("arguments must be of type string")
    );
    let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(invalid);
    assert_eq!(boxed.to_string(), "arguments must be of type string");
}

#[test]
fn schemas_can_be_shared_across_threads() {
    fn shareable<T: Send + Sync + 'static>(_: &T) -> bool {
        true
    }
    let schema = compile(json!({"pattern": "^a"}));
    assert!(shareable(&schema));
    let worker = schema.clone();
    let result = std::thread::spawn(move || worker.validate(&json!("b")).is_err())
        .join()
        .unwrap();
    assert!(result);
    passes(&schema, json!("abc"));
}

#[test]
fn validation_leaves_the_value_untouched() {
    let schema = compile(json!({"additionalProperties": false}));
    let value = json!({"1.0": 1.0, "b": [true, null]});
    let before = value.to_string();
    assert_eq!(
        failure(&schema, value.clone()),
        "unknown properties: 1.0, b"
    );
    assert_eq!(value.to_string(), before);
}
