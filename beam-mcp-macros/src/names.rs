//! Name rules shared by the checks.

/// True for 1 to 64 characters of `A-Za-z0-9_.-/` (the conformance suite's rule).
pub(crate) fn valid_tool_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'/'))
}
