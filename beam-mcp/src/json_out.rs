//! The two pieces of JSON every answer writes, written without serde's per-byte formatter where
//! it is not needed: a string with nothing to escape (a tool's text, mostly; eight bytes are
//! checked at a time) copied whole, and an integer id. The bytes are exactly serde_json's
//! compact output (the tests below compare them).

use serde_json::Value;

/// Each byte of a word set to `b`.
const fn splat(b: u8) -> u64 {
    u64::from_ne_bytes([b; 8])
}

const ONES: u64 = splat(0x01);
const HIGHS: u64 = splat(0x80);

/// True when some byte of `word` is below 0x20, a `"` or a `\`: the bytes JSON escapes.
/// (Bytes of 0x80 and up, the parts of non-ASCII characters, are written as they are.)
#[inline]
fn needs_escape(word: u64) -> bool {
    let below_space = word.wrapping_sub(splat(0x20)) & !word;
    let quote = word ^ splat(b'"');
    let backslash = word ^ splat(b'\\');
    let quote = quote.wrapping_sub(ONES) & !quote;
    let backslash = backslash.wrapping_sub(ONES) & !backslash;
    (below_space | quote | backslash) & HIGHS != 0
}

/// Appends `text` as a JSON string, escaped as serde_json escapes it: a text with nothing to
/// escape (most answers' text) is copied whole; any other is written by serde_json.
pub(crate) fn write_str(out: &mut Vec<u8>, text: &str) {
    if !has_escape(text.as_bytes()) {
        out.reserve(text.len() + 2);
        out.push(b'"');
        out.extend_from_slice(text.as_bytes());
        out.push(b'"');
    } else {
        crate::json::write(out, text);
    }
}

/// True when some byte of `bytes` is one JSON escapes.
fn has_escape(bytes: &[u8]) -> bool {
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(word);
        if needs_escape(u64::from_ne_bytes(eight)) {
            return true;
        }
    }
    words
        .remainder()
        .iter()
        .any(|&byte| byte < 0x20 || byte == b'"' || byte == b'\\')
}

/// Appends a request id (a string or an integer, as the envelope checks keep them); any other
/// value as serde_json writes it.
pub(crate) fn write_id(out: &mut Vec<u8>, id: &Value) {
    match id {
        Value::String(text) => write_str(out, text),
        Value::Number(number) => match (number.as_u64(), number.as_i64()) {
            (Some(n), _) => write_u64(out, n),
            (None, Some(n)) => {
                out.push(b'-');
                write_u64(out, n.unsigned_abs());
            }
            _ => crate::json::write(out, id),
        },
        other => crate::json::write(out, other),
    }
}

fn write_u64(out: &mut Vec<u8>, n: u64) {
    // Two digits a step (serde_json writes its numbers so too).
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn written(text: &str) -> String {
        let mut out = Vec::new();
        write_str(&mut out, text);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn strings_are_written_as_serde_json_writes_them() {
        let mut cases: Vec<String> = vec![
            String::new(),
            "Paris: 21C, clear".into(),
            "exactly8".into(),
            "\"quoted\" and \\ back".into(),
            "\u{7f} \u{80} é 😀 \u{2028}".into(),
        ];
        // Every byte below 0x80 at every place in and around a word.
        for byte in 0u8..0x80 {
            let c = char::from(byte);
            for at in 0..18 {
                let mut s: String = "abcdefghijklmnopq".chars().take(at).collect();
                s.push(c);
                s.push_str("rstuvwxy");
                cases.push(s);
            }
        }
        // Pseudo-random mixes of plain text, escapes and multi-byte characters.
        let pieces = [
            "a",
            "\"",
            "\\",
            "\n",
            "\u{1}",
            "\u{1f}",
            "é",
            "😀",
            "xyzxyzxyz",
            " ",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..2_000 {
            let mut s = String::new();
            for _ in 0..(seed % 40) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                s.push_str(pieces[(seed % pieces.len() as u64) as usize]);
            }
            cases.push(s);
        }
        for case in cases {
            assert_eq!(
                written(&case),
                serde_json::to_string(&case).unwrap(),
                "{case:?}"
            );
        }
    }

    #[test]
    fn ids_are_written_as_serde_json_writes_them() {
        for id in [
            json!(0),
            json!(7),
            json!(-1),
            json!(u64::MAX),
            json!(i64::MIN),
            json!(1_234_567_890),
            json!("a\"b"),
            json!(""),
            json!(1.5),
            json!(null),
        ] {
            let mut out = Vec::new();
            write_id(&mut out, &id);
            assert_eq!(String::from_utf8(out).unwrap(), id.to_string());
        }
    }
}
