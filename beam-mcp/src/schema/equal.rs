//! JSON value equality as `enum`, `const` and `uniqueItems` need it.

use serde_json::Value;

use super::number;

/// True when `a` and `b` are the same JSON value, comparing numbers by value
/// (`1 == 1.0`) at every depth of arrays and objects.
///
/// Walks with an explicit stack rather than recursion, so arbitrarily deep
/// values cannot exhaust the call stack; scalars compare without allocating.
pub(crate) fn json_equal(a: &Value, b: &Value) -> bool {
    let mut pending: Vec<(&Value, &Value)> = Vec::new();
    let mut current = (a, b);
    loop {
        let same = match current {
            (Value::Null, Value::Null) => true,
            (Value::Bool(x), Value::Bool(y)) => x == y,
            (Value::Number(x), Value::Number(y)) => number::equal(x, y),
            (Value::String(x), Value::String(y)) => x == y,
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && {
                    pending.extend(x.iter().zip(y));
                    true
                }
            }
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len()
                    && x.iter().all(|(key, left)| match y.get(key) {
                        Some(right) => {
                            pending.push((left, right));
                            true
                        }
                        None => false,
                    })
            }
            _ => false,
        };
        if !same {
            return false;
        }
        match pending.pop() {
            Some(next) => current = next,
            None => return true,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn numbers_compare_by_value_at_every_depth() {
        assert!(json_equal(&json!(1), &json!(1.0)));
        assert!(json_equal(&json!([1, [2.0]]), &json!([1.0, [2]])));
        assert!(json_equal(
            &json!({"a": {"b": 3}}),
            &json!({"a": {"b": 3.0}})
        ));
        assert!(!json_equal(
            &json!({"a": {"b": 3}}),
            &json!({"a": {"b": 3.5}})
        ));
    }

    #[test]
    fn kinds_never_coerce() {
        assert!(!json_equal(&json!(1), &json!("1")));
        assert!(!json_equal(&json!(true), &json!(1)));
        assert!(!json_equal(&json!(null), &json!(false)));
        assert!(!json_equal(&json!([]), &json!({})));
        assert!(json_equal(&json!(null), &json!(null)));
        assert!(json_equal(&json!(false), &json!(false)));
    }

    #[test]
    fn containers_must_match_in_size_order_and_keys() {
        assert!(!json_equal(&json!([1, 2]), &json!([2, 1])));
        assert!(!json_equal(&json!([1]), &json!([1, 1])));
        assert!(!json_equal(&json!({"a": 1}), &json!({"b": 1})));
        assert!(!json_equal(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
        assert!(json_equal(
            &json!({"a": 1, "b": [null]}),
            &json!({"b": [null], "a": 1})
        ));
    }

    #[test]
    fn deep_values_do_not_exhaust_the_stack() {
        // Built and torn down by hand: serde_json's own Drop recurses.
        let depth = 100_000;
        let mut a = json!(1);
        let mut b = json!(1.0);
        for _ in 0..depth {
            a = Value::Array(vec![a]);
            b = Value::Array(vec![b]);
        }
        assert!(json_equal(&a, &b));
        for value in [a, b] {
            let mut current = value;
            while let Value::Array(mut items) = current {
                current = items.pop().unwrap_or(Value::Null);
            }
        }
    }
}
