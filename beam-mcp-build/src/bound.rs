//! The completeness bound: everything the scan saw but could not turn into an edge, each by
//! name, in sorted lists. Never a count, never a guess.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

macro_rules! bound {
    ($($(#[$doc:meta])* $field:ident,)+) => {
        /// What the declared graph cannot show, by name: each list sorted, each entry once.
        ///
        /// Entries read `caller -> callee` for what a function body does (`caller` is the
        /// function, `module::name`), and a path for an item (`weather::slow`).
        ///
        /// ```
        /// let bound = beam_mcp_build::Bound::default();
        /// assert!(bound.method_calls.is_empty());
        /// let json = bound.to_json();
        /// assert!(json["method_calls"].as_array().unwrap().is_empty());
        /// ```
        #[derive(Debug, Clone, Default, PartialEq, Eq)]
        #[non_exhaustive]
        pub struct Bound {
            $($(#[$doc])* pub $field: BTreeSet<String>,)+
        }

        impl Bound {
            /// Every category, by its name in the JSON, in declared order.
            ///
            /// ```
            /// let bound = beam_mcp_build::Bound::default();
            /// assert!(bound.categories().iter().any(|(name, _)| *name == "closures"));
            /// ```
            pub fn categories(&self) -> Vec<(&'static str, &BTreeSet<String>)> {
                vec![$((stringify!($field), &self.$field),)+]
            }

            pub(crate) fn category_mut(&mut self, category: Category) -> &mut BTreeSet<String> {
                match category {
                    $(Category::$field => &mut self.$field,)+
                }
            }
        }

        /// A category of the bound, named as its field.
        #[allow(non_camel_case_types)]
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(crate) enum Category {
            $($field,)+
        }
    };
}

bound! {
    /// Method calls, `caller -> receiver.method`, whose receiver's type the syntax does not
    /// tell (a closure's argument, a value of another crate's function, a tuple's field). The receiver is named by its head, its
    /// leading path, fields or call (`self.stations.get`, `beam_mcp::Server::builder().name`),
    /// with `…` where more of it follows (`beam_mcp::Server::builder()….build` in a chain), and
    /// the text is at most 120 characters.
    method_calls,
    /// Edges the graph holds for a call through a trait whose receiver is `dyn Trait`, `impl
    /// Trait` or a generic parameter (`caller -> callee`): one to each impl of the crate that
    /// may run, which over-approximates what runs.
    dispatch_edges,
    /// Calls through a trait: `<T as Trait>::f`, `Trait::f`, a generic parameter's `T::f`,
    /// and `Type::f` where `f` is no inherent function of the crate's `Type`.
    trait_calls,
    /// Calls of a value rather than a path: a local (`f()` where `f` is a parameter or a
    /// binding), a field, a returned closure, `(expr)()`.
    indirect_calls,
    /// Closures, `caller::{closure#N}` (numbered from 0 in source order). Their calls count as
    /// their function's; when they run is not known.
    closures,
    /// Paths used as values, not called: the crate's functions by resolved name (function
    /// pointers), other crates' paths as written (functions or constants: the scan cannot tell).
    fn_values,
    /// Macro invocations inside function bodies, `caller -> name!`: their bodies are not read.
    macro_invocations,
    /// `include!`, in a body (`caller -> include!(...)`) or among items (`module -> include!(...)`).
    includes,
    /// Item-level macro invocations, `module -> name!`: the items they make are not seen.
    macro_items,
    /// Items under an attribute the scan does not know, which may rewrite them:
    /// `path #[attribute]`; among them another crate's `#[tool]`, `#[resource]` or
    /// `#[prompt]` (rmcp's, say), which declares no item of this server.
    attribute_macros,
    /// Items (and statements, match arms, fields) cut by `#[cfg]` for this build:
    /// `path #[cfg(...)]`.
    cfg_cut,
    /// Items inside function bodies, `caller::name`: not scanned.
    nested_items,
    /// Calls in `const` and `static` initializers (no function node holds them):
    /// `item -> callee`.
    initializer_calls,
    /// Calls into other crates no function node holds (in `const` and `static` initializers,
    /// and completers named on items), by the path resolved through `use`:
    /// `weather::LIMIT -> std::mem::size_of`. A function's own calls into other crates are
    /// boundary nodes of the graph.
    external_callees,
    /// Paths called or used that name nothing the scan can see (perhaps made by a macro, or
    /// an item inside a body): `caller -> path`.
    unresolved_paths,
    /// Paths a glob import from another crate, or an item-level macro, could also provide:
    /// `caller -> path`.
    ambiguous_paths,
    /// Every source file read, relative to the manifest directory (with `..` for a `#[path]`
    /// outside it), so that the bound is the same on every machine.
    sources,
}

impl Bound {
    /// The bound as a JSON object: one member per category, each a sorted array of strings.
    ///
    /// ```
    /// let json = beam_mcp_build::Bound::default().to_json();
    /// assert_eq!(json["sources"], serde_json::json!([]));
    /// ```
    pub fn to_json(&self) -> Value {
        let mut object = Map::new();
        for (name, entries) in self.categories() {
            let entries = entries.iter().cloned().map(Value::String).collect();
            object.insert(name.to_owned(), Value::Array(entries));
        }
        Value::Object(object)
    }

    pub(crate) fn add(&mut self, category: Category, entry: String) {
        self.category_mut(category).insert(entry);
    }
}
