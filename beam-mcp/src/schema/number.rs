//! Exact ordering of JSON numbers, whatever mix of integer and float they are.
//!
//! Converting everything to `f64` would call `9007199254740993` equal to
//! `9007199254740992`, so integers are compared as integers and an integer
//! against a float is compared without rounding either side.

use std::cmp::Ordering;

use serde_json::Number;

/// 2^127: every `f64` below this in magnitude truncates into an `i128` exactly.
const TWO_POW_127: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;

/// A number in the form it can be compared exactly.
#[derive(Debug, Clone, Copy)]
enum Exact {
    Int(i128),
    Float(f64),
}

impl Exact {
    fn of(number: &Number) -> Option<Self> {
        if let Some(i) = number.as_i64() {
            Some(Self::Int(i128::from(i)))
        } else if let Some(u) = number.as_u64() {
            Some(Self::Int(i128::from(u)))
        } else {
            number.as_f64().map(Self::Float)
        }
    }
}

/// Orders two JSON numbers by value, so `1` and `1.0` are equal.
///
/// `None` only when a number has no usable value (possible only when
/// serde_json's `arbitrary_precision` feature lets NaN-like text through).
pub(crate) fn compare(a: &Number, b: &Number) -> Option<Ordering> {
    match (Exact::of(a)?, Exact::of(b)?) {
        (Exact::Int(x), Exact::Int(y)) => Some(x.cmp(&y)),
        (Exact::Float(x), Exact::Float(y)) => x.partial_cmp(&y),
        (Exact::Int(x), Exact::Float(y)) => int_vs_float(x, y),
        (Exact::Float(x), Exact::Int(y)) => int_vs_float(y, x).map(Ordering::reverse),
    }
}

/// True when the two numbers have the same value.
pub(crate) fn equal(a: &Number, b: &Number) -> bool {
    compare(a, b) == Some(Ordering::Equal)
}

/// The integer value of a number whose value is whole and fits an `i128`,
/// whichever JSON form it was written in; used to hash `1` and `1.0` alike.
pub(crate) fn whole_value(number: &Number) -> Option<i128> {
    match Exact::of(number)? {
        Exact::Int(i) => Some(i),
        Exact::Float(f) if f.fract() == 0.0 && f.abs() < TWO_POW_127 => Some(f as i128),
        Exact::Float(_) => None,
    }
}

/// True when `value` is a whole multiple of `divisor` (above zero), computed on the decimal
/// digits both are written with, so that `0.0075` is a multiple of `0.0001` though their
/// binary floats are not; past what that exact form holds, within a float's precision.
pub(crate) fn is_multiple(value: &Number, divisor: &Number) -> bool {
    if let (Some((a, p)), Some((b, q))) = (decimal(value), decimal(divisor))
        && b != 0
    {
        if a == 0 {
            return true;
        }
        // value = a·10^p and divisor = b·10^q: scale both to the smaller exponent.
        let low = p.min(q);
        let modulus = 10u128
            .checked_pow(u32::try_from(q - low).unwrap_or(u32::MAX))
            .and_then(|scale| scale.checked_mul(b))
            .filter(|m| *m < 1 << 64);
        if let Some(modulus) = modulus {
            // (a·10^(p-low)) mod modulus, by repeated multiplication: each step below 2^128.
            let mut rest = a % modulus;
            for _ in 0..(p - low) {
                rest = rest * 10 % modulus;
            }
            return rest == 0;
        }
    }
    let (Some(x), Some(d)) = (value.as_f64(), divisor.as_f64()) else {
        return false;
    };
    let quotient = x / d;
    quotient.is_finite()
        && (quotient - quotient.round()).abs() <= quotient.abs() * f64::EPSILON * 4.0
}

/// A number as written in JSON: its digits without sign or point, and the power of ten they
/// are scaled by (`-0.075` is `(75, -3)`); `None` past 38 digits.
fn decimal(number: &Number) -> Option<(u128, i32)> {
    let text = number.to_string();
    let text = text.trim_start_matches('-');
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], text[at + 1..].parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{fraction}");
    let digits = digits.trim_start_matches('0');
    if digits.len() > 38 {
        return None;
    }
    let value = if digits.is_empty() {
        0
    } else {
        digits.parse::<u128>().ok()?
    };
    let scale = exponent.checked_sub(i32::try_from(fraction.len()).ok()?)?;
    Some((value, scale))
}

/// Orders an integer against a float without rounding the integer.
fn int_vs_float(x: i128, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    if f >= TWO_POW_127 {
        return Some(Ordering::Less);
    }
    if f < -TWO_POW_127 {
        return Some(Ordering::Greater);
    }
    let whole = f.trunc();
    // Exact: `whole` is integral and within the i128 range checked above.
    let whole_int = whole as i128;
    Some(match x.cmp(&whole_int) {
        // Same integer part: the float's fraction decides.
        Ordering::Equal => {
            if f > whole {
                Ordering::Less
            } else if f < whole {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        }
        other => other,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn multiples_are_exact_on_the_written_digits() {
        let n = |v: serde_json::Value| v.as_number().unwrap().clone();
        let json = |t: &str| serde_json::from_str::<serde_json::Value>(t).unwrap();
        assert!(super::is_multiple(&n(json("0.0075")), &n(json("0.0001"))));
        assert!(!super::is_multiple(&n(json("0.00751")), &n(json("0.0001"))));
        assert!(super::is_multiple(&n(json("10")), &n(json("2"))));
        assert!(!super::is_multiple(&n(json("7")), &n(json("2"))));
        assert!(super::is_multiple(&n(json("4.5")), &n(json("1.5"))));
        assert!(super::is_multiple(&n(json("0")), &n(json("0.3"))));
        assert!(super::is_multiple(&n(json("1e3")), &n(json("5"))));
        assert!(!super::is_multiple(
            &n(json("1e308")),
            &n(json("0.123456789"))
        ));
        assert!(super::is_multiple(&n(json("-6")), &n(json("3"))));
    }

    use super::*;

    fn num(text: &str) -> Number {
        serde_json::from_str(text).expect("test numbers parse")
    }

    #[test]
    fn integer_and_float_forms_of_one_value_are_equal() {
        assert!(equal(&num("1"), &num("1.0")));
        assert!(equal(&num("100"), &num("1e2")));
        assert!(equal(&num("0"), &num("-0.0")));
        assert!(!equal(&num("1"), &num("1.5")));
    }

    #[test]
    fn large_integers_are_not_rounded() {
        // 2^53 + 1 is not representable as f64; it must still differ from 2^53.
        assert!(!equal(&num("9007199254740993"), &num("9007199254740992")));
        assert!(!equal(&num("9007199254740993"), &num("9007199254740992.0")));
        assert_eq!(
            compare(&num("9007199254740993"), &num("9007199254740992.0")),
            Some(Ordering::Greater)
        );
        assert_eq!(
            compare(&num("18446744073709551615"), &num("-1")),
            Some(Ordering::Greater)
        );
    }

    #[test]
    fn fractions_order_against_integers() {
        assert_eq!(compare(&num("2"), &num("2.5")), Some(Ordering::Less));
        assert_eq!(compare(&num("3"), &num("2.5")), Some(Ordering::Greater));
        assert_eq!(compare(&num("-2"), &num("-2.5")), Some(Ordering::Greater));
        assert_eq!(compare(&num("-3"), &num("-2.5")), Some(Ordering::Less));
        assert_eq!(compare(&num("2.5"), &num("3")), Some(Ordering::Less));
    }

    #[test]
    fn huge_floats_order_beyond_every_integer() {
        assert_eq!(
            compare(&num("18446744073709551615"), &num("1e300")),
            Some(Ordering::Less)
        );
        assert_eq!(
            compare(&num("-9223372036854775808"), &num("-1e300")),
            Some(Ordering::Greater)
        );
    }

    #[test]
    fn whole_values_are_shared_across_forms() {
        assert_eq!(whole_value(&num("7")), Some(7));
        assert_eq!(whole_value(&num("7.0")), Some(7));
        assert_eq!(whole_value(&num("-0.0")), Some(0));
        assert_eq!(whole_value(&num("7.5")), None);
        assert_eq!(whole_value(&num("1e300")), None);
    }
}
