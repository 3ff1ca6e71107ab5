//! Crate-wide uniqueness at compile time, across modules and files.
//!
//! Each item defines a `#[macro_export]` macro whose name encodes its key. Exported macros
//! all live at the crate root, so a second item with the same key is rustc's E0428 ("the name
//! … is defined multiple times"), with both items' spans shown. The name reads as the fix.

use proc_macro2::{Span, TokenStream};
use quote::quote_spanned;
use syn::Ident;

/// The marker for an item of `kind` (`tool`, `prompt`, `resource`, `template`) keyed by `key`.
pub(crate) fn marker(kind: &str, key: &str, span: Span) -> TokenStream {
    let ident = Ident::new(
        &format!("beam_mcp_{}__declared_twice__rename_one", encode(kind, key)),
        span,
    );
    quote_spanned! {span=>
        #[doc(hidden)]
        #[macro_export]
        macro_rules! #ident {
            () => {};
        }
    }
}

/// `tool_get_weather` for identifier-like keys; otherwise `resource__` and the key spelled
/// out, every byte but an ASCII letter or digit written as `_word_`:
/// `resource__docs_colon__slash__slash_readme` for `docs://readme`, so the duplicate reads
/// in rustc's message. Injective: the forms differ right after `kind_` (a letter or digit,
/// or `_`), and each escape is one fixed word between underscores.
fn encode(kind: &str, key: &str) -> String {
    if key.starts_with(|c: char| c.is_ascii_alphanumeric())
        && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        return format!("{kind}_{key}");
    }
    let mut out = format!("{kind}__");
    for b in key.bytes() {
        if b.is_ascii_alphanumeric() {
            out.push(char::from(b));
        } else {
            out.push('_');
            match escape_word(b) {
                Some(word) => out.push_str(word),
                None => out.push_str(&format!("x{b:02x}")),
            }
            out.push('_');
        }
    }
    out
}

/// The word for a byte that cannot appear in an identifier (none has the form `x` + two hex
/// digits, which spells the others).
fn escape_word(b: u8) -> Option<&'static str> {
    Some(match b {
        b'_' => "underscore",
        b':' => "colon",
        b'/' => "slash",
        b'.' => "dot",
        b'-' => "dash",
        b'{' => "lbrace",
        b'}' => "rbrace",
        b'+' => "plus",
        b'?' => "question",
        b'#' => "hash",
        b'&' => "amp",
        b'=' => "eq",
        b'%' => "percent",
        b'@' => "at",
        b'~' => "tilde",
        b'!' => "bang",
        b'$' => "dollar",
        b',' => "comma",
        b';' => "semicolon",
        b'*' => "star",
        b'\'' => "quote",
        b'(' => "lparen",
        b')' => "rparen",
        b'[' => "lbracket",
        b']' => "rbracket",
        b' ' => "space",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::encode;

    #[test]
    fn keys_read_in_the_marker_name() {
        assert_eq!(encode("tool", "get_weather"), "tool_get_weather");
        assert_eq!(encode("tool", "geo.mirror"), "tool__geo_dot_mirror");
        assert_eq!(
            encode("resource", "docs://readme"),
            "resource__docs_colon__slash__slash_readme"
        );
        assert_eq!(encode("tool", "_x"), "tool___underscore_x");
        assert_eq!(encode("tool", "é"), "tool___xc3__xa9_");
    }

    #[test]
    fn distinct_keys_give_distinct_names() {
        let keys = [
            "a_b",
            "a.b",
            "a_dot_b",
            "_a",
            "a_",
            "a__b",
            "a-b",
            "a/b",
            "a://{}",
            "a://{+}",
            "x3a",
            ":",
            "_x3a_",
            "",
            "a_underscore_b",
        ];
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(encode("tool", a), encode("tool", b), "{a:?} vs {b:?}");
            }
        }
    }
}
