//! The schema validator: a random schema and a random instance, split at the first NUL. A
//! schema that compiles validates any instance without a panic; one that does not is refused
//! with a message.
#![no_main]

use beam_mcp::schema::CompiledSchema;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (schema, instance) = match data.iter().position(|b| *b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &b"null"[..]),
    };
    let (Ok(schema), Ok(instance)) = (beam_mcp::json::read(schema), beam_mcp::json::read(instance))
    else {
        return;
    };
    match CompiledSchema::compile(&schema) {
        Ok(compiled) => {
            if let Err(error) = compiled.validate(&instance) {
                assert!(!error.message().is_empty());
            }
            // Validation is a function of the two values: the same answer twice.
            assert_eq!(
                compiled.validate(&instance).is_ok(),
                compiled.validate(&instance).is_ok()
            );
        }
        Err(error) => assert!(!error.message().is_empty()),
    }
});
