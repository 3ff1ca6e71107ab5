//! Names and URIs: what a tool name, a header name and a resource URI may be.

/// True for 1 to 64 characters of `A-Za-z0-9_.-/`, the tool-name rule of the specification
/// and of the official conformance suite.
///
/// ```
/// use beam_mcp_rules::valid_tool_name;
/// assert!(valid_tool_name("get_weather"));
/// assert!(valid_tool_name("admin/tools.list-all"));
/// assert!(!valid_tool_name("get weather"));
/// assert!(!valid_tool_name(""));
/// ```
pub fn valid_tool_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'/'))
}

/// What is wrong with a resource URI (or the literal text of a template), if anything: it
/// must start with a scheme (`scheme:`) and hold no whitespace or control characters.
///
/// ```
/// use beam_mcp_rules::uri_defect;
/// assert_eq!(uri_defect("test://static-text"), None);
/// assert!(uri_defect("static-text").is_some());
/// assert!(uri_defect("test://a b").is_some());
/// ```
pub fn uri_defect(uri: &str) -> Option<&'static str> {
    const NO_SCHEME: &str = "a resource URI starts with a scheme such as `file:` or `app://`";
    let Some(scheme_len) = uri.find(':') else {
        return Some(NO_SCHEME);
    };
    let scheme = &uri[..scheme_len];
    let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-'));
    if !scheme_ok {
        return Some(NO_SCHEME);
    }
    if uri.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Some("a resource URI holds no whitespace or control characters");
    }
    None
}

/// What is wrong with the name given to an `x-mcp-header` parameter, if anything: it becomes
/// part of the HTTP header `Mcp-Param-{name}`, so it is 1 or more of the HTTP token characters.
///
/// ```
/// use beam_mcp_rules::header_name_defect;
/// assert_eq!(header_name_defect("Region"), None);
/// assert!(header_name_defect("two words").is_some());
/// ```
pub fn header_name_defect(name: &str) -> Option<&'static str> {
    let token = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
    if name.is_empty() || !name.bytes().all(token) {
        return Some(
            "an x-mcp-header name is an HTTP token (letters, digits and !#$%&'*+-.^_`|~), because it becomes the header Mcp-Param-{name}",
        );
    }
    None
}
