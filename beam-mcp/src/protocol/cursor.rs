//! The opaque keyset cursor shared by every list: `base64url({"a":<key>,"k":<kind>,"v":1})`.
//!
//! A page holds the items whose key is strictly greater than the cursor's, so an item present
//! before is never skipped when others are added or removed between pages.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

/// Why a cursor was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CursorError {
    Malformed,
    Foreign,
}

pub(crate) fn encode(kind: &str, key: &str) -> String {
    URL_SAFE_NO_PAD.encode(json!({ "a": key, "k": kind, "v": 1 }).to_string())
}

/// The key after which the next page starts.
pub(crate) fn decode(kind: &str, cursor: &str) -> Result<String, CursorError> {
    let bytes = URL_SAFE_NO_PAD
        .decode(cursor)
        .map_err(|_| CursorError::Malformed)?;
    let Ok(Value::Object(mut fields)) = crate::json::read(&bytes) else {
        return Err(CursorError::Malformed);
    };
    if fields.get("v") != Some(&Value::from(1)) {
        return Err(CursorError::Malformed);
    }
    let (Some(Value::String(k)), Some(Value::String(a))) = (fields.remove("k"), fields.remove("a"))
    else {
        return Err(CursorError::Malformed);
    };
    if k != kind {
        return Err(CursorError::Foreign);
    }
    Ok(a)
}

/// One page of `items` (sorted by `key`), starting after `after`, and the cursor for the next.
pub(crate) fn page<'a, T>(
    items: &'a [T],
    key: impl Fn(&T) -> &str,
    after: Option<&str>,
    size: usize,
    kind: &str,
) -> (&'a [T], Option<String>) {
    let start = match after {
        Some(after) => items.partition_point(|item| key(item) <= after),
        None => 0,
    };
    let end = start.saturating_add(size).min(items.len());
    let page = &items[start..end];
    let next = (end < items.len()).then(|| encode(kind, key(&items[end - 1])));
    (page, next)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_round_trips_and_names_its_list() {
        let c = encode("tools", "b");
        assert_eq!(decode("tools", &c), Ok("b".into()));
        assert_eq!(decode("prompts", &c), Err(CursorError::Foreign));
        assert_eq!(decode("tools", "!!"), Err(CursorError::Malformed));
        assert_eq!(
            decode(
                "tools",
                &URL_SAFE_NO_PAD.encode(r#"{"a":"b","k":"tools","v":2}"#)
            ),
            Err(CursorError::Malformed)
        );
    }

    /// A small deterministic generator, so a failing case is reproducible from its seed.
    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self, below: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % below
        }
    }

    /// Property: walking a list while others add and remove items between pages, every item
    /// present for the whole walk is seen exactly once, and nothing is seen twice.
    #[test]
    fn a_list_changing_between_pages_never_skips_an_item_that_stayed() {
        for seed in 1..=2_000u64 {
            let mut rng = XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let mut items: Vec<String> = (0..rng.next(40))
                .map(|_| format!("k{:03}", rng.next(200)))
                .collect();
            items.sort();
            items.dedup();
            let initial = items.clone();
            let mut removed = Vec::new();
            let size = 1 + rng.next(7) as usize;
            let mut seen: Vec<String> = Vec::new();
            let mut after: Option<String> = None;
            for _ in 0..1_000 {
                let (page, next) = page(&items, |s| s, after.as_deref(), size, "prompts");
                seen.extend(page.iter().cloned());
                let Some(next) = next else { break };
                after = Some(decode("prompts", &next).unwrap());
                // Between pages: some inserts and some deletions, anywhere in the list.
                for _ in 0..rng.next(4) {
                    items.push(format!("k{:03}", rng.next(200)));
                }
                for _ in 0..rng.next(3) {
                    if !items.is_empty() {
                        let i = rng.next(items.len() as u64) as usize;
                        removed.push(items.remove(i));
                    }
                }
                items.sort();
                items.dedup();
            }
            let mut unique = seen.clone();
            unique.dedup();
            assert_eq!(unique, seen, "seed {seed}: an item was served twice");
            for item in initial.iter().filter(|i| !removed.contains(i)) {
                assert!(seen.contains(item), "seed {seed}: {item} was skipped");
            }
        }
    }

    #[test]
    fn pages_are_keyset_pages() {
        let items = ["a", "b", "c", "d", "e"];
        let (p, next) = page(&items, |s| s, None, 2, "tools");
        assert_eq!(p, ["a", "b"]);
        let after = decode("tools", &next.unwrap()).unwrap();
        // An item inserted before the cursor's key does not shift the next page.
        let grown = ["a", "aa", "b", "c", "d", "e"];
        let (p, _) = page(&grown, |s| s, Some(&after), 2, "tools");
        assert_eq!(p, ["c", "d"]);
        let (p, next) = page(&items, |s| s, Some("d"), 2, "tools");
        assert_eq!((p, next), (&["e"][..], None));
    }
}
