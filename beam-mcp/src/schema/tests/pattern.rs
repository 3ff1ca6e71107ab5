//! `pattern` in linear time: what backtracks exponentially elsewhere is
//! decided here in one pass, what cannot be matched so is refused when the
//! schema is compiled, naming the pattern, and ECMA-262's meanings are kept.

use serde_json::{Value, json};

use super::{compile, failure, passes, refusal};
use crate::schema::CompiledSchema;
use crate::schema::pattern::SIZE_LIMIT;

/// A schema whose property `v` is a string with `pattern`.
fn field(pattern: &str) -> CompiledSchema {
    compile(json!({"type": "object", "properties": {"v": {"type": "string", "pattern": pattern}}}))
}

/// The refusal of a schema whose property `code` has `pattern`.
fn refused(pattern: &str) -> String {
    refusal(json!({"properties": {"code": {"pattern": pattern}}}))
}

const NO_MATCH: &str = "v does not match the required pattern";

#[test]
fn exponential_backtracking_patterns_finish_on_long_input() {
    // A backtracking engine takes 2^n steps on each of these; a search here is one pass.
    let long = "a".repeat(100_000);
    let bad = format!("{long}!");
    for pattern in [
        "^(a+)+$",
        "^(a|aa)+$",
        "^(a|a?)+$",
        "(a*)*b",
        "^(\\w+\\s?)*$",
    ] {
        let schema = field(pattern);
        assert_eq!(failure(&schema, json!({ "v": bad })), NO_MATCH, "{pattern}");
    }
    passes(&field("^(a+)+$"), json!({ "v": long }));
    // Nested counted repetition is bounded when compiling, not per call.
    let schema = field("^(a{1,10}){1,10}$");
    passes(&schema, json!({"v": "a".repeat(100)}));
    assert_eq!(failure(&schema, json!({"v": "a".repeat(101)})), NO_MATCH);
}

#[test]
fn lookaround_and_backreferences_are_refused_naming_the_pattern_and_feature() {
    let tail = "which this server does not enforce: patterns are matched in linear time, \
                without lookaround, backreferences or inline modifiers";
    for (pattern, feature, at) in [
        ("^(?=.*\\d)\\w+$", "lookahead", 2),
        ("^(?!admin)\\w+$", "negative lookahead", 2),
        ("(?<=\\$)\\d+", "lookbehind", 1),
        ("(?<!-)\\d+", "negative lookbehind", 1),
        ("^(a)\\1$", "backreferences", 5),
        ("^(?<q>['\"]).*\\k<q>$", "backreferences", 14),
        ("(?i:abc)", "inline modifiers", 1),
    ] {
        assert_eq!(
            refused(pattern),
            format!(
                "the schema, property code: pattern {pattern:?} uses {feature} \
                 (at character {at}), {tail}"
            )
        );
    }
    // Inside a class, `\1` is no backreference but an unknown escape, as with ECMA's `u` flag.
    assert_eq!(
        refused("[\\1]"),
        "the schema, property code: pattern does not compile: \"[\\\\1]\" at character 2: \
         unknown escape \\1"
    );
    // Deep in a schema, and in `additionalProperties`, the location leads.
    assert!(
        refusal(json!({"additionalProperties": {"items": {"pattern": "a(?=b)"}}})).starts_with(
            "the schema, additionalProperties, items: pattern \"a(?=b)\" uses lookahead"
        )
    );
}

#[test]
fn invalid_patterns_are_refused_with_their_position() {
    for (pattern, expected) in [
        ("(ab", "\"(ab\" at character 1: unclosed group"),
        (
            "a{3,2}",
            "\"a{3,2}\" at character 2: numbers out of order in quantifier",
        ),
        ("\\q", "\"\\\\q\" at character 1: unknown escape \\q"),
        ("x**", "\"x**\" at character 3: nothing to repeat"),
        (
            "[b-a]",
            "\"[b-a]\" at character 3: range out of order in class",
        ),
        ("\\p{Nope}", "\"\\\\p{Nope}\": Unicode property not found"),
    ] {
        assert_eq!(
            refused(pattern),
            format!("the schema, property code: pattern does not compile: {expected}")
        );
    }
}

#[test]
fn a_pattern_too_large_to_compile_is_refused_when_compiling() {
    assert_eq!(
        refused("(a{1000}){1000}"),
        format!(
            "the schema, property code: pattern \"(a{{1000}}){{1000}}\" is too large: compiled, \
             it would exceed {SIZE_LIMIT} bytes"
        )
    );
    assert!(refused("^\\p{L}{1,1000}$").ends_with(&format!(
        "is too large: compiled, it would exceed {SIZE_LIMIT} bytes"
    )));
    // A long pattern is shown cut after 60 characters.
    let long = format!("^({}){{500}}$", "\\p{L}".repeat(40));
    assert_eq!(
        refused(&long),
        format!(
            "the schema, property code: pattern {:?}… is too large: compiled, it would exceed \
             {SIZE_LIMIT} bytes",
            long.get(..60).unwrap_or_default()
        )
    );
    // Ordinary patterns stay well inside the bound.
    for pattern in [
        "^[\\p{L}\\p{N}_.-]{1,64}$",
        "^\\p{L}{1,100}$",
        "^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$",
        "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$",
    ] {
        field(pattern);
    }
}

#[test]
fn digits_are_ascii() {
    let schema = field("^\\d+$");
    passes(&schema, json!({"v": "0123456789"}));
    // ARABIC-INDIC DIGIT THREE, FULLWIDTH DIGIT ONE, DEVANAGARI DIGIT FIVE.
    for digit in ["\u{663}", "\u{FF11}", "\u{96B}"] {
        assert_eq!(failure(&schema, json!({ "v": digit })), NO_MATCH);
        passes(&field("^\\D$"), json!({ "v": digit }));
        passes(&field("^[^\\d]$"), json!({ "v": digit }));
    }
}

#[test]
fn dot_stops_at_every_ecma_line_terminator() {
    let schema = field("^a.b$");
    passes(&schema, json!({"v": "a-b"}));
    passes(&schema, json!({"v": "a😀b"}));
    // NEL is not an ECMA-262 line terminator.
    passes(&schema, json!({"v": "a\u{85}b"}));
    for terminator in ["\n", "\r", "\u{2028}", "\u{2029}"] {
        assert_eq!(
            failure(&schema, json!({ "v": format!("a{terminator}b") })),
            NO_MATCH,
            "{terminator:?}"
        );
    }
    // A class, negated or not, takes every code point.
    passes(&field("^a[^x]b$"), json!({"v": "a\u{2028}b"}));
    passes(&field("^a[^]b$"), json!({"v": "a\nb"}));
}

#[test]
fn words_and_word_boundaries_are_ascii() {
    let word = field("^\\w+$");
    passes(&word, json!({"v": "snake_Case_09"}));
    assert_eq!(failure(&word, json!({"v": "café"})), NO_MATCH);
    // `é` is no word character, so a boundary falls between it and `a`.
    passes(&field("a\\b"), json!({"v": "aé"}));
    assert_eq!(failure(&field("a\\B"), json!({"v": "aé"})), NO_MATCH);
    assert_eq!(failure(&field("\\bé"), json!({"v": "é"})), NO_MATCH);
}

#[test]
fn white_space_is_ecma_s_set() {
    let schema = field("^\\s$");
    for space in [
        " ", "\t", "\n", "\u{B}", "\u{C}", "\r", "\u{A0}", "\u{1680}", "\u{2000}", "\u{200A}",
        "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{FEFF}",
    ] {
        passes(&schema, json!({ "v": space }));
        assert_eq!(failure(&field("^\\S$"), json!({ "v": space })), NO_MATCH);
    }
    // NEL is white space to Unicode, not to ECMA-262; ZERO WIDTH SPACE is neither.
    for other in ["\u{85}", "\u{200B}", "x"] {
        assert_eq!(
            failure(&schema, json!({ "v": other })),
            NO_MATCH,
            "{other:?}"
        );
    }
}

#[test]
fn named_groups_and_escapes_keep_their_meaning() {
    let date = field("^(?<year>\\d{4})-(?<month>\\d{2})$");
    passes(&date, json!({"v": "2026-07"}));
    assert_eq!(failure(&date, json!({"v": "2026-7"})), NO_MATCH);
    // A repeated name is an ECMA-262 syntax error.
    assert!(
        refused("(?<a>x)(?<a>y)").ends_with("at character 8: duplicate group name a"),
        "{}",
        refused("(?<a>x)(?<a>y)")
    );
    for (pattern, text) in [
        ("^\\u00e9$", "é"),
        ("^\\u{1F600}$", "😀"),
        ("^\\uD83D\\uDE00$", "😀"),
        ("^\\x41\\cJ$", "A\n"),
        ("^\\$\\(\\)\\/\\.$", "$()/."),
        ("^[\\-\\]]+$", "-]"),
        ("^\\p{Script=Greek}+$", "αβγ"),
        ("^\\P{L}$", "1"),
        ("^a|b$", "xb"),
    ] {
        passes(&field(pattern), json!({ "v": text }));
    }
    // A lone surrogate is in no string, and `[]` matches nothing.
    for pattern in ["\\uD800", "[\\uD800-\\uDFFF]", "[]"] {
        let schema = field(pattern);
        for text in ["", "a", "\u{D7FF}", "\u{E000}"] {
            assert_eq!(
                failure(&schema, json!({ "v": text })),
                NO_MATCH,
                "{pattern}"
            );
        }
    }
}

#[test]
fn searches_are_unanchored_and_anchors_are_the_whole_input() {
    passes(&field("b"), json!({"v": "abc"}));
    passes(&field(""), json!({"v": "anything"}));
    assert_eq!(failure(&field("^b"), json!({"v": "a\nb"})), NO_MATCH);
    assert_eq!(failure(&field("a$"), json!({"v": "a\nb"})), NO_MATCH);
    // Non-strings are not checked.
    let schema: Value = json!({"pattern": "^x$"});
    passes(&compile(schema), json!(1));
}
