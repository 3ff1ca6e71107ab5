//! What each module defines and imports, by namespace, and every function with a body: the
//! tables resolution reads. Built once from the module tree.

use std::collections::BTreeMap;

use syn::{Fields, ForeignItem, ImplItem, Item, ItemFn, TraitItem, UseTree};

use beam_mcp_rules::attributes::ItemKind;

use crate::bound::{Bound, Category};
use crate::loader::{ModId, Tree};
use crate::names;
use crate::spell::spell;

/// An index into [`Index::fns`].
pub(crate) type FnId = usize;
/// An index into [`Index::types`].
pub(crate) type TypeId = usize;

/// What a path can name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Res {
    Module(ModId),
    Fn(FnId),
    Type(TypeId),
    /// An enum variant, a tuple or unit struct: a constructor, not a call.
    Ctor,
    /// A `const` or `static`.
    Value,
    /// `Type::name` for one of the crate's types (an inherent function, or something else).
    Assoc(TypeId, String),
    /// `Trait::name` for one of the crate's traits.
    TraitItem(TypeId, String),
    /// A path into another crate, the prelude or a primitive type, as resolved.
    External(Vec<String>),
    /// A function of an `extern` block.
    Foreign(String),
}

/// The namespaces a path's last segment is looked up in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Ns {
    Type,
    Value,
    /// Attribute macros: only `use` items bring them into a module.
    Macro,
}

pub(crate) enum TypeKind {
    Enum(Vec<String>),
    Trait,
    Alias(Box<syn::Type>),
    Other,
}

pub(crate) struct TypeDef {
    pub(crate) module: ModId,
    pub(crate) kind: TypeKind,
    /// A struct's fields by name (`0`, `1`, ... for a tuple struct) and declared type, read
    /// to type a method call's receiver such as `self.stations`.
    pub(crate) fields: Vec<(String, syn::Type)>,
}

/// Where a function is defined.
pub(crate) enum Owner {
    Free,
    /// In an impl block: its self type (for `Self`) and the trait it implements, if any.
    Impl {
        self_ty: Box<syn::Type>,
        of_trait: Option<syn::Path>,
        /// The impl's associated types (`type Target = str;`), for `Self::Target`.
        assoc: std::rc::Rc<Vec<(String, syn::Type)>>,
    },
    /// A provided method of the crate's trait.
    Trait(TypeId),
}

/// A function with a body.
pub(crate) struct FnDef {
    pub(crate) module: ModId,
    /// `lookup`, `Stations::starting_with`, `<Stations as Default>::default`, `Trait::f`.
    pub(crate) name: String,
    pub(crate) arity: u32,
    pub(crate) owner: Owner,
    /// Generic parameter names in scope (the impl's or trait's, then the function's).
    pub(crate) generics: Vec<String>,
    /// The trait bounds written on those parameters (`T: Engine`, `where T: Engine`), by
    /// parameter name, as paths to resolve in the function's module.
    pub(crate) bounds: Vec<(String, syn::Path)>,
    pub(crate) sig: syn::Signature,
    pub(crate) body: syn::Block,
}

/// A `const` or `static` initializer.
pub(crate) struct Initializer {
    pub(crate) module: ModId,
    pub(crate) name: String,
    pub(crate) expr: syn::Expr,
}

/// `use path as name;` (also `use path;`, with the last segment as the name).
pub(crate) struct Import {
    pub(crate) name: String,
    /// Segments; a leading `::` is the first segment `::`.
    pub(crate) path: Vec<String>,
}

#[derive(Default)]
pub(crate) struct Scope {
    pub(crate) types: BTreeMap<String, Res>,
    pub(crate) values: BTreeMap<String, Res>,
    pub(crate) imports: Vec<Import>,
    pub(crate) globs: Vec<Vec<String>>,
    /// An item-level macro or `include!` may define names the scan cannot see.
    pub(crate) opaque: bool,
}

/// An attribute the scan does not know by its spelling alone: beam-mcp's item macro, or another
/// crate's attribute, once the module's `use` items are resolved.
pub(crate) struct Pending {
    pub(crate) module: ModId,
    /// What it is on, as listed in the bound: `weather::slow`.
    pub(crate) name: String,
    pub(crate) attr: syn::Attribute,
    /// The function, when it is on a function (a free one, or a method of an items block).
    pub(crate) function: Option<FnId>,
}

/// A function under `#[tool]`, `#[resource]` or `#[prompt]`.
pub(crate) struct Annotated {
    pub(crate) function: FnId,
    pub(crate) attr: syn::Attribute,
    pub(crate) kind: ItemKind,
}

pub(crate) struct Index {
    pub(crate) tree: Tree,
    pub(crate) scopes: Vec<Scope>,
    pub(crate) fns: Vec<FnDef>,
    pub(crate) types: Vec<TypeDef>,
    pub(crate) initializers: Vec<Initializer>,
    pub(crate) annotated: Vec<Annotated>,
    /// Attributes not yet decided: `resolve::attributes` decides them once every scope is
    /// known.
    pub(crate) pending: Vec<Pending>,
}

/// Attributes that do not rewrite the code they are on (rustc's built-ins and tool attributes).
const INERT: &[&str] = &[
    "allow",
    "automatically_derived",
    "cfg",
    "cfg_attr",
    "cold",
    "collapse_debuginfo",
    "coverage",
    "debugger_visualizer",
    "deny",
    "deprecated",
    "derive",
    "doc",
    "expect",
    "export_name",
    "forbid",
    "global_allocator",
    "ignore",
    "inline",
    "instruction_set",
    "link",
    "link_name",
    "link_section",
    "macro_export",
    "macro_use",
    "must_use",
    "naked",
    "no_implicit_prelude",
    "no_mangle",
    "non_exhaustive",
    "optimize",
    "panic_handler",
    "path",
    "repr",
    "should_panic",
    "target_feature",
    "test",
    "track_caller",
    "unsafe",
    "used",
    "warn",
];
const TOOL_NAMESPACES: &[&str] = &["clippy", "rustfmt", "diagnostic", "rust_analyzer"];

impl Index {
    pub(crate) fn build(tree: Tree, bound: &mut Bound) -> Index {
        let mut index = Index {
            scopes: Vec::with_capacity(tree.modules.len()),
            tree: Tree {
                modules: Vec::new(),
            },
            fns: Vec::new(),
            types: Vec::new(),
            initializers: Vec::new(),
            annotated: Vec::new(),
            pending: Vec::new(),
        };
        for (id, module) in tree.modules.iter().enumerate() {
            let scope = index.module(id, module, bound);
            index.scopes.push(scope);
        }
        index.tree = tree;
        index
    }

    fn module(&mut self, id: ModId, module: &crate::loader::Module, bound: &mut Bound) -> Scope {
        let name = module.name();
        let mut scope = Scope::default();
        for item in &module.items {
            if holds_code(item) && !matches!(item, Item::Fn(_)) {
                self.unknown(id, &names::item(&name, item), item_attrs(item), None);
            }
            match item {
                Item::Fn(f) => {
                    let fid = self.function(
                        id,
                        names::ident(&f.sig.ident),
                        f,
                        Owner::Free,
                        &Generics::default(),
                    );
                    scope
                        .values
                        .insert(names::ident(&f.sig.ident), Res::Fn(fid));
                    self.unknown(id, &names::item(&name, item), &f.attrs, Some(fid));
                }
                Item::Mod(m) => {
                    if let Some(child) = module.children.get(&names::ident(&m.ident)) {
                        scope
                            .types
                            .insert(names::ident(&m.ident), Res::Module(*child));
                    }
                }
                Item::Struct(s) => {
                    let tid = self.ty(id, TypeKind::Other);
                    if let Some(def) = self.types.get_mut(tid) {
                        def.fields = s
                            .fields
                            .iter()
                            .enumerate()
                            .map(|(i, f)| {
                                let name = f.ident.as_ref().map_or(i.to_string(), names::ident);
                                (name, f.ty.clone())
                            })
                            .collect();
                    }
                    scope.types.insert(names::ident(&s.ident), Res::Type(tid));
                    if !matches!(s.fields, Fields::Named(_)) {
                        scope.values.insert(names::ident(&s.ident), Res::Ctor);
                    }
                }
                Item::Enum(e) => {
                    let variants = e.variants.iter().map(|v| names::ident(&v.ident)).collect();
                    let tid = self.ty(id, TypeKind::Enum(variants));
                    scope.types.insert(names::ident(&e.ident), Res::Type(tid));
                }
                Item::Union(u) => {
                    let tid = self.ty(id, TypeKind::Other);
                    scope.types.insert(names::ident(&u.ident), Res::Type(tid));
                }
                Item::Trait(t) => {
                    let tid = self.ty(id, TypeKind::Trait);
                    let trait_name = names::ident(&t.ident);
                    scope.types.insert(trait_name.clone(), Res::Type(tid));
                    let generics = Generics::of(&t.generics);
                    for member in &t.items {
                        match member {
                            TraitItem::Fn(f) => {
                                let fname = format!("{trait_name}::{}", names::ident(&f.sig.ident));
                                self.unknown(id, &format!("{name}::{fname}"), &f.attrs, None);
                                if let Some(body) = &f.default {
                                    let def = ItemFn {
                                        attrs: Vec::new(),
                                        vis: syn::Visibility::Inherited,
                                        sig: f.sig.clone(),
                                        block: Box::new(body.clone()),
                                    };
                                    self.function(id, fname, &def, Owner::Trait(tid), &generics);
                                }
                            }
                            TraitItem::Macro(m) => {
                                let entry =
                                    format!("{name}::{trait_name} -> {}!", spell(&m.mac.path));
                                bound.add(Category::macro_items, entry);
                            }
                            _ => {}
                        }
                    }
                }
                Item::TraitAlias(t) => {
                    let tid = self.ty(id, TypeKind::Trait);
                    scope.types.insert(names::ident(&t.ident), Res::Type(tid));
                }
                Item::Type(t) => {
                    let tid = self.ty(id, TypeKind::Alias(t.ty.clone()));
                    scope.types.insert(names::ident(&t.ident), Res::Type(tid));
                }
                Item::Const(c) => {
                    scope.values.insert(names::ident(&c.ident), Res::Value);
                    self.initializers.push(Initializer {
                        module: id,
                        name: format!("{name}::{}", names::ident(&c.ident)),
                        expr: (*c.expr).clone(),
                    });
                }
                Item::Static(s) => {
                    scope.values.insert(names::ident(&s.ident), Res::Value);
                    self.initializers.push(Initializer {
                        module: id,
                        name: format!("{name}::{}", names::ident(&s.ident)),
                        expr: (*s.expr).clone(),
                    });
                }
                Item::ExternCrate(e) => {
                    let krate = names::ident(&e.ident);
                    let local = e
                        .rename
                        .as_ref()
                        .map_or(krate.clone(), |(_, r)| names::ident(r));
                    let res = if krate == "self" {
                        Res::Module(0)
                    } else {
                        Res::External(vec![krate])
                    };
                    if local != "_" {
                        scope.types.insert(local, res);
                    }
                }
                Item::Use(u) => flatten(&u.tree, Vec::new(), u.leading_colon.is_some(), &mut scope),
                Item::Macro(m) if m.ident.is_none() => {
                    scope.opaque = true;
                    let what = spell(&m.mac.path);
                    if what == "include" {
                        let entry = format!("{name} -> include!({})", spell(&m.mac.tokens));
                        bound.add(Category::includes, entry);
                    } else {
                        bound.add(Category::macro_items, format!("{name} -> {what}!"));
                    }
                }
                Item::Macro(_) => {}
                Item::ForeignMod(block) => {
                    for foreign in &block.items {
                        match foreign {
                            ForeignItem::Fn(f) => {
                                let fname = names::ident(&f.sig.ident);
                                scope.values.insert(fname.clone(), Res::Foreign(fname));
                            }
                            ForeignItem::Static(s) => {
                                scope.values.insert(names::ident(&s.ident), Res::Value);
                            }
                            _ => {}
                        }
                    }
                }
                Item::Impl(block) => {
                    let owner = names::impl_owner(block);
                    let generics = Generics::of(&block.generics);
                    let assoc: std::rc::Rc<Vec<(String, syn::Type)>> = std::rc::Rc::new(
                        block
                            .items
                            .iter()
                            .filter_map(|m| match m {
                                ImplItem::Type(t) => Some((names::ident(&t.ident), t.ty.clone())),
                                _ => None,
                            })
                            .collect(),
                    );
                    for member in &block.items {
                        match member {
                            ImplItem::Fn(f) => {
                                let fname = format!("{owner}::{}", names::ident(&f.sig.ident));
                                let def = ItemFn {
                                    attrs: Vec::new(),
                                    vis: syn::Visibility::Inherited,
                                    sig: f.sig.clone(),
                                    block: Box::new(f.block.clone()),
                                };
                                let kind = Owner::Impl {
                                    assoc: std::rc::Rc::clone(&assoc),
                                    self_ty: block.self_ty.clone(),
                                    of_trait: block
                                        .trait_
                                        .as_ref()
                                        .map(|(_, path, _)| path.clone()),
                                };
                                let fid = self.function(id, fname.clone(), &def, kind, &generics);
                                // `#[tool]` on a method of a `#[beam_mcp::items]` block declares
                                // an item (on another impl the macro refuses it).
                                self.unknown(id, &format!("{name}::{fname}"), &f.attrs, Some(fid));
                            }
                            ImplItem::Macro(m) => {
                                let entry = format!("{name}::{owner} -> {}!", spell(&m.mac.path));
                                bound.add(Category::macro_items, entry);
                            }
                            _ => {}
                        }
                    }
                }
                _ => {
                    scope.opaque = true;
                    bound.add(Category::macro_items, format!("{name} -> (unparsed item)"));
                }
            }
        }
        scope
    }

    fn function(
        &mut self,
        module: ModId,
        name: String,
        f: &ItemFn,
        owner: Owner,
        outer: &Generics,
    ) -> FnId {
        let own = Generics::of(&f.sig.generics);
        let mut generics = outer.names.clone();
        generics.extend(own.names);
        let mut bounds = outer.bounds.clone();
        bounds.extend(own.bounds);
        let arity = u32::try_from(f.sig.inputs.len()).unwrap_or(u32::MAX);
        self.fns.push(FnDef {
            module,
            name,
            arity,
            owner,
            generics,
            bounds,
            sig: f.sig.clone(),
            body: (*f.block).clone(),
        });
        self.fns.len() - 1
    }

    fn ty(&mut self, module: ModId, kind: TypeKind) -> TypeId {
        self.types.push(TypeDef {
            module,
            kind,
            fields: Vec::new(),
        });
        self.types.len() - 1
    }

    /// Sets aside each attribute of `attrs` the scan does not know by spelling (it may be
    /// beam-mcp's item macro, or an attribute macro that rewrites the code it is on), to be
    /// decided once every module's `use` items are known.
    fn unknown(
        &mut self,
        module: ModId,
        name: &str,
        attrs: &[syn::Attribute],
        function: Option<FnId>,
    ) {
        for attr in attrs.iter().filter(|a| !inert(a.path())) {
            self.pending.push(Pending {
                module,
                name: name.to_owned(),
                attr: attr.clone(),
                function,
            });
        }
    }

    /// `weather::forecast`: the path of a function's module.
    pub(crate) fn module_name(&self, module: ModId) -> String {
        self.tree
            .modules
            .get(module)
            .map(|m| m.name())
            .unwrap_or_default()
    }

    /// `weather::Stations::starting_with`: a function by its module and name.
    pub(crate) fn fn_name(&self, function: FnId) -> String {
        match self.fns.get(function) {
            Some(f) => format!("{}::{}", self.module_name(f.module), f.name),
            None => String::new(),
        }
    }
}

/// True for rustc's built-in attributes and tool attributes, which rewrite nothing.
fn inert(path: &syn::Path) -> bool {
    let first = path
        .segments
        .first()
        .map(|s| s.ident.to_string())
        .unwrap_or_default();
    let single = path.segments.len() == 1 && path.leading_colon.is_none();
    (single && INERT.contains(&first.as_str()))
        || (path.segments.len() > 1 && TOOL_NAMESPACES.contains(&first.as_str()))
}

/// True for the items whose attributes may rewrite code (functions, impls, traits, modules,
/// constants); a type's attributes are taken as derive helpers.
fn holds_code(item: &Item) -> bool {
    matches!(
        item,
        Item::Fn(_)
            | Item::Impl(_)
            | Item::Trait(_)
            | Item::Mod(_)
            | Item::Const(_)
            | Item::Static(_)
    )
}

fn item_attrs(item: &Item) -> &[syn::Attribute] {
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::ForeignMod(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::TraitAlias(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// The type and const parameters of an item, with the trait bounds of its type parameters.
#[derive(Default)]
pub(crate) struct Generics {
    names: Vec<String>,
    bounds: Vec<(String, syn::Path)>,
}

impl Generics {
    fn of(generics: &syn::Generics) -> Generics {
        let mut out = Generics::default();
        for param in &generics.params {
            match param {
                syn::GenericParam::Type(t) => {
                    let name = names::ident(&t.ident);
                    out.bound(&name, &t.bounds);
                    out.names.push(name);
                }
                syn::GenericParam::Const(c) => out.names.push(names::ident(&c.ident)),
                syn::GenericParam::Lifetime(_) => {}
            }
        }
        for predicate in generics.where_clause.iter().flat_map(|w| &w.predicates) {
            let syn::WherePredicate::Type(predicate) = predicate else {
                continue;
            };
            if let syn::Type::Path(p) = &predicate.bounded_ty
                && p.qself.is_none()
                && let Some(ident) = p.path.get_ident()
            {
                out.bound(&names::ident(ident), &predicate.bounds);
            }
        }
        out
    }

    fn bound(
        &mut self,
        name: &str,
        bounds: &syn::punctuated::Punctuated<syn::TypeParamBound, syn::Token![+]>,
    ) {
        for bound in bounds {
            if let syn::TypeParamBound::Trait(t) = bound {
                self.bounds.push((name.to_owned(), t.path.clone()));
            }
        }
    }
}

/// A `use` tree as single imports and globs.
pub(crate) fn flatten(tree: &UseTree, prefix: Vec<String>, leading_colon: bool, scope: &mut Scope) {
    let mut prefix = prefix;
    if leading_colon && prefix.is_empty() {
        prefix.push("::".to_owned());
    }
    match tree {
        UseTree::Path(p) => {
            let mut next = prefix;
            next.push(names::ident(&p.ident));
            flatten(&p.tree, next, false, scope);
        }
        UseTree::Name(n) => {
            let name = names::ident(&n.ident);
            let mut path = prefix;
            if name == "self" {
                // `use a::{self}` imports `a`.
                if let Some(last) = path.last().cloned() {
                    scope.imports.push(Import { name: last, path });
                }
            } else {
                path.push(name.clone());
                scope.imports.push(Import { name, path });
            }
        }
        UseTree::Rename(r) => {
            let target = names::ident(&r.ident);
            let name = names::ident(&r.rename);
            let mut path = prefix;
            if target != "self" {
                path.push(target);
            }
            if name != "_" {
                scope.imports.push(Import { name, path });
            }
        }
        UseTree::Glob(_) => scope.globs.push(prefix),
        UseTree::Group(g) => {
            for tree in &g.items {
                flatten(tree, prefix.clone(), false, scope);
            }
        }
    }
}
