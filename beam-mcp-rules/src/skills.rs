//! The rules of a skill's frontmatter that the Skills extension adopts from the Agent Skills
//! format, read once here so the `skills!` macro refuses at compile time what `build()`
//! refuses at startup.

/// The most files a skill may have, `SKILL.md` among them (the extension's bound).
pub const SKILL_MOST_FILES: usize = 512;
/// The most bytes a skill's files may hold together (16 MiB, the extension's bound).
pub const SKILL_MOST_BYTES: u64 = 16 * 1024 * 1024;

/// The longest skill name.
pub const SKILL_NAME_CHARS: usize = 64;
/// The longest skill description, in characters.
pub const SKILL_DESCRIPTION_CHARS: usize = 1024;
/// The longest `compatibility` field, in characters.
pub const SKILL_COMPATIBILITY_CHARS: usize = 500;

/// Whether `name` is a skill name: 1 to 64 lowercase ASCII letters, digits and single
/// hyphens, neither first nor last.
///
/// ```
/// use beam_mcp_rules::skill_name;
/// assert!(skill_name("git-workflow").is_ok());
/// for bad in ["", "PDF", "two--words", "-two", "two-", "two_words", "café"] {
///     assert!(skill_name(bad).is_err(), "{bad}");
/// }
/// ```
pub fn skill_name(name: &str) -> Result<(), String> {
    let fine = !name.is_empty()
        && name.len() <= SKILL_NAME_CHARS
        && name.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        });
    if fine {
        Ok(())
    } else {
        Err(format!(
            "the skill name {name:?} is 1 to {SKILL_NAME_CHARS} lowercase letters, digits and single hyphens (not first or last), as the Agent Skills format says"
        ))
    }
}

/// Whether `description` is a skill's description: not blank, at most 1024 characters.
///
/// ```
/// assert!(beam_mcp_rules::skill_description("Packs for the weather.").is_ok());
/// assert!(beam_mcp_rules::skill_description(" ").is_err());
/// assert!(beam_mcp_rules::skill_description(&"x".repeat(1025)).is_err());
/// ```
pub fn skill_description(description: &str) -> Result<(), String> {
    let chars = description.chars().count();
    if description.trim().is_empty() {
        Err("a skill's description says what it does and when to use it; it is empty".into())
    } else if chars > SKILL_DESCRIPTION_CHARS {
        Err(format!(
            "a skill's description is at most {SKILL_DESCRIPTION_CHARS} characters; this one is {chars}"
        ))
    } else {
        Ok(())
    }
}

/// Whether `compatibility` is within its bound (500 characters).
///
/// ```
/// assert!(beam_mcp_rules::skill_compatibility("Needs network access.").is_ok());
/// assert!(beam_mcp_rules::skill_compatibility(&"x".repeat(501)).is_err());
/// ```
pub fn skill_compatibility(compatibility: &str) -> Result<(), String> {
    let chars = compatibility.chars().count();
    if chars > SKILL_COMPATIBILITY_CHARS {
        Err(format!(
            "a skill's compatibility is at most {SKILL_COMPATIBILITY_CHARS} characters; this one is {chars}"
        ))
    } else {
        Ok(())
    }
}

/// Whether `segment` may stand in a `skill://` URI as it is: letters, digits, `-`, `.`, `_` and
/// `~` (RFC 3986's unreserved characters), not `.` or `..`.
fn uri_safe(segment: &str) -> bool {
    !segment.is_empty()
        && segment != "."
        && segment != ".."
        && segment
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b))
}

/// Whether `path` is a skill's path: `/`-separated segments that stand in a URI as they are,
/// the last a skill name.
///
/// ```
/// use beam_mcp_rules::skill_path;
/// assert!(skill_path("acme/billing/refunds").is_ok());
/// assert!(skill_path("team a/notes").is_err());
/// assert!(skill_path("a//notes").is_err());
/// ```
pub fn skill_path(path: &str) -> Result<(), String> {
    if !path.split('/').all(uri_safe) {
        return Err(format!(
            "its path {path:?} is one or more /-separated segments of letters, digits, -, ., _ and ~"
        ));
    }
    skill_name(path.rsplit('/').next().unwrap_or(path))
}

/// Whether `path` is a file's path inside its skill's folder: relative, `/`-separated, each
/// name standing in a URI as it is (letters, digits, `-`, `.`, `_`, `~`).
///
/// ```
/// use beam_mcp_rules::skill_file_path;
/// assert!(skill_file_path("reference/layers.md").is_ok());
/// for bad in ["../x.md", "a//b.md", "notes v2.md", "caf\u{e9}.md", "100%.md", "q?.md"] {
///     assert!(skill_file_path(bad).is_err(), "{bad}");
/// }
/// ```
pub fn skill_file_path(path: &str) -> Result<(), String> {
    if path.split('/').all(uri_safe) {
        Ok(())
    } else {
        Err(format!(
            "the file path {path:?} is not a relative path of names of letters, digits, -, ., _ and ~ (each stands in a skill:// URI as it is)"
        ))
    }
}

/// Whether a skill of `files` files holding `bytes` bytes is within the extension's bounds.
///
/// ```
/// assert!(beam_mcp_rules::skill_bounds(2, 1024).is_ok());
/// assert!(beam_mcp_rules::skill_bounds(513, 0).is_err());
/// ```
pub fn skill_bounds(files: usize, bytes: u64) -> Result<(), String> {
    if files > SKILL_MOST_FILES {
        Err(format!(
            "it has {files} files; a skill has at most {SKILL_MOST_FILES}"
        ))
    } else if bytes > SKILL_MOST_BYTES {
        Err(format!(
            "its files hold {bytes} bytes; a skill holds at most {SKILL_MOST_BYTES}"
        ))
    } else {
        Ok(())
    }
}
