//! Which schema keys this server enforces, which it ignores, and the rest.

/// The keywords validation enforces, at every depth.
pub(crate) const ENFORCED: [&str; 19] = [
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "additionalProperties",
    "minProperties",
    "maxProperties",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
];

/// Annotations: allowed anywhere, never checked, never enforced.
pub(crate) const ANNOTATIONS: [&str; 11] = [
    "title",
    "description",
    "default",
    "examples",
    "format",
    "readOnly",
    "writeOnly",
    "deprecated",
    "$schema",
    "$id",
    "$comment",
];

/// True when `key` may appear in a schema: enforced, an annotation, or an
/// `x-` extension. Anything else would be silently unenforced, so it is refused.
pub(crate) fn is_allowed(key: &str) -> bool {
    key.starts_with("x-") || ENFORCED.contains(&key) || ANNOTATIONS.contains(&key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enforced_annotations_and_extensions_are_allowed() {
        assert!(ENFORCED.iter().all(|key| is_allowed(key)));
        assert!(ANNOTATIONS.iter().all(|key| is_allowed(key)));
        assert!(is_allowed("x-vendor"));
        assert!(is_allowed("x-"));
    }

    #[test]
    fn composition_and_references_are_not() {
        for key in ["oneOf", "$ref", "X-vendor", "x", "Type", "", "definitions"] {
            assert!(!is_allowed(key), "{key} should be refused");
        }
    }
}
