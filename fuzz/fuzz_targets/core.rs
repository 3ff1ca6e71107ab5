//! The bounded JSON reader with the core behind it, on both revisions: the input is one
//! message, read by a stateless (2026-07-28) session when its first byte is even and by an
//! initialized 2025-11-25 session when odd. Every request is answered within the time limit.
#![no_main]

use beam_mcp::protocol::Session;
use beam_mcp_fuzz::{legacy_session, server, settle};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, message)) = data.split_first() else {
        return;
    };
    let session = if mode % 2 == 0 {
        Session::new()
    } else {
        legacy_session()
    };
    settle(server().handle(&session, message));
    // The session keeps serving after whatever came: a well-formed ping is still answered.
    settle(server().handle(
        &session,
        br#"{"jsonrpc":"2.0","id":"after","method":"ping"}"#,
    ));
});
