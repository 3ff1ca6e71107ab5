//! Method and trait calls resolved from the receiver's type as the syntax tells it: `self`,
//! parameters through `&`, `Box` and `Arc`, `let` with a type, a constructor or a literal, a
//! field, a return type and `?`, a `for` loop's element; a trait impl for a known type; every
//! impl for `dyn` and generic receivers (listed as dispatch); closures folded in; a rebinding
//! the scan cannot type ends the edge; the items of a `#[beam_mcp::items]` block; macro
//! arguments, tuples, `match` ends, `Arc::clone`, the crate's own `Deref` and `Display`.

use crate::common::{edges, entries, scan};

#[test]
fn each_shape_resolves_to_the_method_it_calls() {
    let declared = scan("methods");
    let mut code: Vec<String> = edges(&declared)
        .into_iter()
        .filter(|e| !e.contains("/boundary/"))
        .map(|e| e.replace("srv/module/methods/", ""))
        .collect();
    code.sort();
    let expected = [
        "<Index as std::fmt::Debug>::fmt/2 -> <Index as std::fmt::Display>::fmt/2",
        "<Name as std::ops::Deref>::deref/1 -> unknown/1",
        "Engine::provided/1 -> <Fast as Engine>::run/1",
        "Engine::provided/1 -> <Slow as Engine>::run/1",
        "Notes::list/1 -> Index::look/1",
        "Notes::list/1 -> Index::new/0",
        "Stations::chain/1 -> Index::new/0",
        "Stations::lookup/1 -> Index::look/1",
        "by_let/0 -> Index::look/1",
        "by_let/0 -> Index::new/0",
        "by_let/0 -> Stations::lookup/1",
        "by_let/0 -> make/0",
        "by_param/3 -> Index::look/1",
        "by_param/3 -> Stations::lookup/1",
        "by_return/1 -> Index::all/1",
        "by_return/1 -> Index::find/1",
        "by_return/1 -> Index::look/1",
        "by_return/1 -> Stations::chain/1",
        "closures/1 -> Stations::lookup/1",
        "collected/1 -> Index::all/1",
        "collected/1 -> Index::look/1",
        "generic/1 -> <Fast as Engine>::run/1",
        "generic/1 -> <Slow as Engine>::run/1",
        "inferred/3 -> <Index as std::fmt::Display>::fmt/2",
        "inferred/3 -> <Name as std::ops::Deref>::deref/1",
        "inferred/3 -> Index::look/1",
        "inferred/3 -> Index::new/0",
        "inferred/3 -> Stations::lookup/1",
        "inferred/3 -> make/0",
        "patterns/2 -> Index::all/1",
        "patterns/2 -> Index::find/1",
        "patterns/2 -> Index::look/1",
        "shadowed/1 -> unknown/1",
        "srv/server -> srv/tool/list",
        "srv/tool/list -> Notes::list/1",
        "through_traits/2 -> <Fast as Default>::default/0",
        "through_traits/2 -> <Fast as Engine>::run/1",
        "through_traits/2 -> <Slow as Engine>::run/1",
        "through_traits/2 -> Engine::provided/1",
    ];
    assert_eq!(code, expected);
}

#[test]
fn calls_through_a_trait_object_or_generic_are_listed_as_dispatch() {
    let declared = scan("methods");
    // `fast.run()` and `<Slow as Engine>::run` are exact: only `engine.run()`'s other impl
    // is an over-approximation in `through_traits`.
    assert_eq!(
        entries(&declared, "dispatch_edges"),
        [
            "methods::Engine::provided -> methods::<Fast as Engine>::run",
            "methods::Engine::provided -> methods::<Slow as Engine>::run",
            "methods::generic -> methods::<Fast as Engine>::run",
            "methods::generic -> methods::<Slow as Engine>::run",
        ]
    );
}

#[test]
fn what_the_syntax_does_not_type_stays_in_the_bound() {
    let declared = scan("methods");
    assert_eq!(
        entries(&declared, "method_calls"),
        [
            "methods::closures -> items.iter",
            "methods::closures -> items….for_each",
            "methods::shadowed -> stations.lookup",
        ]
    );
    // A closure passed to a call is folded in; one kept in a binding is listed.
    assert_eq!(
        entries(&declared, "closures"),
        ["methods::closures::{closure#1}"]
    );
}

#[test]
fn an_items_block_declares_its_methods() {
    let declared = scan("methods");
    let item = declared.items.iter().find(|i| i.key == "list").unwrap();
    assert_eq!(item.function, "methods::Notes::list");
    assert!(entries(&declared, "attribute_macros").is_empty());
}
