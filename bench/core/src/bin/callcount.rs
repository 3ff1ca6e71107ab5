//! A fixed number of `tools/call` requests through the core, for instruction counts:
//! `valgrind --tool=callgrind` on N and on 2N calls; the difference over N is the cost of one
//! call, with start-up subtracted. Run by `bench/callcount.sh`, held by `bench/guard.sh`.
//!
//! `CALLS` (default 1000) sets N; `KIND` is `modern` (structured, async tool, 2026-07-28) or
//! `legacy` (text, sync tool, no `_meta`), `tagged` (an argument of a tagged enum of three
//! variants) or `tree` (a recursive tree 4 deep). `OBSERVE=on` counts every call in a started
//! observer (the observed connectome's hook). `CHAIN=middleware` puts one middleware that only
//! calls `next` around each call; `CHAIN=telemetry` (built with `--features otel`) reports each
//! through OpenTelemetry. `CALLCOUNT_PANIC_AFTER=K` panics after K calls:
//! the gate's negative control for a bench that dies partway (its count is lower, and must
//! not pass).

#![allow(missing_docs)]

use std::hint::black_box;

use beam_mcp::protocol::Session;
use beam_mcp_bench as common;

fn main() {
    let calls: usize = number("CALLS").unwrap_or(1000);
    let panic_after = number("CALLCOUNT_PANIC_AFTER");
    let kind = std::env::var("KIND").unwrap_or_else(|_| "modern".into());
    let chain = std::env::var("CHAIN").unwrap_or_default();
    let server = match chain.as_str() {
        _ if std::env::var("OBSERVE").is_ok_and(|v| v == "on") => common::observed_server(),
        "" => common::server(),
        "middleware" => common::middleware_server(),
        #[cfg(feature = "otel")]
        "telemetry" => common::telemetry_server(),
        other => panic!("CHAIN is middleware or (with --features otel) telemetry, not {other:?}"),
    };
    let session = Session::new();
    let (input, answer): (&[u8], &str) = match kind.as_str() {
        "modern" => (common::MODERN, r#""structuredContent":{"result":42}"#),
        "legacy" => (common::LEGACY, r#""text":"hello world""#),
        "tagged" => (common::TAGGED, r#""text":"7.5""#),
        "tree" => (common::TREE, r#""text":"7 nodes""#),
        other => panic!("KIND is modern, legacy, tagged or tree, not {other:?}"),
    };
    let mut out = Vec::with_capacity(1024);
    for call in 0..calls {
        if panic_after == Some(call) {
            panic!("CALLCOUNT_PANIC_AFTER={call}: the negative control's panic");
        }
        common::answer(&server, &session, black_box(input), &mut out);
        black_box(&out);
    }
    // A count is only worth holding if the calls it counts were answered, and answered right.
    let text = String::from_utf8_lossy(&out);
    assert!(
        text.contains(answer) && !text.contains(r#""isError":true"#),
        "the last answer is not the expected one ({answer}): {text}"
    );
}

/// A count from the environment; a value that is set but not a number is a fault, not a default.
fn number(name: &str) -> Option<usize> {
    let value = std::env::var(name).ok()?;
    Some(
        value
            .parse()
            .unwrap_or_else(|_| panic!("{name} is a count, not {value:?}")),
    )
}
