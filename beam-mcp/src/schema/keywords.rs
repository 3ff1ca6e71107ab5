//! Which schema keys this server enforces, which it ignores, and the rest.

/// The keywords validation enforces, at every depth: every assertion and applicator of JSON
/// Schema 2020-12 except `$dynamicRef`, with `$ref` resolved inside the document.
pub(crate) const ENFORCED: [&str; 40] = [
    "type",
    "enum",
    "const",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "unevaluatedProperties",
    "required",
    "dependentRequired",
    "dependentSchemas",
    "minProperties",
    "maxProperties",
    "prefixItems",
    "items",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedItems",
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
    "multipleOf",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$defs",
    "$anchor",
];

/// Annotations and identifiers: allowed anywhere, never asserted. `format` is an annotation,
/// as 2020-12 makes it by default; `$id` and `$dynamicAnchor` name a place `$ref` may reach.
pub(crate) const ANNOTATIONS: [&str; 16] = [
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
    "$dynamicAnchor",
    "$vocabulary",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
];

/// True when `key` may appear in a schema: enforced, an annotation, or an
/// `x-` extension. Anything else would be silently unenforced, so it is refused.
pub(crate) fn is_allowed(key: &str) -> bool {
    key.starts_with("x-") || ENFORCED.contains(&key) || ANNOTATIONS.contains(&key)
}

/// Why a keyword is refused, when there is more to say than that it is unknown.
pub(crate) fn refusal_hint(key: &str) -> &'static str {
    match key {
        "$dynamicRef" => "; use $ref",
        "definitions" => "; 2020-12 names it $defs",
        "dependencies" => "; 2020-12 splits it into dependentRequired and dependentSchemas",
        "additionalItems" => "; 2020-12 writes items after prefixItems",
        "$recursiveRef" | "$recursiveAnchor" => "; 2020-12 replaced it, and this server takes $ref",
        _ => "",
    }
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
    fn unknown_and_older_keywords_are_not() {
        for key in [
            "$dynamicRef",
            "X-vendor",
            "x",
            "Type",
            "",
            "definitions",
            "dependencies",
            "additionalItems",
        ] {
            assert!(!is_allowed(key), "{key} should be refused");
        }
    }
}
