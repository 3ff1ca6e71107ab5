//! The list cursor decoder: any text is a cursor of a list or refused, and every cursor the
//! server writes decodes to the key it was written for.
#![no_main]

use beam_mcp::fuzzing::{decode_cursor, encode_cursor};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for kind in ["tools", "resources", "templates", "prompts"] {
        if let Some(key) = decode_cursor(kind, &text) {
            // A cursor naming one list is refused by every other.
            for other in ["tools", "resources", "templates", "prompts"] {
                assert_eq!(decode_cursor(other, &text).is_some(), other == kind);
            }
            assert_eq!(decode_cursor(kind, &encode_cursor(kind, &key)), Some(key));
        }
        let written = encode_cursor(kind, &text);
        assert_eq!(decode_cursor(kind, &written).as_deref(), Some(&*text));
    }
});
