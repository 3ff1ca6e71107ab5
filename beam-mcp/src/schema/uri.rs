//! Just enough of RFC 3986 to resolve `$id` and `$ref` within one schema document: a reference
//! resolved against a base URI, and a URI split from its fragment. Nothing is ever fetched.

/// The base URI of a document that declares no `$id` of its own.
pub(crate) const DEFAULT_BASE: &str = "https://beam-mcp.invalid/schema.json";

/// `uri` without its fragment, and the fragment (percent-decoded; empty when absent).
pub(crate) fn split_fragment(uri: &str) -> (&str, String) {
    match uri.split_once('#') {
        Some((base, fragment)) => (base, percent_decode(fragment)),
        None => (uri, String::new()),
    }
}

/// `reference` resolved against the absolute `base` (RFC 3986 §5.2), fragment kept.
pub(crate) fn resolve(base: &str, reference: &str) -> String {
    let (reference, fragment) = match reference.split_once('#') {
        Some((r, f)) => (r, Some(f)),
        None => (reference, None),
    };
    let (base, _) = base.split_once('#').unwrap_or((base, ""));
    let target = if has_scheme(reference) {
        remove_dot_segments_of(reference)
    } else if reference.is_empty() {
        base.to_owned()
    } else {
        let (scheme, rest) = base.split_once(':').unwrap_or(("", base));
        if let Some(authority_and_path) = reference.strip_prefix("//") {
            format!("{scheme}://{}", remove_dots(authority_and_path))
        } else {
            let (authority, path) = split_authority(rest);
            let merged = if reference.starts_with('/') {
                reference.to_owned()
            } else if reference.starts_with('?') {
                format!("{}{reference}", path.split('?').next().unwrap_or(""))
            } else {
                let path = path.split('?').next().unwrap_or("");
                match path.rfind('/') {
                    Some(slash) => format!("{}{reference}", &path[..=slash]),
                    None if authority.is_some() => format!("/{reference}"),
                    None => reference.to_owned(),
                }
            };
            match authority {
                Some(authority) => format!("{scheme}://{authority}{}", remove_dots(&merged)),
                None => format!("{scheme}:{}", remove_dots(&merged)),
            }
        }
    };
    match fragment {
        Some(fragment) if !fragment.is_empty() => format!("{target}#{fragment}"),
        _ => target,
    }
}

/// True when `reference` starts with a scheme (`urn:`, `https:`): it is absolute.
fn has_scheme(reference: &str) -> bool {
    let Some((scheme, _)) = reference.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// `//authority/path` split; `None` for a URI with no authority (`urn:a:b`).
fn split_authority(rest: &str) -> (Option<&str>, &str) {
    match rest.strip_prefix("//") {
        Some(after) => match after.find('/') {
            Some(slash) => (Some(&after[..slash]), &after[slash..]),
            None => (Some(after), ""),
        },
        None => (None, rest),
    }
}

fn remove_dot_segments_of(uri: &str) -> String {
    let (scheme, rest) = uri.split_once(':').unwrap_or(("", uri));
    match split_authority(rest) {
        (Some(authority), path) => format!("{scheme}://{authority}{}", remove_dots(path)),
        (None, path) => format!("{scheme}:{path}"),
    }
}

/// RFC 3986 §5.2.4 on a path (a query, if any, kept as it is).
fn remove_dots(path: &str) -> String {
    let (path, query) = match path.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (path, None),
    };
    if !path.contains("./") && !path.ends_with("/.") && !path.ends_with("/..") {
        return match query {
            Some(q) => format!("{path}?{q}"),
            None => path.to_owned(),
        };
    }
    let absolute = path.starts_with('/');
    let mut out: Vec<&str> = Vec::new();
    let segments: Vec<&str> = path.split('/').collect();
    let last = segments.len().saturating_sub(1);
    let mut trailing = false;
    for (i, segment) in segments.iter().enumerate() {
        match *segment {
            "." => trailing = i == last,
            ".." => {
                if out.len() > usize::from(absolute) {
                    out.pop();
                }
                trailing = i == last;
            }
            s => {
                out.push(s);
                trailing = false;
            }
        }
    }
    let mut joined = out.join("/");
    if trailing {
        joined.push('/');
    }
    if absolute && !joined.starts_with('/') {
        joined.insert(0, '/');
    }
    match query {
        Some(q) => format!("{joined}?{q}"),
        None => joined,
    }
}

/// `%XX` escapes decoded (a fragment's JSON pointer may be written with them); an escape that
/// is not one, or bytes that are not UTF-8, are kept as written.
fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = text.get(i + 1..i + 3)
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_resolve_as_rfc_3986_says() {
        let base = "http://a/b/c/d;p?q";
        for (reference, expected) in [
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("", "http://a/b/c/d;p?q"),
            ("..", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../../g", "http://a/g"),
            ("urn:x:y", "urn:x:y"),
        ] {
            assert_eq!(resolve(base, reference), expected, "{reference}");
        }
        assert_eq!(
            resolve("urn:uuid:deadbeef", "#/$defs/a"),
            "urn:uuid:deadbeef#/$defs/a"
        );
        assert_eq!(resolve(DEFAULT_BASE, "#"), DEFAULT_BASE);
    }

    #[test]
    fn fragments_are_split_and_decoded() {
        assert_eq!(split_fragment("a#/x%25y"), ("a", "/x%y".to_owned()));
        assert_eq!(split_fragment("a"), ("a", String::new()));
        assert_eq!(split_fragment("#%zz").1, "%zz");
    }
}
