//! `uniqueItems`: finding a repeated element without comparing every pair.

use std::hash::{BuildHasher, Hash, Hasher, RandomState};

use serde_json::Value;

use super::{equal::json_equal, number};

/// Below this many elements, comparing every pair is cheaper than hashing.
const PAIRWISE_LIMIT: usize = 8;

/// Hashing stops descending here; deeper parts only cost extra comparisons.
/// Above the caller's nesting bound, so real arguments hash fully.
const HASH_DEPTH: usize = 128;

/// True when two elements of `items` are equal in the sense of [`json_equal`].
///
/// Elements are bucketed by a hash that agrees with that equality (so `1` and
/// `1.0` share a bucket), and only elements within a bucket are compared.
/// The hasher is keyed randomly per call so callers cannot aim collisions.
pub(crate) fn has_duplicates(items: &[Value]) -> bool {
    if items.len() <= PAIRWISE_LIMIT {
        return any_pair_equal(items.iter());
    }
    let keys = RandomState::new();
    let mut hashed: Vec<(u64, usize)> = items
        .iter()
        .enumerate()
        .map(|(index, item)| (hash_value(&keys, item, 0), index))
        .collect();
    hashed.sort_unstable();
    hashed
        .chunk_by(|a, b| a.0 == b.0)
        .filter(|bucket| bucket.len() > 1)
        .any(|bucket| any_pair_equal(bucket.iter().filter_map(|&(_, i)| items.get(i))))
}

fn any_pair_equal<'a>(items: impl Iterator<Item = &'a Value> + Clone) -> bool {
    let mut rest = items;
    while let Some(first) = rest.next() {
        if rest.clone().any(|other| json_equal(first, other)) {
            return true;
        }
    }
    false
}

/// A hash on which equal values (per [`json_equal`]) always agree.
fn hash_value(keys: &RandomState, value: &Value, depth: usize) -> u64 {
    let mut hasher = keys.build_hasher();
    match value {
        Value::Null => hasher.write_u8(0),
        Value::Bool(b) => {
            hasher.write_u8(1);
            b.hash(&mut hasher);
        }
        Value::Number(n) => {
            hasher.write_u8(2);
            // Whole numbers hash by integer value so `1` and `1.0` collide.
            match number::whole_value(n) {
                Some(whole) => whole.hash(&mut hasher),
                None => n.as_f64().map(f64::to_bits).hash(&mut hasher),
            }
        }
        Value::String(s) => {
            hasher.write_u8(3);
            s.hash(&mut hasher);
        }
        Value::Array(items) => {
            hasher.write_u8(4);
            hasher.write_usize(items.len());
            if depth < HASH_DEPTH {
                for item in items {
                    hasher.write_u64(hash_value(keys, item, depth + 1));
                }
            }
        }
        Value::Object(map) => {
            hasher.write_u8(5);
            hasher.write_usize(map.len());
            if depth < HASH_DEPTH {
                // Summed per entry so the result ignores the map's key order.
                let entries = map.iter().fold(0u64, |sum, (key, item)| {
                    let mut entry = keys.build_hasher();
                    key.hash(&mut entry);
                    entry.write_u64(hash_value(keys, item, depth + 1));
                    sum.wrapping_add(entry.finish())
                });
                hasher.write_u64(entries);
            }
        }
    }
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn items(value: Value) -> Vec<Value> {
        match value {
            Value::Array(items) => items,
            _ => Vec::new(),
        }
    }

    #[test]
    fn small_arrays_find_repeats() {
        assert!(has_duplicates(&items(json!([1, 2, 1.0]))));
        assert!(has_duplicates(&items(json!([{"a": [1]}, {"a": [1.0]}]))));
        assert!(!has_duplicates(&items(
            json!([1, "1", true, null, [1], {"1": 1}])
        )));
        assert!(!has_duplicates(&[]));
    }

    #[test]
    fn large_arrays_find_repeats_through_hashing() {
        let mut many: Vec<Value> = (0..10_000).map(|i| json!({"id": i, "tags": [i]})).collect();
        assert!(!has_duplicates(&many));
        many.push(json!({"tags": [4_321.0], "id": 4_321.0}));
        assert!(has_duplicates(&many));
    }

    #[test]
    fn large_arrays_of_distinct_floats_and_strings_are_unique() {
        let many: Vec<Value> = (0..1_000)
            .flat_map(|i| [json!(f64::from(i) + 0.5), json!(format!("s{i}"))])
            .collect();
        assert!(!has_duplicates(&many));
    }

    #[test]
    fn whole_floats_and_integers_share_a_hash() {
        let keys = RandomState::new();
        assert_eq!(
            hash_value(&keys, &json!([1, {"a": -0.0}]), 0),
            hash_value(&keys, &json!([1.0, {"a": 0}]), 0)
        );
    }
}
