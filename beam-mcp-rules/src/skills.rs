//! The rules of a skill's frontmatter that the Skills extension adopts from the Agent Skills
//! format, read once here so the `skills!` macro refuses at compile time what `build()`
//! refuses at startup.

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
