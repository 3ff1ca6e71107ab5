//! W3C Trace Context (`traceparent`, `tracestate`) read into a remote span context, without the
//! SDK's propagator: the library depends on the OpenTelemetry API alone.

use std::str::FromStr;

use opentelemetry::trace::{SpanContext, TraceFlags, TraceState};
use opentelemetry::{SpanId, TraceId};

/// The remote span context a `traceparent` (and its `tracestate`) names; `None` for a value the
/// W3C format refuses (unknown version `ff`, all-zero ids, wrong lengths, upper-case hex).
pub(crate) fn remote(traceparent: &str, tracestate: Option<&str>) -> Option<SpanContext> {
    let mut parts = traceparent.trim().split('-');
    let version = parts.next()?;
    let trace_id = parts.next()?;
    let span_id = parts.next()?;
    let flags = parts.next()?;
    // Version 00 has exactly four fields; a later version may add fields after them.
    if version.len() != 2 || version == "ff" || !is_hex(version) {
        return None;
    }
    if version == "00" && parts.next().is_some() {
        return None;
    }
    if trace_id.len() != 32 || span_id.len() != 16 || flags.len() != 2 {
        return None;
    }
    if !(is_hex(trace_id) && is_hex(span_id) && is_hex(flags)) {
        return None;
    }
    let trace_id = TraceId::from_hex(trace_id).ok()?;
    let span_id = SpanId::from_hex(span_id).ok()?;
    if trace_id == TraceId::INVALID || span_id == SpanId::INVALID {
        return None;
    }
    let flags = u8::from_str_radix(flags, 16).ok()? & TraceFlags::SAMPLED.to_u8();
    // A malformed tracestate is dropped, not the parent (W3C §3.3).
    let state = tracestate
        .and_then(|s| TraceState::from_str(s).ok())
        .unwrap_or_default();
    Some(SpanContext::new(
        trace_id,
        span_id,
        TraceFlags::new(flags),
        true,
        state,
    ))
}

/// Lower-case hex only, as the format requires.
fn is_hex(text: &str) -> bool {
    text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_valid_traceparent_is_a_sampled_remote_parent() {
        let context = remote(
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            Some("rojo=00f067aa0ba902b7,congo=t61rcWkgMzE"),
        )
        .unwrap();
        assert_eq!(
            context.trace_id().to_string(),
            "4bf92f3577b34da6a3ce929d0e0e4736"
        );
        assert_eq!(context.span_id().to_string(), "00f067aa0ba902b7");
        assert!(context.is_sampled() && context.is_remote());
        assert_eq!(context.trace_state().get("congo"), Some("t61rcWkgMzE"));
    }

    #[test]
    fn malformed_traceparents_name_no_parent() {
        for bad in [
            "",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
            "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
        ] {
            assert!(remote(bad, None).is_none(), "{bad:?} was taken");
        }
    }

    #[test]
    fn a_later_version_may_carry_more_fields() {
        let context = remote(
            "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-more",
            None,
        )
        .unwrap();
        assert!(!context.is_sampled());
    }
}
