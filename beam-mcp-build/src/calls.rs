//! Turns each body's sites into edges between the crate's functions, or into bound entries by
//! name: a call by path becomes an edge only when the path resolves, through the module tree
//! and `use` items, to exactly one of the crate's functions.

use std::collections::BTreeSet;

use crate::body::{Body, Site};
use crate::bound::{Bound, Category};
use crate::index::{FnId, Index, Ns, Owner, Res};
use crate::loader::ModId;
use crate::resolve::{Lookup, Resolver, segments};
use crate::spell::spell;

/// Who the sites belong to.
pub(crate) struct Caller<'a> {
    /// `weather::forecast`, or `weather::ICON` for an initializer.
    pub(crate) name: String,
    pub(crate) module: ModId,
    /// `None` for an initializer, which has no node.
    pub(crate) function: Option<FnId>,
    pub(crate) generics: &'a [String],
    pub(crate) owner: Option<&'a Owner>,
}

/// What a path in a body names.
enum Outcome {
    Res(Res),
    /// A local binding (a parameter, a `let`, a closure's argument).
    Local,
    /// Through a trait: a generic parameter's item, or `Self::` in a trait.
    Trait,
    NotFound,
    Ambiguous,
}

pub(crate) struct Classifier<'a> {
    pub(crate) resolver: Resolver<'a>,
    pub(crate) edges: BTreeSet<(FnId, FnId)>,
}

impl<'a> Classifier<'a> {
    pub(crate) fn new(index: &'a Index) -> Classifier<'a> {
        Classifier {
            resolver: Resolver::new(index),
            edges: BTreeSet::new(),
        }
    }

    pub(crate) fn body(&mut self, caller: &Caller<'_>, body: &Body, bound: &mut Bound) {
        let name = &caller.name;
        for site in &body.sites {
            match site {
                Site::PathCall(path) => self.call(caller, body, path, bound),
                Site::PathValue(path) => self.value(caller, body, path, bound),
                Site::QualifiedCall(text) => {
                    bound.add(Category::trait_calls, format!("{name} -> {text}"))
                }
                Site::QualifiedValue(text) => {
                    bound.add(Category::fn_values, format!("{name} -> {text}"))
                }
                Site::MethodCall(text) => {
                    bound.add(Category::method_calls, format!("{name} -> {text}"))
                }
                Site::IndirectCall(text) => {
                    bound.add(Category::indirect_calls, format!("{name} -> {text}"))
                }
                Site::Closure(n) => {
                    bound.add(Category::closures, format!("{name}::{{closure#{n}}}"))
                }
                Site::Macro(text) => {
                    bound.add(Category::macro_invocations, format!("{name} -> {text}"))
                }
                Site::Include(text) => bound.add(Category::includes, format!("{name} -> {text}")),
                Site::Nested(item) => bound.add(Category::nested_items, item.clone()),
                Site::Cut(what) => bound.add(Category::cfg_cut, format!("{name}: {what}")),
            }
        }
    }

    fn call(&mut self, caller: &Caller<'_>, body: &Body, path: &syn::Path, bound: &mut Bound) {
        let written = spell(path);
        let entry = |category: Category, callee: &str, bound: &mut Bound| {
            bound.add(category, format!("{} -> {callee}", caller.name));
        };
        match self.outcome(caller, body, path, Ns::Value) {
            Outcome::Res(Res::Fn(callee)) => self.edge(caller, callee, bound),
            Outcome::Res(Res::Ctor) => {}
            Outcome::Res(Res::Assoc(t, name)) => match self.resolver.inherent(t, &name) {
                [callee] => self.edge(caller, *callee, bound),
                [] => entry(Category::trait_calls, &written, bound),
                _ => entry(Category::ambiguous_paths, &written, bound),
            },
            Outcome::Res(Res::TraitItem(..)) | Outcome::Trait => {
                entry(Category::trait_calls, &written, bound)
            }
            Outcome::Res(Res::External(resolved)) => {
                entry(Category::external_callees, &resolved.join("::"), bound);
            }
            Outcome::Res(Res::Foreign(name)) => {
                entry(Category::external_callees, &format!("extern {name}"), bound);
            }
            Outcome::Res(Res::Value) | Outcome::Local => {
                entry(Category::indirect_calls, &written, bound)
            }
            Outcome::Res(Res::Module(_) | Res::Type(_)) | Outcome::NotFound => {
                entry(Category::unresolved_paths, &written, bound);
            }
            Outcome::Ambiguous => entry(Category::ambiguous_paths, &written, bound),
        }
    }

    fn value(&mut self, caller: &Caller<'_>, body: &Body, path: &syn::Path, bound: &mut Bound) {
        let written = spell(path);
        let index = self.resolver.index;
        let entry = |category: Category, value: &str, bound: &mut Bound| {
            bound.add(category, format!("{} -> {value}", caller.name));
        };
        match self.outcome(caller, body, path, Ns::Value) {
            Outcome::Res(Res::Fn(f)) => entry(Category::fn_values, &index.fn_name(f), bound),
            Outcome::Res(Res::Assoc(t, name)) => match self.resolver.inherent(t, &name) {
                [f] => entry(Category::fn_values, &index.fn_name(*f), bound),
                [] => entry(Category::fn_values, &written, bound),
                _ => entry(Category::ambiguous_paths, &written, bound),
            },
            Outcome::Res(Res::TraitItem(..)) | Outcome::Trait => {
                entry(Category::fn_values, &written, bound)
            }
            Outcome::Res(Res::External(resolved)) => {
                entry(Category::fn_values, &resolved.join("::"), bound)
            }
            Outcome::Res(Res::Foreign(name)) => {
                entry(Category::fn_values, &format!("extern {name}"), bound)
            }
            Outcome::Res(Res::Ctor | Res::Value | Res::Module(_) | Res::Type(_))
            | Outcome::Local => {}
            Outcome::NotFound => entry(Category::unresolved_paths, &written, bound),
            Outcome::Ambiguous => entry(Category::ambiguous_paths, &written, bound),
        }
    }

    fn edge(&mut self, caller: &Caller<'_>, callee: FnId, bound: &mut Bound) {
        match caller.function {
            Some(from) => {
                self.edges.insert((from, callee));
            }
            None => {
                let entry = format!("{} -> {}", caller.name, self.resolver.index.fn_name(callee));
                bound.add(Category::initializer_calls, entry);
            }
        }
    }

    /// What `path` names where the body is: its locals and generic parameters, `Self`, the
    /// items and imports declared in the body, then the module's scope.
    fn outcome(&self, caller: &Caller<'_>, body: &Body, path: &syn::Path, ns: Ns) -> Outcome {
        let segs = segments(path);
        let Some((first, rest)) = segs.split_first() else {
            return Outcome::NotFound;
        };
        if rest.is_empty() && (body.locals.contains(first) || first == "self") {
            return Outcome::Local;
        }
        if caller.generics.contains(first) {
            return if rest.is_empty() {
                Outcome::Res(Res::Value)
            } else {
                Outcome::Trait
            };
        }
        if first == "Self" {
            return self.self_path(caller, rest, ns);
        }
        if body.nested.contains(first) {
            return Outcome::NotFound;
        }
        let module = caller.module;
        // `use` inside the body shadows the module's names, globs included.
        for import in body.imports.imports.iter().filter(|i| &i.name == first) {
            let mut full = import.path.clone();
            full.extend(rest.iter().cloned());
            match self.resolver.resolve(module, &full, ns) {
                Lookup::NotFound => {}
                found => return found.into(),
            }
        }
        for glob in &body.imports.globs {
            let mut within = vec![first.clone()];
            within.extend(rest.iter().cloned());
            match self.resolver.resolve(module, glob, Ns::Type) {
                Lookup::Found(source @ Res::Module(_)) => {
                    match self.resolver.descend(source, &within, ns) {
                        Lookup::Found(res) => return Outcome::Res(res),
                        Lookup::Ambiguous => return Outcome::Ambiguous,
                        Lookup::NotFound => {}
                    }
                }
                // An enum's glob brings its variants, nothing else.
                Lookup::Found(source @ Res::Type(_)) => {
                    if let Lookup::Found(Res::Ctor) = self.resolver.descend(source, &within, ns) {
                        return Outcome::Res(Res::Ctor);
                    }
                }
                _ => return Outcome::Ambiguous,
            }
        }
        self.resolver.resolve(module, &segs, ns).into()
    }

    /// `Self`, `Self::f`, `Self::Variant` inside an impl or a trait.
    fn self_path(&self, caller: &Caller<'_>, rest: &[String], ns: Ns) -> Outcome {
        match caller.owner {
            Some(Owner::Impl { self_ty, .. }) => {
                if rest.is_empty() {
                    return Outcome::Res(Res::Ctor);
                }
                match self.resolver.self_type(caller.module, self_ty) {
                    Lookup::Found(start) => self.resolver.descend(start, rest, ns).into(),
                    Lookup::Ambiguous => Outcome::Ambiguous,
                    Lookup::NotFound => Outcome::NotFound,
                }
            }
            Some(Owner::Trait) => Outcome::Trait,
            _ => Outcome::NotFound,
        }
    }
}

impl From<Lookup> for Outcome {
    fn from(lookup: Lookup) -> Outcome {
        match lookup {
            Lookup::Found(res) => Outcome::Res(res),
            Lookup::NotFound => Outcome::NotFound,
            Lookup::Ambiguous => Outcome::Ambiguous,
        }
    }
}
