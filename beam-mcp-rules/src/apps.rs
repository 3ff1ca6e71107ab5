//! The rules of MCP Apps (`io.modelcontextprotocol/ui`, ext-apps 2026-01-26): an app's `ui://`
//! URI, the origins its Content Security Policy names, its sandbox permissions, a tool's
//! visibility, read once here so the macros refuse at compile time what `build()` refuses at
//! startup.

/// The MIME type of an app's HTML (`RESOURCE_MIME_TYPE` in `@modelcontextprotocol/ext-apps`).
pub const APP_MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The sandbox permissions an app may ask for, as the attribute spells them, with the key of
/// `_meta.ui.permissions` each is written as.
pub const APP_PERMISSIONS: [(&str, &str); 4] = [
    ("camera", "camera"),
    ("microphone", "microphone"),
    ("geolocation", "geolocation"),
    ("clipboard_write", "clipboardWrite"),
];

/// Whether `uri` may name an app: `ui://` and a path, no template, no whitespace.
///
/// ```
/// use beam_mcp_rules::app_uri;
/// assert!(app_uri("ui://weather/reading").is_ok());
/// assert!(app_uri("app://weather/reading").is_err());
/// assert!(app_uri("ui://").is_err());
/// assert!(app_uri("ui://weather/{place}").is_err());
/// ```
pub fn app_uri(uri: &str) -> Result<(), &'static str> {
    let Some(rest) = uri.strip_prefix("ui://") else {
        return Err("an app's URI starts with ui:// (ui://server/view)");
    };
    if rest.is_empty() {
        return Err("an app's URI names the view after ui:// (ui://server/view)");
    }
    if rest.contains(['{', '}']) {
        return Err("an app's URI is one URI, not a template: a tool links to exactly one view");
    }
    if rest.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("an app's URI has no whitespace or control characters");
    }
    Ok(())
}

/// Whether `source` may stand in an app's Content Security Policy (`connect_domains`,
/// `resource_domains`, `frame_domains`, `base_uri_domains`): an origin, `scheme://host[:port]`,
/// with `http`, `https`, `ws` or `wss`, the host's first label `*` at most
/// (`https://*.example.com`). Anything else could widen or break the policy a host writes
/// from it (a `;` starts a new directive, a bare `*` allows every origin), so it is refused.
///
/// ```
/// use beam_mcp_rules::csp_source;
/// assert!(csp_source("https://api.example.com").is_ok());
/// assert!(csp_source("wss://live.example.com:8443").is_ok());
/// assert!(csp_source("https://*.example.com").is_ok());
/// assert!(csp_source("http://[::1]:8080").is_ok());
/// assert!(csp_source("http://[::1]x").is_err());
/// assert!(csp_source("https://*.com").is_err());
/// assert!(csp_source("https://example.com:65536").is_err());
/// assert!(csp_source("*").is_err());
/// assert!(csp_source("https://a.example.com; script-src *").is_err());
/// assert!(csp_source("https://example.com/path").is_err());
/// assert!(csp_source("javascript:alert(1)").is_err());
/// ```
pub fn csp_source(source: &str) -> Result<(), &'static str> {
    const HOW: &str = "a CSP domain is an origin: https://host, wss://host:port or https://*.host";
    let Some((scheme, rest)) = source.split_once("://") else {
        return Err(HOW);
    };
    if !["https", "http", "wss", "ws"].contains(&scheme) {
        return Err("a CSP domain's scheme is https, http, wss or ws");
    }
    // An IPv6 host is bracketed, its colons inside: the port follows the `]`. `host` is the
    // name to check, none for an IPv6 address (checked here).
    let (host, port) = match rest.strip_prefix('[') {
        Some(bracketed) => {
            let Some((address, after)) = bracketed.split_once(']') else {
                return Err(HOW);
            };
            let port = match after {
                "" => None,
                _ => Some(after.strip_prefix(':').ok_or(HOW)?),
            };
            let ipv6 = address.matches(':').count() >= 2
                && address
                    .bytes()
                    .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.');
            if !ipv6 {
                return Err(HOW);
            }
            (None, port)
        }
        None => match rest.rsplit_once(':') {
            Some((host, port)) => (Some(host), Some(port)),
            None => (Some(rest), None),
        },
    };
    if let Some(port) = port
        && (port.is_empty()
            || !port.bytes().all(|b| b.is_ascii_digit())
            || port.parse::<u16>().is_err())
    {
        return Err("a CSP domain's port is a number: https://host:8443");
    }
    let Some(host) = host else {
        return Ok(());
    };
    let (host, wildcard) = match host.strip_prefix("*.") {
        Some(rest) => (rest, true),
        None => (host, false),
    };
    // `*.com` would be nearly every origin: a wildcard stands before two labels at least.
    if wildcard && !host.contains('.') {
        return Err(
            "a wildcard CSP domain names a registrable domain: https://*.example.com, not https://*.com",
        );
    }
    if !host_name(host) {
        return Err(HOW);
    }
    Ok(())
}

/// Whether `name` is a DNS host name: labels of 1 to 63 letters, digits and inner `-`, joined
/// by dots, 253 characters at most.
fn host_name(name: &str) -> bool {
    let label = |label: &str| {
        !label.is_empty()
            && label.len() <= 63
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !label.starts_with('-')
            && !label.ends_with('-')
    };
    !name.is_empty() && name.len() <= 253 && name.split('.').all(label)
}

/// Whether `domain` may be an app's dedicated sandbox origin (`_meta.ui.domain`): its form is
/// the host's to define (`{hash}.claudemcpcontent.com`, `www-example-com.oaiusercontent.com`),
/// always a host name: labels of letters, digits and inner `-`, joined by dots.
///
/// ```
/// use beam_mcp_rules::app_domain;
/// assert!(app_domain("a904794854a047f6.claudemcpcontent.com").is_ok());
/// assert!(app_domain("").is_err());
/// assert!(app_domain("a b").is_err());
/// assert!(app_domain("evil.example/<x>").is_err());
/// assert!(app_domain("-a.example").is_err());
/// ```
pub fn app_domain(domain: &str) -> Result<(), &'static str> {
    if !host_name(domain) {
        return Err(
            "an app's domain is the host name a host gives its sandbox (e.g. {hash}.claudemcpcontent.com): labels of letters, digits and -, joined by dots",
        );
    }
    Ok(())
}

/// The `_meta.ui.permissions` key of a permission the attribute names (`clipboard_write` →
/// `clipboardWrite`), or why it is not one.
///
/// ```
/// use beam_mcp_rules::app_permission;
/// assert_eq!(app_permission("clipboard_write"), Ok("clipboardWrite"));
/// assert!(app_permission("usb").is_err());
/// ```
pub fn app_permission(name: &str) -> Result<&'static str, &'static str> {
    APP_PERMISSIONS
        .iter()
        .find(|(spelled, _)| *spelled == name)
        .map(|(_, key)| *key)
        .ok_or("an app's permissions are camera, microphone, geolocation and clipboard_write")
}
