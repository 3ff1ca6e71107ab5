//! The HTTP request metadata rules (`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`, the `=?base64?`
//! form) with the core behind them: header lines (`name: value`) up to an empty line, then one
//! JSON body. Whatever the headers, the answer is a response or silence, never a panic.
#![no_main]

use beam_mcp::protocol::Session;
use beam_mcp_fuzz::{server, settle};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let split = data
        .windows(2)
        .position(|w| w == b"\n\n")
        .unwrap_or(data.len());
    let (head, body) = (&data[..split], data.get(split + 2..).unwrap_or_default());
    let headers: Vec<(&[u8], &[u8])> = head
        .split(|b| *b == b'\n')
        .filter_map(|line| {
            let at = line.iter().position(|b| *b == b':')?;
            let value = &line[at + 1..];
            let value = value.strip_prefix(b" ").unwrap_or(value);
            Some((&line[..at], value))
        })
        .collect();
    let Ok(message) = beam_mcp::json::read(body) else {
        return;
    };
    let session = Session::new();
    settle(beam_mcp::fuzzing::through_header_rules(
        server(),
        &session,
        &headers,
        message,
    ));
});
