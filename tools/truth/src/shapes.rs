//! What kind of call a missed edge is: read from the bound's entries for the caller (what the
//! scan saw there and could not resolve) and from the callee's name (calls no source text
//! spells out: `?`, operators, `for` loops, `.await`, drops).

use std::collections::{BTreeMap, BTreeSet};

use crate::declared::{DeclaredFn, DeclaredSide};
use crate::names::{split_path, trait_method};

/// The shape of the call from function `caller` to function `callee` (indices into
/// `side.fns`) that the declared graph lacks.
///
/// ```
/// use std::collections::{BTreeMap, BTreeSet};
/// use beam_mcp_truth::{declared::{DeclaredFn, DeclaredSide}, shapes::classify};
///
/// let mut side = DeclaredSide::default();
/// side.fns.push(DeclaredFn::from_id("srv/module/w/run/1").unwrap());
/// side.fns.push(DeclaredFn::from_id("srv/module/w/Stations::reading/2").unwrap());
/// side.bound = BTreeMap::from([(
///     "method_calls".to_owned(),
///     BTreeSet::from(["w::run -> self.stations.reading".to_owned()]),
/// )]);
/// assert_eq!(classify(&side, 0, 1), "method call on a field of self");
/// ```
pub fn classify(side: &DeclaredSide, caller: usize, callee: usize) -> String {
    let (Some(caller_fn), Some(callee_fn)) = (side.fns.get(caller), side.fns.get(callee)) else {
        return "unknown".to_owned();
    };
    let method = split_path(&callee_fn.name).pop().unwrap_or_default();
    // The scan resolved a trait call to the trait's path in another crate (a boundary node:
    // `std::fmt::Display::fmt`), while the impl that runs is the crate's own
    // (`Display::fmt(self, f)` in the crate's `impl Debug`).
    if let Some((trait_name, trait_method)) = trait_method(&callee_fn.key) {
        let suffix = format!("::{trait_name}::{trait_method}");
        let to_boundary = side
            .boundary_calls
            .range((caller, String::new())..)
            .take_while(|(from, _)| *from == caller)
            .any(|(_, path)| path.ends_with(&suffix));
        if to_boundary {
            return "trait call resolved to the trait in another crate (a boundary node); the crate's impl runs".to_owned();
        }
    }
    shape_from_bound(caller_fn, callee_fn, &method, &side.bound)
}

/// The shape as the bound's entries for the caller, and the callee's name, tell it.
fn shape_from_bound(
    caller: &DeclaredFn,
    callee: &DeclaredFn,
    method: &str,
    bound: &BTreeMap<String, BTreeSet<String>>,
) -> String {
    let caller_path = caller.path();
    let targets = |category: &str| -> Vec<String> {
        bound
            .get(category)
            .map(|entries| {
                entries
                    .iter()
                    .filter_map(|entry| {
                        let (from, to) = entry.split_once(" -> ")?;
                        let ours = from == caller_path
                            || from
                                .strip_prefix(caller_path.as_str())
                                .is_some_and(|rest| rest.starts_with("::{closure"));
                        ours.then(|| to.to_owned())
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let ends_with_method = |text: &str, separator: &str| {
        text.strip_suffix(method)
            .is_some_and(|head| head.ends_with(separator))
    };
    for target in targets("method_calls") {
        if ends_with_method(&target, ".") {
            let receiver = &target[..target.len() - method.len() - 1];
            return receiver_shape(receiver).to_owned();
        }
    }
    for target in targets("trait_calls") {
        if ends_with_method(&target, "::") || target == method {
            return if target.starts_with('<') {
                "trait call by qualified path (<T as Trait>::f)".to_owned()
            } else {
                "trait call by path (Trait::f, T::f, Type::f of a trait)".to_owned()
            };
        }
    }
    for (category, shape) in [
        ("unresolved_paths", "path the scan could not resolve"),
        ("ambiguous_paths", "path a glob import makes ambiguous"),
        ("external_callees", "path resolved as another crate's"),
        ("indirect_calls", "call of a value (local, field, closure)"),
    ] {
        if targets(category)
            .iter()
            .any(|t| t == method || ends_with_method(t, "::") || ends_with_method(t, "."))
        {
            return shape.to_owned();
        }
    }
    let callee_path = callee.path();
    if bound.get("fn_values").is_some_and(|entries| {
        entries
            .iter()
            .any(|e| e.ends_with(&callee_path) || e.ends_with(&format!("::{}", callee.name)))
    }) {
        return "function used as a value, then called".to_owned();
    }
    if let Some((tr, _)) = trait_method(&callee.key) {
        let implicit = match tr.as_str() {
            "From" | "Into" | "TryFrom" | "TryInto" | "FromResidual" => {
                "implicit: `?` or a conversion (From/Into)"
            }
            "Drop" => "implicit: drop",
            "Deref" | "DerefMut" => "implicit: auto-deref",
            "Iterator" | "IntoIterator" | "DoubleEndedIterator" => {
                "implicit: `for` loop or iterator adapter"
            }
            "Future" | "IntoFuture" => "implicit: `.await`",
            "Add" | "Sub" | "Mul" | "Div" | "Rem" | "Neg" | "Not" | "BitAnd" | "BitOr"
            | "BitXor" | "Shl" | "Shr" | "AddAssign" | "SubAssign" | "MulAssign" | "DivAssign"
            | "Index" | "IndexMut" | "PartialEq" | "PartialOrd" | "Ord" | "Eq" => {
                "implicit: an operator"
            }
            "Fn" | "FnMut" | "FnOnce" => "implicit: a closure call",
            _ => "trait method, no call in the bound",
        };
        return implicit.to_owned();
    }
    let mut macros: Vec<String> = targets("macro_invocations");
    if !macros.is_empty() {
        macros.sort();
        macros.dedup();
        return format!(
            "not in the bound; in a macro's arguments? (the caller invokes {})",
            macros.join(" ")
        );
    }
    "not in the bound".to_owned()
}

/// The shape of a method call by its receiver as the bound writes it (`self`,
/// `self.stations`, `builder()….name`, `x`).
fn receiver_shape(receiver: &str) -> &'static str {
    let plain = |s: &str| s.chars().all(|c| c.is_alphanumeric() || c == '_');
    if receiver == "self" {
        "method call on self"
    } else if receiver.contains('…') || receiver.ends_with(')') || receiver.contains("()") {
        "chained method call (on a call's result)"
    } else if let Some(fields) = receiver.strip_prefix("self.") {
        if fields.split('.').all(plain) {
            "method call on a field of self"
        } else {
            "method call on another expression"
        }
    } else if plain(receiver) {
        "method call on a local or parameter"
    } else if receiver.split('.').all(plain) {
        "method call on a field of a local"
    } else if receiver.contains("::") {
        "method call on a path (constant, static, unit struct)"
    } else {
        "method call on another expression"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn receivers() {
        assert_eq!(receiver_shape("self"), "method call on self");
        assert_eq!(receiver_shape("self.a.b"), "method call on a field of self");
        assert_eq!(
            receiver_shape("Server::builder()….name"),
            "chained method call (on a call's result)"
        );
        assert_eq!(
            receiver_shape("stations"),
            "method call on a local or parameter"
        );
        assert_eq!(
            receiver_shape("ctx.peer"),
            "method call on a field of a local"
        );
    }

    fn side(ids: &[&str]) -> DeclaredSide {
        DeclaredSide {
            fns: ids
                .iter()
                .map(|id| DeclaredFn::from_id(id).unwrap())
                .collect(),
            ..DeclaredSide::default()
        }
    }

    #[test]
    fn implicit_calls() {
        let side = side(&[
            "srv/module/w/run/1",
            "srv/module/w/<Error as From>::from/1",
            "srv/module/w/helper/1",
        ]);
        assert_eq!(
            classify(&side, 0, 1),
            "implicit: `?` or a conversion (From/Into)"
        );
        assert_eq!(classify(&side, 0, 2), "not in the bound");
        assert_eq!(classify(&side, 0, 9), "unknown");
    }

    #[test]
    fn calls_resolved_to_another_crate() {
        let mut side = side(&[
            "srv/module/w/<Error as Debug>::fmt/2",
            "srv/module/w/<Error as Display>::fmt/2",
        ]);
        side.boundary_calls
            .insert((0, "std::fmt::Display::fmt".to_owned()));
        assert!(classify(&side, 0, 1).starts_with("trait call resolved to the trait"));
    }
}
