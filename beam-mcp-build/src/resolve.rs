//! Path resolution through the module tree and `use` items, as rustc resolves a path that
//! compiles: the module's own items, then its imports, then its glob imports, then (for a
//! first segment) another crate, the prelude or a primitive type.
//!
//! A name a glob from another crate (or an item-level macro) could also provide is
//! ambiguous: the scan says so rather than pick.
//!
//! Each top-level query remembers every `(module, name, namespace)` it has looked up, so that
//! modules glob-importing one another are walked once per query, not once per path through
//! them (which is exponential in the number of such modules).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use beam_mcp_rules::attributes::ItemKind;

use crate::bound::{Bound, Category};
use crate::index::{Annotated, FnId, Index, Ns, Owner, Res, TypeId, TypeKind};
use crate::loader::ModId;
use crate::spell::spell;

/// The outcome of a lookup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Lookup {
    Found(Res),
    NotFound,
    Ambiguous,
}

/// Prelude values that are constructors, not calls.
const PRELUDE_CTORS: &[&str] = &["Some", "None", "Ok", "Err"];
/// Prelude functions.
const PRELUDE_FNS: &[&str] = &["drop"];
/// How deep resolution follows imports, globs and aliases before giving up on a cycle.
const MAX_DEPTH: usize = 64;
/// The crate whose attribute macros declare the catalog.
const BEAM_MCP: &str = "beam_mcp";
/// Crates that define no attribute named `tool`, `resource` or `prompt`: a glob from them does
/// not make a bare `#[tool]` someone else's.
const NO_ITEM_ATTRIBUTES: &[&str] = &["std", "core", "alloc"];

pub(crate) struct Resolver<'a> {
    pub(crate) index: &'a Index,
    /// The crate's inherent functions by their type and name.
    inherent: BTreeMap<(TypeId, String), Vec<FnId>>,
    /// Functions of the crate's trait impls by their self type and name.
    trait_impls: BTreeMap<(TypeId, String), Vec<FnId>>,
    /// Functions of impls of the crate's traits by the trait and name, whatever the self type.
    impls_of_trait: BTreeMap<(TypeId, String), Vec<FnId>>,
    /// A trait's provided methods by the trait and name.
    provided: BTreeMap<(TypeId, String), FnId>,
    /// The crate's traits each of its types implements.
    traits_of: BTreeMap<TypeId, BTreeSet<TypeId>>,
}

impl<'a> Resolver<'a> {
    pub(crate) fn new(index: &'a Index) -> Resolver<'a> {
        let mut resolver = Resolver {
            index,
            inherent: BTreeMap::new(),
            trait_impls: BTreeMap::new(),
            impls_of_trait: BTreeMap::new(),
            provided: BTreeMap::new(),
            traits_of: BTreeMap::new(),
        };
        let mut inherent: BTreeMap<(TypeId, String), Vec<FnId>> = BTreeMap::new();
        let mut trait_impls: BTreeMap<(TypeId, String), Vec<FnId>> = BTreeMap::new();
        let mut impls_of_trait: BTreeMap<(TypeId, String), Vec<FnId>> = BTreeMap::new();
        let mut provided = BTreeMap::new();
        let mut traits_of: BTreeMap<TypeId, BTreeSet<TypeId>> = BTreeMap::new();
        for (id, f) in index.fns.iter().enumerate() {
            let name = f.name.rsplit("::").next().unwrap_or_default().to_owned();
            match &f.owner {
                Owner::Impl {
                    self_ty, of_trait, ..
                } => {
                    let self_ty = match resolver.self_type(f.module, self_ty) {
                        Lookup::Found(Res::Type(t)) => Some(t),
                        _ => None,
                    };
                    let Some(path) = of_trait else {
                        if let Some(t) = self_ty {
                            inherent.entry((t, name)).or_default().push(id);
                        }
                        continue;
                    };
                    if let Some(t) = self_ty {
                        trait_impls.entry((t, name.clone())).or_default().push(id);
                    }
                    if let Some(tr) = resolver.trait_id(f.module, path) {
                        impls_of_trait.entry((tr, name)).or_default().push(id);
                        if let Some(t) = self_ty {
                            traits_of.entry(t).or_default().insert(tr);
                        }
                    }
                }
                Owner::Trait(tr) => {
                    provided.insert((*tr, name), id);
                }
                Owner::Free => {}
            }
        }
        resolver.inherent = inherent;
        resolver.trait_impls = trait_impls;
        resolver.impls_of_trait = impls_of_trait;
        resolver.provided = provided;
        resolver.traits_of = traits_of;
        resolver
    }

    /// Resolves `path` as written in module `module`, its last segment in `ns`.
    pub(crate) fn resolve(&self, module: ModId, path: &[String], ns: Ns) -> Lookup {
        self.resolve_at(module, path, ns, &mut Query::default())
    }

    fn resolve_at(&self, module: ModId, path: &[String], ns: Ns, query: &mut Query) -> Lookup {
        let Some((first, rest)) = path.split_first() else {
            return Lookup::NotFound;
        };
        let first_ns = if rest.is_empty() { ns } else { Ns::Type };
        let start = match first.as_str() {
            "::" => return Lookup::Found(Res::External(rest.to_vec())),
            "crate" => Res::Module(0),
            "self" => Res::Module(module),
            "super" => match self.parent(module) {
                Some(parent) => Res::Module(parent),
                None => return Lookup::NotFound,
            },
            name => match self.lookup_at(module, name, first_ns, query) {
                Lookup::Found(res) => res,
                Lookup::Ambiguous => return Lookup::Ambiguous,
                Lookup::NotFound => return outside(path, ns),
            },
        };
        self.descend_at(start, rest, ns, query)
    }

    /// Follows `rest` from `res`.
    pub(crate) fn descend(&self, start: Res, rest: &[String], ns: Ns) -> Lookup {
        self.descend_at(start, rest, ns, &mut Query::default())
    }

    fn descend_at(&self, start: Res, rest: &[String], ns: Ns, query: &mut Query) -> Lookup {
        let mut res = start;
        for (i, segment) in rest.iter().enumerate() {
            let last = i + 1 == rest.len();
            let segment_ns = if last { ns } else { Ns::Type };
            res = match res {
                Res::Module(m) => match segment.as_str() {
                    "super" => match self.parent(m) {
                        Some(parent) => Res::Module(parent),
                        None => return Lookup::NotFound,
                    },
                    "self" => Res::Module(m),
                    name => match self.lookup_at(m, name, segment_ns, query) {
                        Lookup::Found(res) => res,
                        other => return other,
                    },
                },
                Res::Type(t) => match self.ty(t, query) {
                    Lookup::Found(Res::Type(t)) => self.member(t, segment),
                    Lookup::Found(Res::External(mut path)) => {
                        path.push(segment.clone());
                        Res::External(path)
                    }
                    Lookup::Ambiguous => return Lookup::Ambiguous,
                    _ => return Lookup::NotFound,
                },
                Res::External(mut path) => {
                    path.push(segment.clone());
                    Res::External(path)
                }
                _ => return Lookup::NotFound,
            };
        }
        Lookup::Found(res)
    }

    /// `Type::segment`: a variant, a trait's item, or something associated with the type.
    fn member(&self, t: TypeId, segment: &str) -> Res {
        match self.index.types.get(t).map(|d| &d.kind) {
            Some(TypeKind::Enum(variants)) if variants.iter().any(|v| v == segment) => Res::Ctor,
            Some(TypeKind::Trait) => Res::TraitItem(t, segment.to_owned()),
            _ => Res::Assoc(t, segment.to_owned()),
        }
    }

    /// A type with its aliases followed: another of the crate's types, or another crate's.
    fn ty(&self, t: TypeId, query: &mut Query) -> Lookup {
        let Some(def) = self.index.types.get(t) else {
            return Lookup::NotFound;
        };
        let TypeKind::Alias(target) = &def.kind else {
            return Lookup::Found(Res::Type(t));
        };
        if query.under_way.len() > MAX_DEPTH {
            return Lookup::NotFound;
        }
        let syn::Type::Path(path) = &**target else {
            return Lookup::NotFound;
        };
        if path.qself.is_some() {
            return Lookup::NotFound;
        }
        let segments = segments(&path.path);
        query
            .under_way
            .push((def.module, format!("type {t}"), Ns::Type));
        let found = self.resolve_at(def.module, &segments, Ns::Type, query);
        query.under_way.pop();
        match found {
            Lookup::Found(Res::Type(next)) => self.ty(next, query),
            other => other,
        }
    }

    /// A type path resolved to one of the crate's types, aliases followed.
    pub(crate) fn type_of(&self, module: ModId, path: &[String]) -> Lookup {
        match self.resolve(module, path, Ns::Type) {
            Lookup::Found(Res::Type(t)) => self.ty(t, &mut Query::default()),
            other => other,
        }
    }

    /// `name` in module `module`: its items, its imports, its globs. Looked up once per query:
    /// met again while under way, it is a cycle (not found); met again after, the answer
    /// already given.
    fn lookup_at(&self, module: ModId, name: &str, ns: Ns, query: &mut Query) -> Lookup {
        let Some(scope) = self.index.scopes.get(module) else {
            return Lookup::NotFound;
        };
        let table = match ns {
            Ns::Type => Some(&scope.types),
            Ns::Value => Some(&scope.values),
            // No item of the crate can be an attribute macro: only imports name them.
            Ns::Macro => None,
        };
        if let Some(res) = table.and_then(|t| t.get(name)) {
            return Lookup::Found(res.clone());
        }
        let key = (module, name.to_owned(), ns);
        if let Some(done) = query.done.get(&key) {
            return done.clone();
        }
        if query.under_way.contains(&key) || query.under_way.len() > MAX_DEPTH {
            return Lookup::NotFound;
        }
        query.under_way.push(key.clone());
        let found = self.imported(module, name, ns, query);
        query.under_way.pop();
        query.done.insert(key, found.clone());
        found
    }

    fn imported(&self, module: ModId, name: &str, ns: Ns, query: &mut Query) -> Lookup {
        let Some(scope) = self.index.scopes.get(module) else {
            return Lookup::NotFound;
        };
        for import in scope.imports.iter().filter(|i| i.name == name) {
            match self.resolve_at(module, &import.path, ns, query) {
                Lookup::NotFound => {} // it imports the name in the other namespace
                found => return found,
            }
        }
        let mut ambiguous = scope.opaque;
        for glob in &scope.globs {
            match self.resolve_at(module, glob, Ns::Type, query) {
                Lookup::Found(Res::Module(source)) => match self.lookup_at(source, name, ns, query)
                {
                    Lookup::Found(res) => return Lookup::Found(res),
                    Lookup::Ambiguous => ambiguous = true,
                    Lookup::NotFound => {}
                },
                Lookup::Found(Res::Type(t)) => {
                    if let Some(TypeKind::Enum(variants)) = self.index.types.get(t).map(|d| &d.kind)
                        && ns == Ns::Value
                        && variants.iter().any(|v| v == name)
                    {
                        return Lookup::Found(Res::Ctor);
                    }
                }
                _ => ambiguous = true,
            }
        }
        if ambiguous {
            Lookup::Ambiguous
        } else {
            Lookup::NotFound
        }
    }

    /// The kind of beam-mcp item macro the attribute `path`, written on an item of module
    /// `module`, names; `None` when it is another crate's attribute (rmcp's `#[tool]`, say).
    ///
    /// A path that resolves through the module's `use` items (and `extern crate` renames) is
    /// beam-mcp's when it ends at `beam_mcp::tool`, `beam_mcp::resource` or
    /// `beam_mcp::prompt`. A bare name no `use` brings in is beam-mcp's (as in
    /// `#[macro_use] extern crate beam_mcp;`). A bare name a glob from another crate could
    /// bring in is beam-mcp's only when a glob from `beam_mcp` could too (and `std`, `core` and
    /// `alloc` have no such attribute).
    pub(crate) fn item_kind(&self, module: ModId, path: &syn::Path) -> Option<ItemKind> {
        if path.segments.iter().any(|s| !s.arguments.is_none()) {
            return None;
        }
        let written = segments(path);
        let bare = match written.as_slice() {
            [word] => Some(word.as_str()),
            _ => None,
        };
        match self.resolve(module, &written, Ns::Macro) {
            Lookup::Found(Res::External(resolved)) => beam_mcp_kind(&resolved),
            Lookup::Found(_) => None,
            Lookup::NotFound => bare.and_then(kind_of_word),
            Lookup::Ambiguous => match bare {
                Some(word) => {
                    let crates = self.glob_crates(module);
                    let others = crates
                        .iter()
                        .any(|c| c != BEAM_MCP && !NO_ITEM_ATTRIBUTES.contains(&c.as_str()));
                    if crates.contains(BEAM_MCP) || !others {
                        kind_of_word(word)
                    } else {
                        None
                    }
                }
                // `beam_mcp::tool` in a module with another crate's glob: a glob bringing a
                // `beam_mcp` in would make rustc refuse the path, so it is the crate's.
                None => beam_mcp_kind(written.strip_prefix(&["::".to_owned()]).unwrap_or(&written)),
            },
        }
    }

    /// True when the attribute `path` on an item of `module` is beam-mcp's `items`: resolved
    /// through `use` to `beam_mcp::items`, or a bare `items` nothing imports.
    pub(crate) fn is_items(&self, module: ModId, path: &syn::Path) -> bool {
        let written = segments(path);
        match self.resolve(module, &written, Ns::Macro) {
            Lookup::Found(Res::External(resolved)) => {
                matches!(resolved.as_slice(), [krate, word] if krate == BEAM_MCP && word == "items")
            }
            Lookup::NotFound => written == ["items"],
            _ => false,
        }
    }

    /// The crates the globs of `module` import from, through the crate's own modules' globs;
    /// `?` for a glob whose source is not known.
    fn glob_crates(&self, module: ModId) -> BTreeSet<String> {
        let mut crates = BTreeSet::new();
        let mut seen = BTreeSet::new();
        let mut work = vec![module];
        while let Some(m) = work.pop() {
            if !seen.insert(m) {
                continue;
            }
            let Some(scope) = self.index.scopes.get(m) else {
                continue;
            };
            for glob in &scope.globs {
                match self.resolve(m, glob, Ns::Type) {
                    Lookup::Found(Res::Module(source)) => work.push(source),
                    Lookup::Found(Res::External(path)) => {
                        crates.insert(path.first().cloned().unwrap_or_default());
                    }
                    // An enum's variants: no attribute.
                    Lookup::Found(_) => {}
                    // A glob's own first segment is ambiguous beside another crate's glob;
                    // rustc takes it as the crate of that name (or refuses the ambiguity).
                    Lookup::NotFound | Lookup::Ambiguous => {
                        let first = glob.first().map(String::as_str).unwrap_or_default();
                        let named = !matches!(first, "" | "crate" | "self" | "super");
                        crates.insert(if named { first } else { "?" }.to_owned());
                    }
                }
            }
        }
        crates
    }

    fn parent(&self, module: ModId) -> Option<ModId> {
        self.index.tree.modules.get(module).and_then(|m| m.parent)
    }

    /// The crate's inherent functions named `name` on type `t`.
    pub(crate) fn inherent(&self, t: TypeId, name: &str) -> &[FnId] {
        self.inherent
            .get(&(t, name.to_owned()))
            .map_or(&[], Vec::as_slice)
    }

    /// `Type::name` as a path call: the inherent function, else the one trait impl's (rustc
    /// picks the inherent one first; two traits' functions of one name are ambiguous).
    pub(crate) fn assoc(&self, t: TypeId, name: &str) -> Option<FnId> {
        match self.inherent(t, name) {
            [f] => return Some(*f),
            [] => {}
            _ => return None,
        }
        match self
            .trait_impls
            .get(&(t, name.to_owned()))
            .map(Vec::as_slice)
        {
            Some([f]) => Some(*f),
            _ => None,
        }
    }

    /// `value.name(..)` on the crate's type `t`: as [`assoc`](Self::assoc), then a provided
    /// method of the one trait of the crate `t` implements that has it.
    pub(crate) fn method(&self, t: TypeId, name: &str) -> Option<FnId> {
        if !self.inherent(t, name).is_empty()
            || self.trait_impls.contains_key(&(t, name.to_owned()))
        {
            return self.assoc(t, name);
        }
        let mut provided = self
            .traits_of
            .get(&t)
            .into_iter()
            .flatten()
            .filter_map(|tr| self.provided.get(&(*tr, name.to_owned())));
        match (provided.next(), provided.next()) {
            (Some(f), None) => Some(*f),
            _ => None,
        }
    }

    /// Every function a call of `name` through the crate's traits `traits` may run (a
    /// generic or `dyn` receiver): each impl's, and the provided method an impl may keep.
    pub(crate) fn dispatch(&self, traits: &[TypeId], name: &str) -> BTreeSet<FnId> {
        let mut out = BTreeSet::new();
        for tr in traits {
            let key = (*tr, name.to_owned());
            out.extend(self.impls_of_trait.get(&key).into_iter().flatten());
            out.extend(self.provided.get(&key));
        }
        out
    }

    /// True when one of the crate's traits has a method `name` (which may then be called on
    /// another crate's type).
    pub(crate) fn trait_method(&self, name: &str) -> bool {
        self.impls_of_trait.keys().any(|(_, n)| n == name)
            || self.provided.keys().any(|(_, n)| n == name)
    }

    /// The function `name` of the crate's impl for `t` of a trait (the crate's or another
    /// crate's) whose last path segment is `trait_name`: `Display::fmt(self, f)` in a type
    /// with both a `Debug` and a `Display` impl.
    pub(crate) fn impl_of_named(&self, t: TypeId, trait_name: &str, name: &str) -> Option<FnId> {
        let candidates = self.trait_impls.get(&(t, name.to_owned()))?;
        let mut named = candidates.iter().copied().filter(|f| {
            self.index.fns.get(*f).is_some_and(|def| match &def.owner {
                Owner::Impl {
                    of_trait: Some(path),
                    ..
                } => path
                    .segments
                    .last()
                    .is_some_and(|s| crate::names::ident(&s.ident) == trait_name),
                _ => false,
            })
        });
        match (named.next(), named.next()) {
            (Some(f), None) => Some(f),
            _ => None,
        }
    }

    /// `<T as Trait>::name`: the function of the crate's impl of `tr` for `t`.
    pub(crate) fn qualified(&self, t: TypeId, tr: TypeId, name: &str) -> Option<FnId> {
        let candidates = self
            .trait_impls
            .get(&(t, name.to_owned()))
            .map_or(&[][..], Vec::as_slice);
        let of_trait: Vec<FnId> = candidates
            .iter()
            .copied()
            .filter(|f| {
                self.index.fns.get(*f).is_some_and(|def| match &def.owner {
                    Owner::Impl {
                        of_trait: Some(path),
                        ..
                    } => self.trait_id(def.module, path) == Some(tr),
                    _ => false,
                })
            })
            .collect();
        match of_trait.as_slice() {
            [f] => Some(*f),
            _ => self.provided.get(&(tr, name.to_owned())).copied(),
        }
    }

    /// A path naming one of the crate's traits.
    pub(crate) fn trait_id(&self, module: ModId, path: &syn::Path) -> Option<TypeId> {
        match self.type_of(module, &segments(path)) {
            Lookup::Found(Res::Type(t))
                if matches!(
                    self.index.types.get(t).map(|d| &d.kind),
                    Some(TypeKind::Trait)
                ) =>
            {
                Some(t)
            }
            _ => None,
        }
    }

    /// An impl's self type, resolved from the module the impl is in.
    pub(crate) fn self_type(&self, module: ModId, ty: &syn::Type) -> Lookup {
        match ty {
            syn::Type::Path(p) if p.qself.is_none() => self.type_of(module, &segments(&p.path)),
            syn::Type::Paren(p) => self.self_type(module, &p.elem),
            syn::Type::Group(g) => self.self_type(module, &g.elem),
            _ => Lookup::NotFound,
        }
    }
}

/// A lookup of one name in one module and namespace.
type Key = (ModId, String, Ns);

/// What one top-level query has looked up: the lookups under way (innermost last) and the
/// answers given.
#[derive(Default)]
struct Query {
    under_way: Vec<Key>,
    done: HashMap<Key, Lookup>,
}

/// A path whose first segment names nothing in the crate's scope: another crate (or the
/// prelude, or a primitive type) when more segments follow; a prelude value when alone.
fn outside(path: &[String], ns: Ns) -> Lookup {
    match (path, ns) {
        ([name], Ns::Value) if PRELUDE_CTORS.contains(&name.as_str()) => Lookup::Found(Res::Ctor),
        ([name], Ns::Value) if PRELUDE_FNS.contains(&name.as_str()) => {
            Lookup::Found(Res::External(path.to_vec()))
        }
        ([_], Ns::Value | Ns::Macro) => Lookup::NotFound,
        _ => Lookup::Found(Res::External(path.to_vec())),
    }
}

/// The item kind of a resolved `beam_mcp::tool`, `beam_mcp::resource` or `beam_mcp::prompt`.
fn beam_mcp_kind(resolved: &[String]) -> Option<ItemKind> {
    match resolved {
        [krate, word] if krate == BEAM_MCP => kind_of_word(word),
        _ => None,
    }
}

fn kind_of_word(word: &str) -> Option<ItemKind> {
    ItemKind::ALL.into_iter().find(|k| k.as_str() == word)
}

/// A path's segments, without generic arguments and `r#`.
pub(crate) fn segments(path: &syn::Path) -> Vec<String> {
    let mut out = Vec::with_capacity(path.segments.len() + 1);
    if path.leading_colon.is_some() {
        out.push("::".to_owned());
    }
    out.extend(path.segments.iter().map(|s| crate::names::ident(&s.ident)));
    out
}

/// Decides each pending attribute of the index, now that every module's scope is known:
/// beam-mcp's item macro on a function is an annotation, `#[beam_mcp::items]` leaves its
/// block's methods as written, another crate's attribute is listed in the bound.
pub(crate) fn attributes(index: &mut Index, bound: &mut Bound) {
    let pending = std::mem::take(&mut index.pending);
    let decided: Vec<(Option<ItemKind>, bool)> = {
        let resolver = Resolver::new(index);
        pending
            .iter()
            .map(|p| {
                let path = p.attr.path();
                (
                    resolver.item_kind(p.module, path),
                    resolver.is_items(p.module, path),
                )
            })
            .collect()
    };
    for (pending, (kind, items)) in pending.into_iter().zip(decided) {
        if items {
            continue;
        }
        match (kind, pending.function) {
            (Some(kind), Some(function)) => index.annotated.push(Annotated {
                function,
                attr: pending.attr,
                kind,
            }),
            // beam-mcp's macro on something else: the macro itself refuses it.
            (Some(_), None) => {}
            (None, _) => bound.add(
                Category::attribute_macros,
                format!("{} #[{}]", pending.name, spell(pending.attr.path())),
            ),
        }
    }
}
