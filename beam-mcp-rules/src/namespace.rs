//! How a mounted catalog's items are named in the server that mounts them: one rule, used by
//! `ServerBuilder::mount` at run time and by the macros' compile-time clash check of named
//! catalogs, so both see the same names.

/// What is wrong with a mount prefix (or a catalog's name), if anything: 1 to 32 ASCII letters,
/// digits, `_` or `-`, starting with a letter. It stands before a tool's or prompt's name and as
/// the first segment of a resource URI's path, so it must be valid in both.
///
/// ```
/// use beam_mcp_rules::prefix_defect;
/// assert_eq!(prefix_defect("notes"), None);
/// assert_eq!(prefix_defect("notes-v2"), None);
/// assert!(prefix_defect("").is_some());
/// assert!(prefix_defect("2notes").is_some());
/// assert!(prefix_defect("no tes").is_some());
/// ```
pub fn prefix_defect(prefix: &str) -> Option<&'static str> {
    let ok = (1..=32).contains(&prefix.len())
        && prefix.starts_with(|c: char| c.is_ascii_alphabetic())
        && prefix
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'));
    (!ok).then_some(
        "a mount prefix is 1 to 32 ASCII letters, digits, `_` or `-`, starting with a letter",
    )
}

/// A tool's or prompt's name under `prefix`: `{prefix}_{name}` (`notes_search`). `_` is the
/// separator because every client accepts it in a tool name (some refuse `.` and `/`).
///
/// ```
/// assert_eq!(beam_mcp_rules::namespaced_name("notes", "search"), "notes_search");
/// ```
pub fn namespaced_name(prefix: &str, name: &str) -> String {
    format!("{prefix}_{name}")
}

/// A resource's URI (or a template's source) under `prefix`: `scheme://{prefix}/{rest}`, where
/// `rest` is everything that followed `scheme://`, kept whole (so `file:///a.txt` becomes
/// `file://notes//a.txt`, its empty authority kept as an empty segment, and no two URIs meet
/// in one). A URI without `//` after its scheme (`urn:x`) has no place for the prefix: `None`.
///
/// ```
/// use beam_mcp_rules::namespaced_uri;
/// assert_eq!(namespaced_uri("notes", "notes://today").as_deref(), Some("notes://notes/today"));
/// assert_eq!(namespaced_uri("notes", "file:///{+path}").as_deref(), Some("file://notes//{+path}"));
/// assert_eq!(namespaced_uri("a", "ui://weather/view.html").as_deref(), Some("ui://a/weather/view.html"));
/// assert_eq!(namespaced_uri("notes", "urn:isbn:1"), None);
/// ```
pub fn namespaced_uri(prefix: &str, uri: &str) -> Option<String> {
    let (scheme, rest) = uri.split_once("://")?;
    Some(format!("{scheme}://{prefix}/{rest}"))
}

/// The URI a mounted resource has in its own catalog: the inverse of [`namespaced_uri`], or
/// `None` when `served` is not under `prefix`.
///
/// ```
/// use beam_mcp_rules::original_uri;
/// assert_eq!(original_uri("notes", "notes://notes/today").as_deref(), Some("notes://today"));
/// assert_eq!(original_uri("notes", "file://notes//a.txt").as_deref(), Some("file:///a.txt"));
/// assert_eq!(original_uri("notes", "notes://files/today"), None);
/// ```
pub fn original_uri(prefix: &str, served: &str) -> Option<String> {
    let (scheme, rest) = served.split_once("://")?;
    let own = rest.strip_prefix(prefix)?.strip_prefix('/')?;
    Some(format!("{scheme}://{own}"))
}
