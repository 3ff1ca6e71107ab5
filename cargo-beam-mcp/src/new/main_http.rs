
/// Where to listen: `@BIND_VAR@`, or 127.0.0.1:8080.
fn bind() -> String {
    std::env::var("@BIND_VAR@").unwrap_or_else(|_| "127.0.0.1:8080".into())
}

beam_mcp::serve!(
    http,
    bind = &bind(),
    authorize = |parts| {
        use beam_mcp::transport::http::Refusal;
        let expected = std::env::var("@TOKEN_VAR@").map_err(|_| Refusal::new("no @TOKEN_VAR@ set"))?;
        match parts.headers.get("authorization").and_then(|v| v.to_str().ok()) {
            Some(given) if given.strip_prefix("Bearer ") == Some(expected.as_str()) => Ok(()),
            _ => Err(Refusal::unauthorized("missing or wrong bearer token", r#"Bearer realm="@NAME@""#)),
        }
    },
    allowed_origins = beam_mcp::transport::http::Origins::Loopback,
);
