//! What a function body (or an initializer) does, as sites in source order: calls by path,
//! method calls, calls of values, closures, paths used as values, macros, nested items, and
//! what `#[cfg]` cuts inside it. Resolution is the next step's job (`calls.rs`).

use std::collections::BTreeSet;

use syn::visit::{self, Visit};
use syn::{Attribute, Expr, Pat, Stmt};

use crate::cfg::{Cfg, CfgError};
use crate::index::{Scope, flatten};
use crate::names;
use crate::spell::spell;

/// One thing a body does.
pub(crate) enum Site {
    /// `path(...)`.
    PathCall(syn::Path),
    /// `<T as Trait>::f(...)`, spelled.
    QualifiedCall(String),
    /// `receiver.method(...)`, spelled.
    MethodCall(String),
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

/// A body's sites, and the names it binds or declares, which shadow the module's.
pub(crate) struct Body {
    pub(crate) sites: Vec<Site>,
    /// Every name a pattern binds anywhere in the body or the parameters.
    pub(crate) locals: BTreeSet<String>,
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
    let mut locals = Locals::default();
    for input in &sig.inputs {
        locals.visit_fn_arg(input);
    }
    locals.visit_block(block);
    let mut collector = Collector::new(caller, cfg);
    collector.visit_block(block);
    collector.finish(locals.names)
}

/// The sites of a `const` or `static` initializer.
pub(crate) fn initializer(caller: &str, expr: &Expr, cfg: &Cfg) -> Result<Body, CfgError> {
    let mut locals = Locals::default();
    locals.visit_expr(expr);
    let mut collector = Collector::new(caller, cfg);
    collector.visit_expr(expr);
    collector.finish(locals.names)
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
            imports: Scope::default(),
            nested: BTreeSet::new(),
            error: None,
        }
    }

    fn finish(self, locals: BTreeSet<String>) -> Result<Body, CfgError> {
        if let Some(error) = self.error {
            return Err(error);
        }
        Ok(Body {
            sites: self.sites,
            locals,
            imports: self.imports,
            nested: self.nested,
        })
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
        visit::visit_stmt(self, stmt);
    }

    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        if !self.cut(&arm.attrs, "match arm") {
            visit::visit_arm(self, arm);
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
                    Expr::Path(p) if p.qself.is_none() => {
                        self.sites.push(Site::PathCall(p.path.clone()));
                    }
                    Expr::Path(p) => self.sites.push(Site::QualifiedCall(spell(p))),
                    other => {
                        self.sites.push(Site::IndirectCall(spell(other)));
                        self.visit_expr(other);
                    }
                }
                for arg in &call.args {
                    self.visit_expr(arg);
                }
            }
            Expr::MethodCall(call) => {
                self.sites
                    .push(Site::MethodCall(method_call(&call.receiver, &call.method)));
                self.visit_expr(&call.receiver);
                for arg in &call.args {
                    self.visit_expr(arg);
                }
            }
            Expr::Closure(closure) => {
                self.sites.push(Site::Closure(self.closures));
                self.closures += 1;
                visit::visit_expr_closure(self, closure);
            }
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
        }
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {
        // Items are taken in `visit_stmt`; none is reached another way.
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
