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
use crate::types::{Place, Ty, Typer, external_path};

/// Who the sites belong to.
pub(crate) struct Caller<'a> {
    /// `weather::forecast`, or `weather::ICON` for an initializer.
    pub(crate) name: String,
    pub(crate) module: ModId,
    /// `None` for an initializer, which has no node.
    pub(crate) function: Option<FnId>,
    pub(crate) generics: &'a [String],
    pub(crate) bounds: &'a [(String, syn::Path)],
    pub(crate) owner: Option<&'a Owner>,
}

impl Caller<'_> {
    fn place(&self) -> Place<'_> {
        Place {
            module: self.module,
            owner: self.owner,
            generics: self.generics,
            bounds: self.bounds,
        }
    }
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
    /// Edges to every impl a `dyn` or generic receiver may run: also in `edges`.
    pub(crate) dispatch: BTreeSet<(FnId, FnId)>,
    /// Edges of calls resolved to one function (a path call's are in `edges` alone).
    exact: BTreeSet<(FnId, FnId)>,
    /// Calls into other crates, by the callee's path (`std::thread::sleep`).
    pub(crate) external: BTreeSet<(FnId, Vec<String>)>,
    /// The current body's evaluated receiver types.
    memo: crate::types::Memo,
}

/// The most impls a call through a trait gets an edge to; more are listed in the bound.
const MAX_DISPATCH: usize = 64;

/// What a call runs, once resolved.
enum Target {
    Fn(FnId),
    /// Each impl a trait call may run.
    Dispatch(BTreeSet<FnId>),
    External(Vec<String>),
    /// Through the crate's `Deref` impl: its `deref`, then the target's method.
    Deref(FnId, Box<Target>),
}

impl<'a> Classifier<'a> {
    pub(crate) fn new(index: &'a Index) -> Classifier<'a> {
        Classifier {
            resolver: Resolver::new(index),
            edges: BTreeSet::new(),
            dispatch: BTreeSet::new(),
            exact: BTreeSet::new(),
            external: BTreeSet::new(),
            memo: crate::types::Memo::default(),
        }
    }

    /// Lists the edges only a call through a trait gave: over-approximations, by name.
    pub(crate) fn finish(&self, bound: &mut Bound) {
        let index = self.resolver.index;
        for (from, to) in self.dispatch.difference(&self.exact) {
            let entry = format!("{} -> {}", index.fn_name(*from), index.fn_name(*to));
            bound.add(Category::dispatch_edges, entry);
        }
    }

    pub(crate) fn body(&mut self, caller: &Caller<'_>, body: &Body, bound: &mut Bound) {
        // Addresses are the memo's keys: they are this body's alone.
        self.memo.borrow_mut().clear();
        let name = &caller.name;
        for site in &body.sites {
            match site {
                Site::PathCall(path, first) => {
                    self.call(caller, body, path, first.as_deref(), bound)
                }
                Site::PathValue(path) => self.value(caller, body, path, bound),
                Site::QualifiedCall(path, text) => match self.qualified(caller, path) {
                    Some(target) => self.target(caller, target, bound),
                    None => bound.add(Category::trait_calls, format!("{name} -> {text}")),
                },
                Site::QualifiedValue(text) => {
                    bound.add(Category::fn_values, format!("{name} -> {text}"))
                }
                Site::MethodCall {
                    receiver,
                    method,
                    text,
                } => {
                    let ty = self.eval(caller, body, receiver);
                    match self.method(&ty, method) {
                        Some(target) => self.target(caller, target, bound),
                        None => bound.add(Category::method_calls, format!("{name} -> {text}")),
                    }
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

    fn call(
        &mut self,
        caller: &Caller<'_>,
        body: &Body,
        path: &syn::Path,
        first: Option<&crate::types::TyExpr>,
        bound: &mut Bound,
    ) {
        let written = spell(path);
        let entry = |category: Category, callee: &str, bound: &mut Bound| {
            bound.add(category, format!("{} -> {callee}", caller.name));
        };
        match self.outcome(caller, body, path, Ns::Value) {
            Outcome::Res(Res::Fn(callee)) => self.target(caller, Target::Fn(callee), bound),
            Outcome::Res(Res::Ctor) => {}
            Outcome::Res(Res::Assoc(t, name)) => match self.resolver.assoc(t, &name) {
                Some(callee) => self.target(caller, Target::Fn(callee), bound),
                None if self.resolver.inherent(t, &name).len() > 1 => {
                    entry(Category::ambiguous_paths, &written, bound)
                }
                None => entry(Category::trait_calls, &written, bound),
            },
            Outcome::Res(Res::TraitItem(tr, name)) => {
                let impls = self.resolver.dispatch(&[tr], &name);
                if impls.is_empty() {
                    entry(Category::trait_calls, &written, bound);
                } else {
                    self.target(caller, Target::Dispatch(impls), bound);
                }
            }
            Outcome::Trait => match self.generic_call(caller, path) {
                Some(impls) => self.target(caller, Target::Dispatch(impls), bound),
                None => entry(Category::trait_calls, &written, bound),
            },
            Outcome::Res(Res::External(resolved)) => {
                // `Display::fmt(self, f)`, `Trait::m(&x)`: another crate's trait method called
                // on one of the crate's types runs the crate's impl.
                let method = resolved.last().cloned().unwrap_or_default();
                let of_trait = resolved.iter().rev().nth(1).cloned().unwrap_or_default();
                let own = first.and_then(|first| match self.eval(caller, body, first) {
                    Ty::Local(t) => self
                        .resolver
                        .method(t, &method)
                        .or_else(|| self.resolver.impl_of_named(t, &of_trait, &method)),
                    _ => None,
                });
                let target = match own {
                    Some(f) if resolved.len() > 1 => Target::Fn(f),
                    _ => Target::External(external_path(&resolved)),
                };
                self.target(caller, target, bound);
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

    /// The type `expr` evaluates to in the caller's body.
    fn eval(&self, caller: &Caller<'_>, body: &Body, expr: &crate::types::TyExpr) -> Ty {
        let typer = Typer {
            resolver: &self.resolver,
            memo: &self.memo,
        };
        let call = |path: &syn::Path| match self.outcome(caller, body, path, Ns::Value) {
            Outcome::Res(res) => Lookup::Found(res),
            _ => Lookup::NotFound,
        };
        typer.eval(expr, caller.place(), &call)
    }

    /// The functions `<T as Trait>::f(..)` or `<T>::f(..)` runs.
    fn qualified(&self, caller: &Caller<'_>, path: &syn::ExprPath) -> Option<Target> {
        let qself = path.qself.as_ref()?;
        let typer = Typer {
            resolver: &self.resolver,
            memo: &self.memo,
        };
        let ty = typer.written(&qself.ty, caller.place());
        let segs: Vec<&syn::PathSegment> = path.path.segments.iter().collect();
        let (name, trait_segments) = segs.split_last()?;
        let name = crate::names::ident(&name.ident);
        let of_trait = if qself.position == 0 {
            None
        } else {
            let trait_path = syn::Path {
                leading_colon: path.path.leading_colon,
                segments: trait_segments.iter().map(|s| (*s).clone()).collect(),
            };
            Some(trait_path)
        };
        let crate_trait = of_trait
            .as_ref()
            .and_then(|p| self.resolver.trait_id(caller.module, p));
        match (ty, crate_trait, &of_trait) {
            (Ty::Local(t), Some(tr), _) => self.resolver.qualified(t, tr, &name).map(Target::Fn),
            (Ty::Local(t), None, None) => self.resolver.assoc(t, &name).map(Target::Fn),
            (Ty::Traits(_), Some(tr), _) => {
                let impls = self.resolver.dispatch(&[tr], &name);
                (!impls.is_empty()).then_some(Target::Dispatch(impls))
            }
            (Ty::External(mut p), None, _) => {
                p.push(name);
                Some(Target::External(p))
            }
            _ => None,
        }
    }

    /// `T::f(..)` for a generic parameter `T` bounded by the crate's traits, or `Self::f(..)`
    /// in a trait: every impl's `f`.
    fn generic_call(&self, caller: &Caller<'_>, path: &syn::Path) -> Option<BTreeSet<FnId>> {
        let segs = segments(path);
        let [first, name] = segs.as_slice() else {
            return None;
        };
        let traits: Vec<_> = if first == "Self" {
            match caller.owner {
                Some(Owner::Trait(tr)) => vec![*tr],
                _ => return None,
            }
        } else {
            caller
                .bounds
                .iter()
                .filter(|(n, _)| n == first)
                .filter_map(|(_, b)| self.resolver.trait_id(caller.module, b))
                .collect()
        };
        let impls = self.resolver.dispatch(&traits, name);
        (!impls.is_empty()).then_some(impls)
    }

    /// What `receiver.method(..)` runs, for a receiver of type `ty`.
    fn method(&self, ty: &Ty, method: &str) -> Option<Target> {
        match ty {
            Ty::Local(t) => match self.resolver.method(*t, method) {
                Some(f) => Some(Target::Fn(f)),
                // Auto-deref through the crate's own `Deref` impl: `deref`, then the method on
                // its target (a type of the crate, or another crate's).
                None => {
                    let deref = self.resolver.method(*t, "deref")?;
                    let typer = Typer {
                        resolver: &self.resolver,
                        memo: &self.memo,
                    };
                    let target = match typer.returns(deref) {
                        Ty::Local(u) if u != *t => self.resolver.method(u, method).map(Target::Fn),
                        Ty::External(mut path) => {
                            path.push(method.to_owned());
                            Some(Target::External(path))
                        }
                        _ => None,
                    }?;
                    Some(Target::Deref(deref, Box::new(target)))
                }
            },
            Ty::Traits(traits) => {
                let impls = self.resolver.dispatch(traits, method);
                (!impls.is_empty()).then_some(Target::Dispatch(impls))
            }
            // A trait of the crate may give another crate's type this method.
            _ if self.resolver.trait_method(method) => None,
            Ty::External(path) => {
                let mut path = path.clone();
                path.push(method.to_owned());
                Some(Target::External(path))
            }
            Ty::Option(_) => Some(Target::External(external_path(&[
                "Option".to_owned(),
                method.to_owned(),
            ]))),
            Ty::Result(_) => Some(Target::External(external_path(&[
                "Result".to_owned(),
                method.to_owned(),
            ]))),
            Ty::Lock(_, lock) => {
                let mut path = lock.clone();
                path.push(method.to_owned());
                Some(Target::External(path))
            }
            Ty::Iter(_) => Some(Target::External(vec![
                "std".to_owned(),
                "iter".to_owned(),
                "Iterator".to_owned(),
                method.to_owned(),
            ])),
            // A slice's methods are the `Vec`'s too (by deref): named as `Vec`'s.
            Ty::Seq(_) => Some(Target::External(external_path(&[
                "Vec".to_owned(),
                method.to_owned(),
            ]))),
            Ty::Tuple(_) | Ty::Unknown => None,
        }
    }

    fn target(&mut self, caller: &Caller<'_>, target: Target, bound: &mut Bound) {
        match target {
            Target::Fn(f) => {
                if let Some(from) = caller.function {
                    self.exact.insert((from, f));
                }
                self.edge(caller, f, bound);
            }
            Target::Dispatch(impls) if impls.len() > MAX_DISPATCH => {
                // So many impls that an edge to each says nothing: listed once, by name.
                let index = self.resolver.index;
                let method = impls
                    .first()
                    .and_then(|f| index.fns.get(*f))
                    .map(|def| def.name.rsplit("::").next().unwrap_or_default().to_owned())
                    .unwrap_or_default();
                let entry = format!(
                    "{} -> {method} through a trait ({} impls)",
                    caller.name,
                    impls.len()
                );
                bound.add(Category::trait_calls, entry);
            }
            Target::Dispatch(impls) => {
                for f in impls {
                    self.edge(caller, f, bound);
                    if let Some(from) = caller.function {
                        self.dispatch.insert((from, f));
                    }
                }
            }
            Target::Deref(deref, then) => {
                self.target(caller, Target::Fn(deref), bound);
                self.target(caller, *then, bound);
            }
            Target::External(path) => match caller.function {
                Some(from) => {
                    self.external.insert((from, path));
                }
                None => {
                    let entry = format!("{} -> {}", caller.name, path.join("::"));
                    bound.add(Category::external_callees, entry);
                }
            },
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
        if rest.is_empty() && first == "self" {
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
            Some(Owner::Trait(_)) => Outcome::Trait,
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
