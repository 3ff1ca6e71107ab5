//! The stdio transport end to end: framing (lines and `Content-Length` frames) with the core
//! behind it, over an in-memory pipe. Whatever the input, the session ends at its end and every
//! byte written is a newline-terminated JSON message.
#![no_main]

use beam_mcp_fuzz::{runtime, server};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut output = Vec::new();
    runtime()
        .block_on(beam_mcp::transport::stdio::serve(
            server().clone(),
            data,
            &mut output,
        ))
        .expect("an in-memory pipe never fails");
    for line in output.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        let value: serde_json::Value =
            serde_json::from_slice(line).expect("every line written is JSON");
        assert!(value.is_object(), "every line written is a message");
    }
    assert!(output.is_empty() || output.ends_with(b"\n"));
});
