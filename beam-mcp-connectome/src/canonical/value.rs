//! The labels-object rules: canonical bytes of any JSON value (labels, the diff record, the
//! catalog export).

use std::borrow::Cow;

use serde_json::{Number, Value};

use super::error::CanonicalError;
use super::float;
use super::text::{nfc, pointer, utf16_cmp, write_str};

/// How deeply arrays and objects may nest in a value written under the labels-object rules:
/// 128 levels. serde_json reads one level fewer (127), so a value written at the full depth
/// does not read back; node labels are bounded sooner, by [`MAX_LABEL_DEPTH`].
///
/// ```
/// use beam_mcp_connectome::{CanonicalError, canonical::MAX_DEPTH, encode_value};
///
/// let mut deep = serde_json::json!(0);
/// for _ in 0..=MAX_DEPTH {
///     deep = serde_json::json!([deep]);
/// }
/// assert!(matches!(encode_value(&deep), Err(CanonicalError::TooDeep { .. })));
/// ```
pub const MAX_DEPTH: usize = 128;

/// How deeply serde_json, and so every reader of this crate, reads nested arrays and objects:
/// 127 levels (its recursion limit of 128 counts the outermost value too).
pub(crate) const READ_DEPTH: usize = 127;

/// The arrays and objects of the envelope above a label's value: the top level, `nodes`, the
/// node and its `labels`.
const ENVELOPE_LEVELS: usize = 4;

/// How deeply a node label's value may nest arrays and objects: **123**, so that the envelope
/// holding it nests at most the 127 levels a reader takes and everything
/// [`encode`](crate::canonical::encode) writes, [`parse`](crate::canonical::parse) reads back.
/// [`Node::new`](crate::Node::new) and [`Node::from_parts`](crate::Node::from_parts) refuse a
/// deeper label ([`GraphError::LabelTooDeep`](crate::GraphError::LabelTooDeep)). A scalar
/// nests 0 levels, `[]` 1, `{"a":[0]}` 2.
///
/// ```
/// use beam_mcp_connectome::canonical::MAX_LABEL_DEPTH;
///
/// assert_eq!(MAX_LABEL_DEPTH, 123);
/// ```
pub const MAX_LABEL_DEPTH: usize = READ_DEPTH - ENVELOPE_LEVELS;

/// What to do with a float.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Floats {
    /// Refuse it, naming its path (labels, the diff record).
    Refuse,
    /// Write it as ECMAScript's `Number.prototype.toString` does (RFC 8785 §3.2.2.3).
    Ecmascript,
}

/// The canonical bytes of `value` under the labels-object rules: object keys sorted by UTF-16
/// code units (RFC 8785), every string and key NFC-normalised first, keys that collide after
/// NFC refused, RFC 8785 escaping (other C0 controls as lowercase `\u00xx`, everything else
/// literal UTF-8), integers in plain decimal, no insignificant whitespace. **Floats are
/// refused**, naming their path as a JSON Pointer.
///
/// These are the bytes of the diff record and of node labels.
///
/// ```
/// use beam_mcp_connectome::{CanonicalError, encode_value};
/// use serde_json::json;
///
/// let bytes = encode_value(&json!({"\u{FF01}": 1, "\u{1F600}": "e\u{301}\u{1}", "a": [true, null]}))?;
/// assert_eq!(bytes, "{\"a\":[true,null],\"\u{1F600}\":\"\u{e9}\\u0001\",\"\u{FF01}\":1}".as_bytes());
///
/// let float = encode_value(&json!({"w": {"x": 0.5}}));
/// assert_eq!(float, Err(CanonicalError::Float { path: "/w/x".into(), value: "0.5".into() }));
/// # Ok::<(), CanonicalError>(())
/// ```
pub fn encode_value(value: &Value) -> Result<Vec<u8>, CanonicalError> {
    let mut out = Vec::new();
    write_value(&mut out, value, "", Floats::Refuse)?;
    Ok(out)
}

/// The canonical bytes of `value` under the labels-object rules, except that floats are
/// written as RFC 8785 writes numbers: ECMAScript's `Number.prototype.toString` (shortest
/// round-trip digits; `1.0` → `1`, `-0.0` → `0`, `1e21` → `1e+21`, `1e-7` → `1e-7`).
/// Integers serde_json holds as integers are written exactly, in plain decimal, even beyond
/// 2^53. Used for the canonical catalog export, whose JSON Schemas may hold floats.
///
/// ```
/// use beam_mcp_connectome::encode_value_with_floats;
/// use serde_json::json;
///
/// let bytes = encode_value_with_floats(&json!({"maximum": 1.0, "multipleOf": 0.1, "big": 1e21, "n": -0.0}))?;
/// assert_eq!(bytes, br#"{"big":1e+21,"maximum":1,"multipleOf":0.1,"n":0}"#);
/// # Ok::<(), beam_mcp_connectome::CanonicalError>(())
/// ```
pub fn encode_value_with_floats(value: &Value) -> Result<Vec<u8>, CanonicalError> {
    let mut out = Vec::new();
    write_value(&mut out, value, "", Floats::Ecmascript)?;
    Ok(out)
}

/// Appends the canonical bytes of `value`; errors name paths below `base` (a JSON Pointer).
pub(crate) fn write_value(
    out: &mut Vec<u8>,
    value: &Value,
    base: &str,
    floats: Floats,
) -> Result<(), CanonicalError> {
    let mut path = Vec::new();
    Writer { out, floats, base }.value(value, &mut path)
}

/// One step of a path, rendered as a JSON Pointer only when an error needs it.
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

struct Writer<'o, 'b> {
    out: &'o mut Vec<u8>,
    floats: Floats,
    base: &'b str,
}

impl Writer<'_, '_> {
    fn render(&self, path: &[Step<'_>]) -> String {
        let mut rendered = self.base.to_owned();
        for step in path {
            rendered = match step {
                Step::Key(key) => pointer(&rendered, key),
                Step::Index(i) => pointer(&rendered, &i.to_string()),
            };
        }
        rendered
    }

    fn value<'v>(
        &mut self,
        value: &'v Value,
        path: &mut Vec<Step<'v>>,
    ) -> Result<(), CanonicalError> {
        match value {
            Value::Null => self.out.extend_from_slice(b"null"),
            Value::Bool(true) => self.out.extend_from_slice(b"true"),
            Value::Bool(false) => self.out.extend_from_slice(b"false"),
            Value::String(text) => write_str(self.out, &nfc(text)),
            Value::Number(number) => self.number(number, path)?,
            Value::Array(items) => {
                self.enter(path)?;
                self.out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push(b',');
                    }
                    path.push(Step::Index(i));
                    self.value(item, path)?;
                    path.pop();
                }
                self.out.push(b']');
            }
            Value::Object(members) => {
                self.enter(path)?;
                let entries = sorted_entries(members.iter().map(|(k, v)| (k.as_str(), v)))
                    .map_err(|c| c.at(self.render(path)))?;
                self.out.push(b'{');
                for (i, (key, written, member)) in entries.iter().enumerate() {
                    if i > 0 {
                        self.out.push(b',');
                    }
                    write_str(self.out, key);
                    self.out.push(b':');
                    path.push(Step::Key(written));
                    self.value(member, path)?;
                    path.pop();
                }
                self.out.push(b'}');
            }
        }
        Ok(())
    }

    fn enter(&self, path: &[Step<'_>]) -> Result<(), CanonicalError> {
        if path.len() >= MAX_DEPTH {
            return Err(CanonicalError::TooDeep {
                path: self.render(path),
                max: MAX_DEPTH,
            });
        }
        Ok(())
    }

    fn number(&mut self, number: &Number, path: &[Step<'_>]) -> Result<(), CanonicalError> {
        if let Some(n) = number.as_u64() {
            self.out.extend_from_slice(n.to_string().as_bytes());
        } else if let Some(n) = number.as_i64() {
            self.out.extend_from_slice(n.to_string().as_bytes());
        } else if number.is_f64() {
            match self.floats {
                Floats::Refuse => {
                    return Err(CanonicalError::Float {
                        path: self.render(path),
                        value: number.to_string(),
                    });
                }
                Floats::Ecmascript => match number.as_f64().and_then(float::ecmascript) {
                    Some(text) => self.out.extend_from_slice(text.as_bytes()),
                    None => {
                        return Err(CanonicalError::NonFinite {
                            path: self.render(path),
                        });
                    }
                },
            }
        } else {
            // Only reachable under serde_json's `arbitrary_precision`: an integer beyond 64
            // bits, written exactly as long as it is plain decimal.
            let text = number.to_string();
            if !is_plain_integer(&text) {
                return Err(CanonicalError::BadNumber {
                    path: self.render(path),
                    value: text,
                });
            }
            self.out.extend_from_slice(text.as_bytes());
        }
        Ok(())
    }
}

/// `-?(0|[1-9][0-9]*)`.
fn is_plain_integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    match digits.as_bytes() {
        [] => false,
        [b'0'] => true,
        [b'0', ..] => false,
        d => d.iter().all(u8::is_ascii_digit),
    }
}

/// Two keys of one object that are one key after NFC.
#[derive(Debug)]
pub(crate) struct Collision {
    pub(crate) first: String,
    pub(crate) second: String,
    pub(crate) normalised: String,
}

impl Collision {
    fn at(self, path: String) -> CanonicalError {
        CanonicalError::KeyCollision {
            path,
            first: self.first,
            second: self.second,
            normalised: self.normalised,
        }
    }
}

/// An object member: `(NFC key, key as written, value)`.
pub(crate) type Entry<'a, V> = (Cow<'a, str>, &'a str, V);

/// An object's members as `(NFC key, key as written, value)`, sorted by the NFC key's UTF-16
/// code units; a collision after NFC is refused.
pub(crate) fn sorted_entries<'a, V>(
    members: impl Iterator<Item = (&'a str, V)>,
) -> Result<Vec<Entry<'a, V>>, Collision> {
    let mut entries: Vec<_> = members.map(|(k, v)| (nfc(k), k, v)).collect();
    entries.sort_by(|a, b| utf16_cmp(&a.0, &b.0));
    if let Some(pair) = entries.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(Collision {
            first: pair[0].1.to_owned(),
            second: pair[1].1.to_owned(),
            normalised: pair[0].0.clone().into_owned(),
        });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_integers() {
        for ok in ["0", "-0", "12", "-340282366920938463463374607431768211456"] {
            assert!(is_plain_integer(ok), "{ok}");
        }
        for bad in ["", "-", "01", "1.0", "1e3", "+1", "--1"] {
            assert!(!is_plain_integer(bad), "{bad}");
        }
    }
}
