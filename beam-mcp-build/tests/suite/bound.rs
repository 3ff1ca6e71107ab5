//! Every category of the completeness bound, by name: what the scan saw and did not turn into
//! an edge.

use crate::common::{edges, entries, scan};

#[test]
fn every_category_lists_its_entries_by_name() {
    let declared = scan("bound");
    let expected: &[(&str, &[&str])] = &[
        ("method_calls", &["bound::everything -> get()….count_ones"]),
        ("dispatch_edges", &["bound::via -> bound::T::t"]),
        ("trait_calls", &["bound::generic -> G::default"]),
        (
            "indirect_calls",
            &[
                "bound::everything -> (get())",
                "bound::everything -> c",
                "bound::everything -> f",
            ],
        ),
        ("closures", &["bound::everything::{closure#0}"]),
        (
            "fn_values",
            &[
                "bound::HOOK -> bound::helper",
                "bound::everything -> bound::helper",
                "bound::get -> bound::helper",
            ],
        ),
        ("macro_invocations", &["bound::everything -> println!"]),
        (
            "includes",
            &[
                "bound::everything -> include!(\"expr.rs\")",
                "bound::opaque -> include!(\"generated.rs\")",
            ],
        ),
        ("macro_items", &["bound::opaque -> make!"]),
        (
            "attribute_macros",
            &["bound::rewritten #[some_attr::rewrite]"],
        ),
        (
            "cfg_cut",
            &[
                "bound::cut #[cfg(feature = \"never\")]",
                "bound::everything: statement #[cfg(feature = \"never\")]",
            ],
        ),
        ("nested_items", &["bound::everything::nested"]),
        ("initializer_calls", &["bound::C -> bound::compute"]),
        ("external_callees", &["bound::D -> std::mem::size_of"]),
        (
            "unresolved_paths",
            &[
                "bound::everything -> made_fn",
                "bound::everything -> missing_fn",
            ],
        ),
        ("ambiguous_paths", &["bound::amb::a -> anything"]),
        ("sources", &["src/lib.rs"]),
    ];
    let names: Vec<&str> = declared
        .bound
        .categories()
        .iter()
        .map(|(n, _)| *n)
        .collect();
    let listed: Vec<&str> = expected.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, listed, "every category is tested");
    for (category, entries_expected) in expected {
        assert_eq!(
            entries(&declared, category),
            *entries_expected,
            "{category}"
        );
    }
}

#[test]
fn resolved_calls_are_edges_closures_included() {
    let declared = scan("bound");
    let f = |name: &str, arity: u32| format!("srv/module/bound/{name}/{arity}");
    let everything = f("everything", 1);
    let mut expected = vec![
        format!("{everything} -> {}", f("S::new", 0)),
        format!("{everything} -> {}", f("get", 0)),
        // `s.m()`, `s` typed by `S::new()`'s return type.
        format!("{everything} -> {}", f("S::m", 1)),
        // `T::t(&s)` (every impl's `t`: here the provided one) and `<S as T>::t(&s)`.
        format!("{everything} -> {}", f("T::t", 1)),
        // Inside the closure: a closure's calls are its function's.
        format!("{everything} -> {}", f("helper", 0)),
        // Another crate's function: a boundary node by its path.
        format!("{everything} -> srv/boundary/std/std::mem::drop"),
        // The trait's provided method is a node of its own.
        format!("{} -> {}", f("T::t", 1), f("helper", 0)),
        // A generic receiver: every impl's `t` (here the provided one).
        format!("{} -> {}", f("via", 1), f("T::t", 1)),
        "srv/server -> srv/tool/everything".to_owned(),
        format!("srv/tool/everything -> {everything}"),
    ];
    expected.sort();
    assert_eq!(edges(&declared), expected);
}

#[test]
fn the_bound_is_json_of_sorted_lists() {
    let declared = scan("bound");
    let json = declared.bound.to_json();
    let object = json.as_object().unwrap();
    assert_eq!(object.len(), declared.bound.categories().len());
    for (name, value) in object {
        let list: Vec<&str> = value
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let mut sorted = list.clone();
        sorted.sort();
        assert_eq!(list, sorted, "{name}");
    }
}
