//! A fixed number of `tools/call` requests through the core, for instruction counts:
//! `valgrind --tool=callgrind` on N and on 2N calls; the difference over N is the cost of one
//! call, with start-up subtracted. Run by `bench/callcount.sh`.
//!
//! `CALLS` (default 1000) sets N; `KIND` is `modern` (structured, async tool, 2026-07-28) or
//! `legacy` (text, sync tool, no `_meta`). `OBSERVE=on` counts every call in a started
//! observer (the observed connectome's hook).

#![allow(missing_docs)]

mod common;

use std::hint::black_box;

use beam_mcp::protocol::Session;

fn main() {
    let calls: usize = std::env::var("CALLS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1000);
    let kind = std::env::var("KIND").unwrap_or_else(|_| "modern".into());
    let server = if std::env::var("OBSERVE").is_ok_and(|v| v == "on") {
        common::observed_server()
    } else {
        common::server()
    };
    let session = Session::new();
    let input = if kind == "legacy" {
        common::LEGACY
    } else {
        common::MODERN
    };
    let mut out = Vec::with_capacity(1024);
    for _ in 0..calls {
        common::answer(&server, &session, black_box(input), &mut out);
        black_box(&out);
    }
    assert!(
        out.windows(8).any(|w| w == b"\"result\""),
        "{}",
        String::from_utf8_lossy(&out)
    );
}
