//! Tests of the schema module through its public API, plus a few that
//! drive the compiler and validator directly on very deep input.

mod api;
mod check;
mod deep;
mod flat;
mod keywords;
mod order;
mod pattern;
mod types;

use serde_json::Value;

use super::CompiledSchema;

/// Compiles a schema the test expects to be well-formed.
fn compile(schema: Value) -> CompiledSchema {
    match CompiledSchema::compile(&schema) {
        Ok(compiled) => compiled,
        Err(error) => panic!("schema {schema} should compile: {error}"),
    }
}

/// The message of a schema the test expects to be refused.
fn refusal(schema: Value) -> String {
    match CompiledSchema::compile(&schema) {
        Ok(_) => panic!("schema {schema} should be refused"),
        Err(error) => error.message().to_owned(),
    }
}

/// The message of a value the test expects to fail.
fn failure(schema: &CompiledSchema, value: Value) -> String {
    match schema.validate(&value) {
        Ok(()) => panic!("{value} should fail {}", schema.as_value()),
        Err(error) => error.message().to_owned(),
    }
}

/// Asserts that a value passes.
fn passes(schema: &CompiledSchema, value: Value) {
    if let Err(error) = schema.validate(&value) {
        panic!("{value} should pass {}: {error}", schema.as_value());
    }
}
