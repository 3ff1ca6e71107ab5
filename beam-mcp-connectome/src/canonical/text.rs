//! Strings: NFC normalisation, RFC 8785 escaping, and UTF-16 code-unit order.

use std::borrow::Cow;
use std::cmp::Ordering;

use unicode_normalization::{IsNormalized, UnicodeNormalization};

/// The NFC form of `text` (not NFKC), borrowed when it is already NFC.
pub(crate) fn nfc(text: &str) -> Cow<'_, str> {
    // ASCII is NFC; the quick check settles most other text without normalising it.
    let quick = || unicode_normalization::is_nfc_quick(text.chars()) == IsNormalized::Yes;
    if text.is_ascii() || quick() || unicode_normalization::is_nfc(text) {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(text.nfc().collect())
    }
}

/// Compares two strings by their UTF-16 code units (RFC 8785 §3.2.3). UTF-8 bytes already sort by code point,
/// which differs from UTF-16 order only where one side has an astral character and the other
/// a character in U+E000..=U+FFFF; so this compares bytes up to the first difference and
/// decides on that character's first code unit.
pub(crate) fn utf16_cmp(a: &str, b: &str) -> Ordering {
    let common = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    // Both strings share the bytes before `common`, so they share its char boundary too.
    let start = (0..=common)
        .rev()
        .find(|&i| a.is_char_boundary(i))
        .unwrap_or(0);
    let next = |s: &str| s.get(start..).and_then(|rest| rest.chars().next());
    match (next(a), next(b)) {
        (Some(x), Some(y)) => first_unit(x).cmp(&first_unit(y)).then(x.cmp(&y)),
        (x, y) => x.is_some().cmp(&y.is_some()),
    }
}

fn first_unit(c: char) -> u16 {
    let mut units = [0; 2];
    c.encode_utf16(&mut units)[0]
}

/// Appends `text` as a JSON string, escaped per RFC 8785: `\"`, `\\`, `\b`, `\t`, `\n`,
/// `\f`, `\r`, every other C0 control as `\u00xx` in lowercase hex, everything else literal
/// UTF-8. `text` must already be NFC.
pub(crate) fn write_str(out: &mut Vec<u8>, text: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let bytes = text.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            0x08 => b"\\b",
            b'\t' => b"\\t",
            b'\n' => b"\\n",
            0x0c => b"\\f",
            b'\r' => b"\\r",
            0x00..=0x1f => &[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 0xf)],
            ],
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        out.extend_from_slice(escape);
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// One step of a JSON Pointer (RFC 6901): `~` as `~0`, `/` as `~1`.
pub(crate) fn pointer(parent: &str, step: &str) -> String {
    let mut path = String::with_capacity(parent.len() + step.len() + 1);
    path.push_str(parent);
    path.push('/');
    for c in step.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_c0_lowercase_and_leaves_the_rest() {
        let mut out = Vec::new();
        write_str(&mut out, "a\u{1}\u{1f}\"\\/\u{7f}\u{2028}😀");
        assert_eq!(
            out,
            "\"a\\u0001\\u001f\\\"\\\\/\u{7f}\u{2028}😀\"".as_bytes()
        );
    }

    #[test]
    fn utf16_order_puts_astral_before_fullwidth() {
        assert_eq!(utf16_cmp("\u{1F600}", "\u{FF01}"), Ordering::Less);
        assert_eq!("\u{1F600}".cmp("\u{FF01}"), Ordering::Greater);
    }

    #[test]
    fn pointer_escapes() {
        assert_eq!(pointer("", "a/b~c"), "/a~1b~0c");
    }
}
