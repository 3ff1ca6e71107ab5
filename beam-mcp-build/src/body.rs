//! What a function body (or an initializer) does, as sites in source order: calls by path,
//! method calls, calls of values, closures, paths used as values, macros, nested items, and
//! what `#[cfg]` cuts inside it. Resolution is the next step's job (`calls.rs`).

use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

use syn::visit::{self, Visit};
use syn::{Attribute, Expr, Pat, Stmt};

use crate::cfg::{Cfg, CfgError};
use crate::index::{Scope, flatten};
use crate::names;
use crate::spell::spell;
use crate::types::TyExpr;

/// One thing a body does.
pub(crate) enum Site {
    /// `path(...)`.
    /// `path(...)`, with the type of its first argument (for `Trait::f(&x)`).
    PathCall(syn::Path, Option<Rc<TyExpr>>),
    /// `<T as Trait>::f(...)`: the path with its `qself`, and its spelling.
    QualifiedCall(Box<syn::ExprPath>, String),
    /// `receiver.method(...)`: the receiver's type as far as the body tells it, the method,
    /// and the call spelled for the bound.
    MethodCall {
        receiver: Rc<TyExpr>,
        method: String,
        text: String,
    },
    /// `(value)(...)` for any callee that is not a path, spelled.
    IndirectCall(String),
    /// A closure, numbered from 0.
    Closure(usize),
    /// A path used as a value.
    PathValue(syn::Path),
    /// `<T as Trait>::f` used as a value, spelled.
    QualifiedValue(String),
    /// `name!`.
    Macro(String),
    /// `include!(...)`.
    Include(String),
    /// An item inside the body, by name under the caller.
    Nested(String),
    /// Something `#[cfg]` cuts: `statement #[cfg(...)]`.
    Cut(String),
}

/// A body's sites, and the names it declares, which shadow the module's. (A name a pattern
/// binds shadows them where it is in scope: the collector makes such a call an indirect one.)
pub(crate) struct Body {
    pub(crate) sites: Vec<Site>,
    /// `use` items inside the body.
    pub(crate) imports: Scope,
    /// Items declared inside the body.
    pub(crate) nested: BTreeSet<String>,
}

/// The sites of a function: its parameters' names and its body.
pub(crate) fn function(
    caller: &str,
    sig: &syn::Signature,
    block: &syn::Block,
    cfg: &Cfg,
) -> Result<Body, CfgError> {
    let mut collector = Collector::new(caller, cfg);
    for input in &sig.inputs {
        if let syn::FnArg::Typed(typed) = input {
            collector.bind_typed(&typed.pat, &typed.ty);
        }
    }
    collector.visit_block(block);
    collector.finish()
}

/// The sites of a `const` or `static` initializer.
pub(crate) fn initializer(caller: &str, expr: &Expr, cfg: &Cfg) -> Result<Body, CfgError> {
    let mut collector = Collector::new(caller, cfg);
    collector.visit_expr(expr);
    collector.finish()
}

/// Names bound by patterns (`let x`, `|x|`, `Some(x) =>`, parameters), nested items left out.
#[derive(Default)]
struct Locals {
    names: BTreeSet<String>,
}

impl<'ast> Visit<'ast> for Locals {
    fn visit_pat_ident(&mut self, pat: &'ast syn::PatIdent) {
        self.names.insert(names::ident(&pat.ident));
        visit::visit_pat_ident(self, pat);
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

struct Collector<'c> {
    caller: &'c str,
    cfg: &'c Cfg,
    sites: Vec<Site>,
    closures: usize,
    /// Closures passed straight to a call: folded into the function, not listed.
    folded: BTreeSet<*const syn::ExprClosure>,
    /// Macro arguments parsed as expressions, alive as long as the addresses recorded above.
    parsed: Vec<syn::punctuated::Punctuated<Expr, syn::Token![,]>>,
    /// What the first argument of a closure passed to an iterator's or an option's method
    /// holds.
    closure_params: HashMap<*const syn::ExprClosure, Rc<TyExpr>>,
    /// What each binding in scope is known to hold, innermost scope last.
    env: Vec<HashMap<String, Rc<TyExpr>>>,
    imports: Scope,
    nested: BTreeSet<String>,
    error: Option<CfgError>,
}

impl<'c> Collector<'c> {
    fn new(caller: &'c str, cfg: &'c Cfg) -> Collector<'c> {
        Collector {
            caller,
            cfg,
            sites: Vec::new(),
            closures: 0,
            folded: BTreeSet::new(),
            closure_params: HashMap::new(),
            parsed: Vec::new(),
            env: vec![HashMap::new()],
            imports: Scope::default(),
            nested: BTreeSet::new(),
            error: None,
        }
    }

    fn finish(self) -> Result<Body, CfgError> {
        if let Some(error) = self.error {
            return Err(error);
        }
        Ok(Body {
            sites: self.sites,
            imports: self.imports,
            nested: self.nested,
        })
    }

    /// Runs `f` in a scope of its own: the bindings it makes end with it.
    fn scoped(&mut self, f: impl FnOnce(&mut Self)) {
        self.env.push(HashMap::new());
        f(self);
        self.env.pop();
    }

    fn bind(&mut self, name: String, ty: Rc<TyExpr>) {
        if let Some(scope) = self.env.last_mut() {
            scope.insert(name, ty);
        }
    }

    /// Binds every name `pat` binds to what nothing tells: it shadows an outer binding.
    fn bind_unknown(&mut self, pat: &Pat) {
        let mut names = Locals::default();
        names.visit_pat(pat);
        for name in names.names {
            self.bind(name, Rc::new(TyExpr::Unknown));
        }
    }

    /// `name: T`, `State(name): State<T>` (a one-field wrapper taken apart), `mut name: T`.
    fn bind_typed(&mut self, pat: &Pat, ty: &syn::Type) {
        match pat {
            Pat::Ident(ident) if ident.subpat.is_none() => {
                let written = Rc::new(TyExpr::Written(Box::new(ty.clone())));
                self.bind(names::ident(&ident.ident), written);
            }
            Pat::TupleStruct(wrapper) if wrapper.elems.len() == 1 => match single_arg(ty) {
                Some(inner) => {
                    let inner = inner.clone();
                    if let Some(elem) = wrapper.elems.first() {
                        self.bind_typed(elem, &inner);
                    }
                }
                None => self.bind_unknown(pat),
            },
            other => self.bind_unknown(other),
        }
    }

    /// The type of a block: its last expression's (its `let`s are not in scope here, so a
    /// name it binds is not followed).
    fn block_type(&self, block: &syn::Block) -> Rc<TyExpr> {
        match block.stmts.last() {
            Some(Stmt::Expr(expr, None)) if block.stmts.len() == 1 => self.type_of(expr),
            _ => Rc::new(TyExpr::Unknown),
        }
    }

    /// True when `path` is one name a pattern binds in scope here (or `self`).
    fn bound(&self, path: &syn::Path) -> bool {
        path.get_ident().is_some_and(|ident| {
            let name = names::ident(ident);
            name == "self" || self.lookup(&name).is_some()
        })
    }

    /// Binds what `pat` takes apart of a value of type `ty`: a name takes it whole, `&x`
    /// sees through, `Some(x)` and `Ok(x)` take the payload; other patterns bind unknowns.
    fn bind_pattern(&mut self, pat: &Pat, ty: Rc<TyExpr>) {
        match pat {
            Pat::Ident(ident) if ident.subpat.is_none() => {
                self.bind(names::ident(&ident.ident), ty)
            }
            Pat::Reference(r) => self.bind_pattern(&r.pat, ty),
            Pat::Paren(p) => self.bind_pattern(&p.pat, ty),
            Pat::Type(typed) => self.bind_typed(&typed.pat, &typed.ty),
            Pat::Tuple(tuple) if !tuple.elems.iter().any(|p| matches!(p, Pat::Rest(_))) => {
                for (i, elem) in tuple.elems.iter().enumerate() {
                    let field = Rc::new(TyExpr::Field(Rc::clone(&ty), i.to_string()));
                    self.bind_pattern(elem, field);
                }
            }
            Pat::TupleStruct(variant)
                if variant.elems.len() == 1
                    && variant.qself.is_none()
                    && (variant.path.is_ident("Some") || variant.path.is_ident("Ok")) =>
            {
                if let Some(elem) = variant.elems.first() {
                    self.bind_pattern(elem, Rc::new(TyExpr::Element(ty)));
                }
            }
            other => self.bind_unknown(other),
        }
    }

    /// What `name` is bound to here, innermost scope first.
    fn lookup(&self, name: &str) -> Option<Rc<TyExpr>> {
        self.env.iter().rev().find_map(|s| s.get(name)).cloned()
    }

    /// The type of an expression as far as the body tells it, for a method call's receiver.
    fn type_of(&self, expr: &Expr) -> Rc<TyExpr> {
        let mut expr = expr;
        loop {
            expr = match expr {
                Expr::Paren(e) => &e.expr,
                Expr::Group(e) => &e.expr,
                Expr::Reference(e) => &e.expr,
                Expr::Await(e) => &e.base,
                Expr::Unary(e) if matches!(e.op, syn::UnOp::Deref(_)) => &e.expr,
                _ => break,
            };
        }
        let ty = match expr {
            Expr::Path(p) if p.qself.is_none() => match p.path.get_ident() {
                Some(ident) if ident == "self" => TyExpr::SelfValue,
                Some(ident) => {
                    return self
                        .lookup(&names::ident(ident))
                        .unwrap_or_else(|| Rc::new(TyExpr::Unknown));
                }
                None => TyExpr::Unknown,
            },
            Expr::Field(field) => {
                let member = match &field.member {
                    syn::Member::Named(ident) => names::ident(ident),
                    syn::Member::Unnamed(index) => index.index.to_string(),
                };
                TyExpr::Field(self.type_of(&field.base), member)
            }
            Expr::MethodCall(call) => {
                TyExpr::Method(self.type_of(&call.receiver), names::ident(&call.method))
            }
            Expr::Call(call) => match &*call.func {
                // `Arc::clone(&x)`, `Rc::clone(&x)`, `Clone::clone(&x)`: of `x`'s type.
                Expr::Path(p)
                    if p.qself.is_none()
                        && call.args.len() == 1
                        && p.path.segments.len() > 1
                        && p.path.segments.last().is_some_and(|s| s.ident == "clone") =>
                {
                    return self.type_of(&call.args[0]);
                }
                Expr::Path(p) if p.qself.is_none() && !self.bound(&p.path) => {
                    TyExpr::Call(p.path.clone())
                }
                _ => TyExpr::Unknown,
            },
            Expr::Struct(s) if s.qself.is_none() => TyExpr::Struct(s.path.clone()),
            Expr::Index(index) => TyExpr::Element(self.type_of(&index.expr)),
            Expr::Tuple(tuple) => {
                TyExpr::Tuple(tuple.elems.iter().map(|e| self.type_of(e)).collect())
            }
            // A `match`, `if` or block is of the type of any of its ends: the first typed one.
            Expr::Match(m) => TyExpr::OneOf(
                m.arms
                    .iter()
                    .take(MAX_ENDS)
                    .map(|a| self.type_of(&a.body))
                    .collect(),
            ),
            Expr::If(i) => {
                let mut ends = vec![self.block_type(&i.then_branch)];
                if let Some((_, other)) = &i.else_branch {
                    ends.push(self.type_of(other));
                }
                TyExpr::OneOf(ends)
            }
            Expr::Block(b) if b.label.is_none() => return self.block_type(&b.block),
            Expr::Try(e) => TyExpr::Try(self.type_of(&e.expr)),
            Expr::Cast(e) => TyExpr::Written(e.ty.clone()),
            _ => TyExpr::Unknown,
        };
        Rc::new(ty)
    }

    /// True when `#[cfg]` among `attrs` cuts what they are on (listed as `what`).
    fn cut(&mut self, attrs: &[Attribute], what: &str) -> bool {
        match self.cfg.cut_by(attrs) {
            Ok(None) => false,
            Ok(Some(pred)) => {
                self.sites.push(Site::Cut(format!("{what} #[{pred}]")));
                true
            }
            Err(error) => {
                self.error.get_or_insert(error);
                true
            }
        }
    }
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_stmt(&mut self, stmt: &'ast Stmt) {
        let attrs: &[Attribute] = match stmt {
            Stmt::Local(local) => &local.attrs,
            Stmt::Macro(mac) => &mac.attrs,
            Stmt::Expr(expr, _) => expr_attrs(expr),
            Stmt::Item(_) => &[],
        };
        if self.cut(attrs, "statement") {
            return;
        }
        if let Stmt::Item(item) = stmt {
            let mut item = item.clone();
            if let Some(attrs) = names::item_attrs(&mut item) {
                match self.cfg.keep(attrs) {
                    Ok(None) => {}
                    Ok(Some(pred)) => {
                        let name = names::item(self.caller, &item);
                        self.sites.push(Site::Cut(format!("item {name} #[{pred}]")));
                        return;
                    }
                    Err(error) => {
                        self.error.get_or_insert(error);
                        return;
                    }
                }
            }
            match &item {
                syn::Item::Use(u) => flatten(
                    &u.tree,
                    Vec::new(),
                    u.leading_colon.is_some(),
                    &mut self.imports,
                ),
                other => {
                    if let Some(name) = declared_name(other) {
                        self.nested.insert(name);
                    }
                    self.sites
                        .push(Site::Nested(names::item(self.caller, other)));
                }
            }
            return;
        }
        if let Stmt::Local(local) = stmt {
            // The initializer is read before the pattern binds: `let x = x.f();`.
            if let Some(init) = &local.init {
                self.visit_expr(&init.expr);
                if let Some((_, diverge)) = &init.diverge {
                    self.visit_expr(diverge);
                }
            }
            match (&local.pat, &local.init) {
                // `let v: Vec<_> = ..`: the initializer says what the `_` leaves out.
                (Pat::Type(typed), Some(init)) if infers(&typed.ty) => {
                    let written = Rc::new(TyExpr::Written(typed.ty.clone()));
                    let ty = Rc::new(TyExpr::OneOf(vec![self.type_of(&init.expr), written]));
                    self.bind_pattern(&typed.pat, ty);
                }
                (Pat::Type(typed), _) => self.bind_typed(&typed.pat, &typed.ty),
                (pat, Some(init)) => {
                    let ty = self.type_of(&init.expr);
                    self.bind_pattern(pat, ty);
                }
                (pat, _) => self.bind_unknown(pat),
            }
            return;
        }
        visit::visit_stmt(self, stmt);
    }

    fn visit_block(&mut self, block: &'ast syn::Block) {
        self.scoped(|c| visit::visit_block(c, block));
    }

    fn visit_local(&mut self, _: &'ast syn::Local) {
        // Taken in `visit_stmt`, where the order of initializer and pattern is kept.
    }

    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        if !self.cut(&arm.attrs, "match arm") {
            self.scoped(|c| {
                c.bind_unknown(&arm.pat);
                visit::visit_arm(c, arm);
            });
        }
    }

    fn visit_field_value(&mut self, field: &'ast syn::FieldValue) {
        if !self.cut(&field.attrs, "field") {
            visit::visit_field_value(self, field);
        }
    }

    fn visit_expr(&mut self, expr: &'ast Expr) {
        if self.cut(expr_attrs(expr), "expression") {
            return;
        }
        match expr {
            Expr::Call(call) => {
                match &*call.func {
                    // `f()` where `f` is a binding in scope (a closure, a function pointer).
                    Expr::Path(p) if p.qself.is_none() && self.bound(&p.path) => {
                        self.sites.push(Site::IndirectCall(spell(p)));
                    }
                    Expr::Path(p) if p.qself.is_none() => {
                        let first = call.args.first().map(|a| self.type_of(a));
                        self.sites.push(Site::PathCall(p.path.clone(), first));
                    }
                    Expr::Path(p) => self
                        .sites
                        .push(Site::QualifiedCall(Box::new(p.clone()), spell(p))),
                    other => {
                        self.sites.push(Site::IndirectCall(spell(other)));
                        self.visit_expr(other);
                    }
                }
                self.arguments(&call.args);
            }
            Expr::MethodCall(call) => {
                self.sites.push(Site::MethodCall {
                    receiver: self.type_of(&call.receiver),
                    method: names::ident(&call.method),
                    text: method_call(&call.receiver, &call.method),
                });
                self.visit_expr(&call.receiver);
                if ELEMENT_CLOSURES.contains(&call.method.to_string().as_str()) {
                    // `v.iter().map(|x| ..)`, `opt.map(|x| ..)`: the closure's first argument
                    // is an element (or the payload).
                    let element = Rc::new(TyExpr::Element(self.type_of(&call.receiver)));
                    for arg in &call.args {
                        if let Expr::Closure(closure) = arg {
                            self.closure_params
                                .insert(&raw const *closure, Rc::clone(&element));
                        }
                    }
                }
                self.arguments(&call.args);
            }
            Expr::Closure(closure) => {
                if !self.folded.contains(&(&raw const *closure)) {
                    self.sites.push(Site::Closure(self.closures));
                }
                self.closures += 1;
                let first = self.closure_params.remove(&(&raw const *closure));
                self.scoped(|c| {
                    for (i, input) in closure.inputs.iter().enumerate() {
                        match (input, &first) {
                            (Pat::Type(typed), _) => c.bind_typed(&typed.pat, &typed.ty),
                            (pat, Some(element)) if i == 0 => {
                                c.bind_pattern(pat, Rc::clone(element));
                            }
                            (other, _) => c.bind_unknown(other),
                        }
                    }
                    c.visit_expr(&closure.body);
                });
            }
            Expr::ForLoop(for_loop) => {
                self.visit_expr(&for_loop.expr);
                let element = Rc::new(TyExpr::Element(self.type_of(&for_loop.expr)));
                self.scoped(|c| {
                    c.bind_pattern(&for_loop.pat, element);
                    c.visit_block(&for_loop.body);
                });
            }
            Expr::If(_) | Expr::While(_) => {
                // `if let` and `while let` bind for their branch alone.
                self.scoped(|c| visit::visit_expr(c, expr));
            }
            Expr::Let(expr_let) => {
                self.visit_expr(&expr_let.expr);
                let ty = self.type_of(&expr_let.expr);
                self.bind_pattern(&expr_let.pat, ty);
            }
            Expr::Match(m) => {
                self.visit_expr(&m.expr);
                let ty = self.type_of(&m.expr);
                for arm in &m.arms {
                    if self.cut(&arm.attrs, "match arm") {
                        continue;
                    }
                    self.scoped(|c| {
                        c.bind_pattern(&arm.pat, Rc::clone(&ty));
                        if let Some((_, guard)) = &arm.guard {
                            c.visit_expr(guard);
                        }
                        c.visit_expr(&arm.body);
                    });
                }
            }
            Expr::Path(p) if p.qself.is_none() && self.bound(&p.path) => {}
            Expr::Path(p) if p.qself.is_none() => self.sites.push(Site::PathValue(p.path.clone())),
            Expr::Path(p) => self.sites.push(Site::QualifiedValue(spell(p))),
            other => visit::visit_expr(self, other),
        }
    }

    fn visit_pat(&mut self, pat: &'ast Pat) {
        // A path or range in a pattern names a constant or a variant, never a function.
        if !matches!(pat, Pat::Path(_) | Pat::Range(_)) {
            visit::visit_pat(self, pat);
        }
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let name = spell(&mac.path);
        if name == "include" {
            self.sites
                .push(Site::Include(format!("include!({})", spell(&mac.tokens))));
        } else {
            self.sites.push(Site::Macro(format!("{name}!")));
            self.macro_arguments(mac);
        }
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {
        // Items are taken in `visit_stmt`; none is reached another way.
    }
}

impl Collector<'_> {
    /// A macro's arguments, when they read as expressions separated by commas
    /// (`format!("{}", f(x))`, `assert_eq!(a.len(), 2)`, `tokio::join!(a(), b())`, a crate's
    /// own `try!`-like macro): their calls are the caller's, as most macros evaluate their
    /// arguments. Not for the macros that only quote them (`stringify!`, `concat!`, ...), and
    /// only for arguments shallow enough for the scan's stack (the file's check counts their
    /// delimiters, not their depth).
    fn macro_arguments(&mut self, mac: &syn::Macro) {
        let last = mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        if QUOTING_MACROS.contains(&last.as_str()) || mac.tokens.is_empty() {
            return;
        }
        if crate::nesting::check(mac.tokens.clone()).is_err() {
            return;
        }
        let parser = syn::punctuated::Punctuated::<Expr, syn::Token![,]>::parse_terminated;
        let Ok(args) = mac.parse_body_with(parser) else {
            return;
        };
        // Kept alive with the collector, so that the closures' addresses it records stay
        // theirs alone (the expressions sit in the list's own heap buffer, which moving the
        // list does not move).
        for arg in args.iter() {
            self.visit_expr(arg);
        }
        self.parsed.push(args);
    }

    /// A call's arguments; a closure among them is folded into the caller (its calls are the
    /// caller's, as they run within the call or are kept by the callee).
    fn arguments(&mut self, args: &syn::punctuated::Punctuated<Expr, syn::Token![,]>) {
        for arg in args {
            if let Expr::Closure(closure) = arg {
                self.folded.insert(&raw const *closure);
            }
            self.visit_expr(arg);
        }
    }
}

/// The most ends of a `match` a type is looked for among.
const MAX_ENDS: usize = 16;

/// Macros whose arguments are quoted, not evaluated.
const QUOTING_MACROS: &[&str] = &[
    "stringify",
    "concat",
    "concat_idents",
    "include_str",
    "include_bytes",
    "env",
    "option_env",
    "cfg",
    "compile_error",
    "line",
    "column",
    "file",
    "module_path",
    "quote",
    "parse_quote",
    "format_ident",
    "macro_rules",
];

/// Methods of iterators, `Option` and `Result` whose closure takes an element (or the payload)
/// first.
const ELEMENT_CLOSURES: &[&str] = &[
    "map",
    "for_each",
    "filter",
    "filter_map",
    "flat_map",
    "any",
    "all",
    "find",
    "find_map",
    "position",
    "inspect",
    "take_while",
    "skip_while",
    "map_while",
    "partition",
    "max_by_key",
    "min_by_key",
    "and_then",
    "is_some_and",
    "is_ok_and",
    "map_or",
    "map_or_else",
    "try_for_each",
];

/// True when a written type leaves a part to inference (`Vec<_>`).
fn infers(ty: &syn::Type) -> bool {
    struct Finds(bool);
    impl<'ast> Visit<'ast> for Finds {
        fn visit_type_infer(&mut self, _: &'ast syn::TypeInfer) {
            self.0 = true;
        }
    }
    let mut finds = Finds(false);
    finds.visit_type(ty);
    finds.0
}

/// The one type argument of `Wrapper<T>`.
fn single_arg(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let last = path.path.segments.last()?;
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let mut types = args.args.iter().filter_map(|a| match a {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    });
    match (types.next(), types.next()) {
        (Some(t), None) => Some(t),
        _ => None,
    }
}

/// The longest `receiver.method` text a method call is listed by, in characters.
const METHOD_CALL_TEXT: usize = 120;

/// `receiver.method`, the receiver by its head: its leading path or identifier (`self`,
/// `self.stations`, `beam_mcp::Server::builder()`), followed by `…` when more follows it (a
/// chain, an index, `?`). Bounded, so that a chain of n calls lists n short entries rather
/// than O(n²) text.
fn method_call(receiver: &Expr, method: &syn::Ident) -> String {
    let method = method.to_string();
    let mut text = receiver_head(receiver);
    let room = METHOD_CALL_TEXT
        .saturating_sub(method.chars().count() + 1)
        .max(1);
    if text.chars().count() > room {
        text = text.chars().take(room - 1).collect();
        text.push('…');
    }
    format!("{text}.{method}")
}

/// The head of a receiver, walked without recursion (a chain may be long).
fn receiver_head(receiver: &Expr) -> String {
    let mut expr = receiver;
    // Fields read on the way down (`self.stations`), innermost last.
    let mut fields: Vec<String> = Vec::new();
    let mut more = false;
    let head = loop {
        let inner: &Expr = match expr {
            Expr::Field(field) => {
                fields.push(spell(&field.member));
                &field.base
            }
            Expr::Group(group) => &group.expr,
            Expr::MethodCall(call) => &call.receiver,
            // `(1..=7).contains`: a range of literals or paths is short, spelled whole.
            Expr::Paren(paren) if short_range(&paren.expr) => {
                break format!("({})", spell(&paren.expr));
            }
            Expr::Paren(paren) => &paren.expr,
            Expr::Reference(reference) => &reference.expr,
            Expr::Unary(unary) => &unary.expr,
            Expr::Try(expr) => &expr.expr,
            Expr::Await(expr) => &expr.base,
            Expr::Index(index) => &index.expr,
            Expr::Cast(cast) => &cast.expr,
            Expr::Binary(binary) => &binary.left,
            Expr::Path(path) => break spell(path),
            Expr::Call(call) => match &*call.func {
                Expr::Path(path) if call.args.is_empty() => break format!("{}()", spell(path)),
                Expr::Path(path) => break format!("{}(…)", spell(path)),
                other => other,
            },
            Expr::Macro(mac) => break format!("{}!(…)", spell(&mac.mac.path)),
            Expr::Lit(lit) => break spell(lit),
            Expr::Array(_) => break "[…]".to_owned(),
            Expr::Tuple(_) => break "(…)".to_owned(),
            Expr::Block(_) | Expr::Unsafe(_) | Expr::Async(_) => break "{…}".to_owned(),
            Expr::Struct(s) => break format!("{} {{…}}", spell(&s.path)),
            Expr::Closure(_) => break "|…|".to_owned(),
            Expr::If(_) => break "if …".to_owned(),
            Expr::Match(_) => break "match …".to_owned(),
            _ => break "…".to_owned(),
        };
        if !matches!(expr, Expr::Field(_) | Expr::Group(_)) {
            // Whatever was read down to here is cut: `a.b().c` is `a…`.
            more = true;
            fields.clear();
        }
        expr = inner;
    };
    let mut text = head;
    for field in fields.iter().rev() {
        text.push('.');
        text.push_str(field);
    }
    if more && text != "…" {
        text.push('…');
    }
    text
}

/// True for `a..b`, `1..=7`, `..n`: a range whose ends are literals or paths.
fn short_range(expr: &Expr) -> bool {
    let Expr::Range(range) = expr else {
        return false;
    };
    [&range.start, &range.end]
        .into_iter()
        .flatten()
        .all(|end| matches!(&**end, Expr::Lit(_) | Expr::Path(_)))
}

/// The name an item declares in its block, if any.
fn declared_name(item: &syn::Item) -> Option<String> {
    use syn::Item;
    Some(names::ident(match item {
        Item::Fn(i) => &i.sig.ident,
        Item::Struct(i) => &i.ident,
        Item::Enum(i) => &i.ident,
        Item::Union(i) => &i.ident,
        Item::Trait(i) => &i.ident,
        Item::Type(i) => &i.ident,
        Item::Const(i) => &i.ident,
        Item::Static(i) => &i.ident,
        Item::Mod(i) => &i.ident,
        _ => return None,
    }))
}

/// The outer attributes of an expression.
fn expr_attrs(expr: &Expr) -> &[Attribute] {
    match expr {
        Expr::Array(e) => &e.attrs,
        Expr::Assign(e) => &e.attrs,
        Expr::Async(e) => &e.attrs,
        Expr::Await(e) => &e.attrs,
        Expr::Binary(e) => &e.attrs,
        Expr::Block(e) => &e.attrs,
        Expr::Break(e) => &e.attrs,
        Expr::Call(e) => &e.attrs,
        Expr::Cast(e) => &e.attrs,
        Expr::Closure(e) => &e.attrs,
        Expr::Const(e) => &e.attrs,
        Expr::Continue(e) => &e.attrs,
        Expr::Field(e) => &e.attrs,
        Expr::ForLoop(e) => &e.attrs,
        Expr::Group(e) => &e.attrs,
        Expr::If(e) => &e.attrs,
        Expr::Index(e) => &e.attrs,
        Expr::Infer(e) => &e.attrs,
        Expr::Let(e) => &e.attrs,
        Expr::Lit(e) => &e.attrs,
        Expr::Loop(e) => &e.attrs,
        Expr::Macro(e) => &e.attrs,
        Expr::Match(e) => &e.attrs,
        Expr::MethodCall(e) => &e.attrs,
        Expr::Paren(e) => &e.attrs,
        Expr::Path(e) => &e.attrs,
        Expr::Range(e) => &e.attrs,
        Expr::RawAddr(e) => &e.attrs,
        Expr::Reference(e) => &e.attrs,
        Expr::Repeat(e) => &e.attrs,
        Expr::Return(e) => &e.attrs,
        Expr::Struct(e) => &e.attrs,
        Expr::Try(e) => &e.attrs,
        Expr::TryBlock(e) => &e.attrs,
        Expr::Tuple(e) => &e.attrs,
        Expr::Unary(e) => &e.attrs,
        Expr::Unsafe(e) => &e.attrs,
        Expr::While(e) => &e.attrs,
        Expr::Yield(e) => &e.attrs,
        _ => &[],
    }
}
