//! The type of a method call's receiver, as far as syntax tells it: `self` in an impl, a
//! parameter's or a `let`'s declared type, `T::new(..)` and `T { .. }`, a struct field's
//! declared type, the return type of a function the scan resolved, `?` on an `Option` or a
//! `Result`. Anything else is unknown, and the call stays in the bound.
//!
//! The body's collector writes what it sees as a [`TyExpr`] (it knows the bindings, not the
//! crate's types); the [`Typer`] evaluates it against the crate's tables.

use std::rc::Rc;

use crate::index::{FnDef, FnId, Owner, Res, TypeId, TypeKind};
use crate::loader::ModId;
use crate::resolve::{Lookup, Resolver, segments};

/// What the body says an expression holds, unevaluated.
pub(crate) enum TyExpr {
    Unknown,
    /// A type as written (a parameter, `let x: T`, `as T`), in the function's module.
    Written(Box<syn::Type>),
    /// `self`.
    SelfValue,
    /// `base.field`.
    Field(Rc<TyExpr>, String),
    /// What `path(..)` returns.
    Call(syn::Path),
    /// `Path { .. }`.
    Struct(syn::Path),
    /// What `receiver.method(..)` returns.
    Method(Rc<TyExpr>, String),
    /// `expr?`.
    Try(Rc<TyExpr>),
    /// An element of a sequence: the binding of `for x in expr`.
    Element(Rc<TyExpr>),
    /// `(a, b)`.
    Tuple(Vec<Rc<TyExpr>>),
    /// The first of these that types: the ends of a `match` or an `if`.
    OneOf(Vec<Rc<TyExpr>>),
}

/// A type the scan can follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Ty {
    /// One of the crate's types (not a trait).
    Local(TypeId),
    /// Another crate's type, by its path (`std::fs::File`, `std::string::String`).
    External(Vec<String>),
    /// Some type implementing the crate's traits: a generic parameter, `dyn Trait`,
    /// `impl Trait`.
    Traits(Vec<TypeId>),
    Option(Box<Ty>),
    Result(Box<Ty>),
    /// A tuple's elements.
    Tuple(Vec<Ty>),
    /// `Vec<T>`, `[T]`, `[T; N]`, `VecDeque<T>`: what `for` and `iter()` walk.
    Seq(Box<Ty>),
    /// An iterator over `T` (a sequence's `iter()`, and the adaptors that keep the item).
    Iter(Box<Ty>),
    /// `Mutex<T>` or `RwLock<T>` (by its path): `lock()` and friends give the `T`.
    Lock(Box<Ty>, Vec<String>),
    Unknown,
}

/// Wrappers a method call sees through (auto-deref), by their last segment.
const TRANSPARENT: &[&str] = &["Box", "Arc", "Rc", "State", "Extension", "Data"];
/// How deep an evaluation follows `let` chains and returns before calling the type unknown:
/// a body's bindings may chain without limit.
const MAX_EVAL: usize = 64;
/// Prelude types, and the paths other crates' calls are named by.
const PRELUDE_TYPES: &[(&str, &[&str])] = &[
    ("String", &["std", "string", "String"]),
    ("Vec", &["std", "vec", "Vec"]),
    ("Box", &["std", "boxed", "Box"]),
    ("Option", &["std", "option", "Option"]),
    ("Result", &["std", "result", "Result"]),
    ("Default", &["std", "default", "Default"]),
    ("ToString", &["std", "string", "ToString"]),
    ("ToOwned", &["std", "borrow", "ToOwned"]),
    ("Iterator", &["std", "iter", "Iterator"]),
    ("IntoIterator", &["std", "iter", "IntoIterator"]),
    ("From", &["std", "convert", "From"]),
    ("Into", &["std", "convert", "Into"]),
    ("TryFrom", &["std", "convert", "TryFrom"]),
    ("TryInto", &["std", "convert", "TryInto"]),
    ("drop", &["std", "mem", "drop"]),
];
/// Primitive types, named under `std::primitive`.
const PRIMITIVES: &[&str] = &[
    "bool", "char", "str", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64",
    "u128", "usize", "f32", "f64",
];
/// Names of the standard library's associated functions that make a value of their type
/// (other crates' `new` may answer a `Result`: their types stay unknown).
const CONSTRUCTORS: &[&str] = &["new", "default", "with_capacity", "from"];
/// Sequences by their last segment.
const SEQUENCES: &[&str] = &["Vec", "VecDeque"];

/// A path into another crate as it is named in the graph: prelude names spelled in full,
/// `core::` and `alloc::` as `std::`.
pub(crate) fn external_path(path: &[String]) -> Vec<String> {
    let mut out: Vec<String> = path.iter().filter(|s| *s != "::").cloned().collect();
    if let Some(first) = out.first()
        && let Some((_, full)) = PRELUDE_TYPES.iter().find(|(name, _)| name == first)
    {
        let mut spelled: Vec<String> = full.iter().map(|s| (*s).to_owned()).collect();
        spelled.extend(out.drain(1..));
        out = spelled;
    }
    if let Some(first) = out.first_mut()
        && (first == "core" || first == "alloc")
    {
        *first = "std".to_owned();
    }
    if out
        .first()
        .is_some_and(|f| PRIMITIVES.contains(&f.as_str()))
    {
        out.splice(0..0, ["std".to_owned(), "primitive".to_owned()]);
    }
    out
}

/// Evaluates type expressions for one function.
pub(crate) struct Typer<'r, 'a> {
    pub(crate) resolver: &'r Resolver<'a>,
    /// What each expression of the body evaluated to, by address: bindings share their
    /// expressions (`let b = if c { a } else { a };`), and without it a chain of n such lets
    /// is evaluated along 2^n paths.
    pub(crate) memo: &'r Memo,
}

/// Evaluations of one body's type expressions, by the expression's address (each held alive
/// by the body's sites while the body is classified).
pub(crate) type Memo = std::cell::RefCell<std::collections::HashMap<*const TyExpr, Ty>>;

/// Where a type is written: its module, the impl's self type, the generic parameters' bounds.
#[derive(Clone, Copy)]
pub(crate) struct Place<'a> {
    pub(crate) module: ModId,
    pub(crate) owner: Option<&'a Owner>,
    pub(crate) generics: &'a [String],
    pub(crate) bounds: &'a [(String, syn::Path)],
}

impl<'a> Place<'a> {
    pub(crate) fn of(def: &'a FnDef) -> Place<'a> {
        Place {
            module: def.module,
            owner: Some(&def.owner),
            generics: &def.generics,
            bounds: &def.bounds,
        }
    }
}

impl<'r, 'a> Typer<'r, 'a> {
    /// The type `expr` evaluates to in a function at `place`, with `call` resolving a path
    /// call to its function (the caller's own resolution: locals, body imports).
    pub(crate) fn eval(
        &self,
        expr: &TyExpr,
        place: Place<'_>,
        call: &dyn Fn(&syn::Path) -> Lookup,
    ) -> Ty {
        self.eval_at(expr, place, call, 0)
    }

    fn eval_at(
        &self,
        expr: &TyExpr,
        place: Place<'_>,
        call: &dyn Fn(&syn::Path) -> Lookup,
        depth: usize,
    ) -> Ty {
        if depth > MAX_EVAL {
            return Ty::Unknown;
        }
        let key: *const TyExpr = expr;
        if let Some(known) = self.memo.borrow().get(&key) {
            return known.clone();
        }
        let ty = self.eval_once(expr, place, call, depth);
        self.memo.borrow_mut().insert(key, ty.clone());
        ty
    }

    fn eval_once(
        &self,
        expr: &TyExpr,
        place: Place<'_>,
        call: &dyn Fn(&syn::Path) -> Lookup,
        depth: usize,
    ) -> Ty {
        match expr {
            TyExpr::Unknown => Ty::Unknown,
            TyExpr::Written(ty) => self.written(ty, place),
            TyExpr::SelfValue => self.self_ty(place),
            TyExpr::Field(base, name) => match self.eval_at(base, place, call, depth + 1) {
                Ty::Local(t) => self.field(t, name),
                Ty::Tuple(elems) => name
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| elems.into_iter().nth(i))
                    .unwrap_or(Ty::Unknown),
                _ => Ty::Unknown,
            },
            TyExpr::Tuple(elems) => Ty::Tuple(
                elems
                    .iter()
                    .map(|e| self.eval_at(e, place, call, depth + 1))
                    .collect(),
            ),
            TyExpr::OneOf(ends) => ends
                .iter()
                .map(|e| self.eval_at(e, place, call, depth + 1))
                .find(|t| *t != Ty::Unknown)
                .unwrap_or(Ty::Unknown),
            TyExpr::Struct(path) => {
                if path.is_ident("Self") {
                    return self.self_ty(place);
                }
                self.named(&segments(path), place)
            }
            TyExpr::Call(path) => match call(path) {
                Lookup::Found(Res::Fn(f)) => self.returns(f),
                Lookup::Found(Res::Assoc(t, name)) => match self.resolver.assoc(t, &name) {
                    Some(f) => self.returns(f),
                    None => Ty::Unknown,
                },
                Lookup::Found(Res::External(full)) => {
                    let full = external_path(&full);
                    match full.split_last() {
                        Some((last, ty))
                            if CONSTRUCTORS.contains(&last.as_str())
                                && ty.first().is_some_and(|c| c == "std") =>
                        {
                            Ty::External(ty.to_vec())
                        }
                        _ => Ty::Unknown,
                    }
                }
                Lookup::Found(Res::Ctor) => {
                    // `Wrapper(x)`: a tuple struct names its type in the type namespace.
                    self.named(&segments(path), place)
                }
                _ => Ty::Unknown,
            },
            TyExpr::Method(receiver, method) => {
                let receiver = self.eval_at(receiver, place, call, depth + 1);
                self.method_returns(&receiver, method)
            }
            TyExpr::Try(inner) => match self.eval_at(inner, place, call, depth + 1) {
                Ty::Option(t) | Ty::Result(t) => *t,
                _ => Ty::Unknown,
            },
            TyExpr::Element(seq) => match self.eval_at(seq, place, call, depth + 1) {
                Ty::Seq(t) | Ty::Iter(t) | Ty::Option(t) | Ty::Result(t) => *t,
                _ => Ty::Unknown,
            },
        }
    }

    /// What a method call on `receiver` returns, when the method is one function of the crate
    /// or one of the few whose answer is known (`clone`, `unwrap`).
    fn method_returns(&self, receiver: &Ty, method: &str) -> Ty {
        match (receiver, method) {
            (Ty::Option(t) | Ty::Result(t), "unwrap" | "expect" | "unwrap_or_default") => {
                (**t).clone()
            }
            (Ty::Local(_) | Ty::External(_) | Ty::Seq(_), "clone" | "to_owned") => receiver.clone(),
            (Ty::Seq(t), "iter" | "iter_mut" | "into_iter" | "drain") => Ty::Iter(t.clone()),
            (Ty::Seq(_), "as_slice" | "as_mut_slice") => receiver.clone(),
            (
                Ty::Iter(_),
                "filter" | "skip" | "take" | "rev" | "skip_while" | "take_while" | "peekable"
                | "cloned" | "copied" | "by_ref" | "step_by" | "chain" | "fuse" | "inspect",
            ) => receiver.clone(),
            (Ty::Lock(t, path), "lock" | "read" | "write") => {
                // std's answer a `LockResult` of a guard; tokio's and parking_lot's the guard.
                if path.first().is_some_and(|c| c == "std") {
                    Ty::Result(t.clone())
                } else {
                    (**t).clone()
                }
            }
            (
                Ty::Seq(t),
                "first" | "last" | "get" | "pop" | "get_mut" | "first_mut" | "last_mut",
            ) => Ty::Option(t.clone()),
            // Into a `Vec` most often; a map collected from pairs walks as pairs too.
            (Ty::Iter(t), "collect") => Ty::Seq(t.clone()),
            (Ty::Iter(t), "next" | "last" | "nth" | "find" | "max" | "min" | "peek") => {
                Ty::Option(t.clone())
            }
            (
                Ty::Option(_),
                "as_ref" | "as_mut" | "as_deref" | "as_deref_mut" | "cloned" | "copied" | "take"
                | "or" | "or_else" | "filter",
            ) => receiver.clone(),
            (Ty::Option(t), "ok_or" | "ok_or_else") => Ty::Result(t.clone()),
            (Ty::Result(t), "ok") => Ty::Option(t.clone()),
            (Ty::Result(_), "as_ref" | "as_mut" | "map_err" | "or_else") => receiver.clone(),
            (Ty::Local(t), _) => match self.resolver.method(*t, method) {
                Some(f) => self.returns(f),
                None => Ty::Unknown,
            },
            _ => Ty::Unknown,
        }
    }

    /// What function `f` returns, in its own module and impl.
    pub(crate) fn returns(&self, f: FnId) -> Ty {
        let Some(def) = self.resolver.index.fns.get(f) else {
            return Ty::Unknown;
        };
        match &def.sig.output {
            syn::ReturnType::Type(_, ty) => self.written(ty, Place::of(def)),
            syn::ReturnType::Default => Ty::Unknown,
        }
    }

    /// A field's declared type, in its struct's module (`Self` there is the struct).
    fn field(&self, t: TypeId, name: &str) -> Ty {
        let Some(def) = self.resolver.index.types.get(t) else {
            return Ty::Unknown;
        };
        let Some((_, ty)) = def.fields.iter().find(|(n, _)| n == name) else {
            return Ty::Unknown;
        };
        let place = Place {
            module: def.module,
            owner: None,
            generics: &[],
            bounds: &[],
        };
        match self.written(ty, place) {
            // A field typed by the struct's own generic parameter: not known here.
            Ty::Unknown => Ty::Unknown,
            other => other,
        }
    }

    /// The type of `self` (or `Self`) at `place`.
    fn self_ty(&self, place: Place<'_>) -> Ty {
        match place.owner {
            Some(Owner::Impl { self_ty, .. }) => {
                let at = Place {
                    owner: None,
                    ..place
                };
                self.written(self_ty, at)
            }
            Some(Owner::Trait(t)) => Ty::Traits(vec![*t]),
            _ => Ty::Unknown,
        }
    }

    /// A written type, seen through references and the wrappers a method call derefs.
    pub(crate) fn written(&self, ty: &syn::Type, place: Place<'_>) -> Ty {
        match ty {
            syn::Type::Reference(r) => self.written(&r.elem, place),
            syn::Type::Paren(p) => self.written(&p.elem, place),
            syn::Type::Group(g) => self.written(&g.elem, place),
            syn::Type::Slice(s) => Ty::Seq(Box::new(self.written(&s.elem, place))),
            syn::Type::Tuple(t) => {
                Ty::Tuple(t.elems.iter().map(|e| self.written(e, place)).collect())
            }
            syn::Type::Array(a) => Ty::Seq(Box::new(self.written(&a.elem, place))),
            syn::Type::TraitObject(o) => self.traits(o.bounds.iter(), place),
            syn::Type::ImplTrait(i) => self.traits(i.bounds.iter(), place),
            syn::Type::Path(p) if p.qself.is_none() => {
                let path = &p.path;
                if path.is_ident("Self") {
                    return self.self_ty(place);
                }
                // `Self::Target`: the impl's associated type.
                if let [first, second] = segments(path).as_slice()
                    && first == "Self"
                {
                    return match place.owner {
                        Some(Owner::Impl { assoc, .. }) => assoc
                            .iter()
                            .find(|(name, _)| name == second)
                            // Read without the impl, so that `type A = Self::A;` ends.
                            .map_or(Ty::Unknown, |(_, ty)| {
                                self.written(
                                    ty,
                                    Place {
                                        owner: None,
                                        ..place
                                    },
                                )
                            }),
                        _ => Ty::Unknown,
                    };
                }
                if let Some(ident) = path.get_ident() {
                    let name = crate::names::ident(ident);
                    if place.generics.contains(&name) {
                        let bounds = place
                            .bounds
                            .iter()
                            .filter(|(n, _)| *n == name)
                            .filter_map(|(_, b)| self.resolver.trait_id(place.module, b))
                            .collect::<Vec<_>>();
                        return if bounds.is_empty() {
                            Ty::Unknown
                        } else {
                            Ty::Traits(bounds)
                        };
                    }
                }
                let last = path
                    .segments
                    .last()
                    .map(|s| crate::names::ident(&s.ident))
                    .unwrap_or_default();
                let arg = first_type_arg(path);
                match (last.as_str(), arg) {
                    (w, Some(inner)) if TRANSPARENT.contains(&w) && !self.local(path, place) => {
                        self.written(inner, place)
                    }
                    ("Option", Some(inner)) if !self.local(path, place) => {
                        Ty::Option(Box::new(self.written(inner, place)))
                    }
                    ("Result", Some(inner)) if !self.local(path, place) => {
                        Ty::Result(Box::new(self.written(inner, place)))
                    }
                    (w, Some(inner)) if SEQUENCES.contains(&w) && !self.local(path, place) => {
                        Ty::Seq(Box::new(self.written(inner, place)))
                    }
                    ("Mutex" | "RwLock", Some(inner)) => match self.named(&segments(path), place) {
                        Ty::External(lock) => Ty::Lock(Box::new(self.written(inner, place)), lock),
                        other => other,
                    },
                    _ => self.named(&segments(path), place),
                }
            }
            _ => Ty::Unknown,
        }
    }

    /// True when `path` names one of the crate's own types (which shadows a wrapper's name).
    fn local(&self, path: &syn::Path, place: Place<'_>) -> bool {
        matches!(
            self.resolver.type_of(place.module, &segments(path)),
            Lookup::Found(Res::Type(_))
        )
    }

    /// A type by path: the crate's type (a trait as `Traits`), or another crate's.
    fn named(&self, path: &[String], place: Place<'_>) -> Ty {
        match self.resolver.type_of(place.module, path) {
            Lookup::Found(Res::Type(t)) => {
                match self.resolver.index.types.get(t).map(|d| &d.kind) {
                    Some(TypeKind::Trait) => Ty::Traits(vec![t]),
                    Some(_) => Ty::Local(t),
                    None => Ty::Unknown,
                }
            }
            Lookup::Found(Res::External(full)) => Ty::External(external_path(&full)),
            _ => Ty::Unknown,
        }
    }

    /// The crate's traits among `bounds`.
    fn traits<'b>(
        &self,
        bounds: impl Iterator<Item = &'b syn::TypeParamBound>,
        place: Place<'_>,
    ) -> Ty {
        let traits: Vec<TypeId> = bounds
            .filter_map(|b| match b {
                syn::TypeParamBound::Trait(t) => self.resolver.trait_id(place.module, &t.path),
                _ => None,
            })
            .collect();
        if traits.is_empty() {
            Ty::Unknown
        } else {
            Ty::Traits(traits)
        }
    }
}

/// The first type argument of a path's last segment: `T` of `Arc<T>`, `Result<T, E>`.
fn first_type_arg(path: &syn::Path) -> Option<&syn::Type> {
    let last = path.segments.last()?;
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    args.args.iter().find_map(|a| match a {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    })
}
