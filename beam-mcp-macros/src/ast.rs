//! The typed model of a `#[tool]` function, with every refusal spanned on its culprit.

use proc_macro2::TokenStream;
use syn::spanned::Spanned;
use syn::{
    Attribute, Expr, ExprLit, FnArg, GenericArgument, Ident, ItemFn, Lit, Meta, Pat, PathArguments,
    ReturnType, Type,
};

use crate::attr::ToolAttr;

/// A parsed, checked tool function.
pub(crate) struct ToolFn {
    pub(crate) attr: ToolAttr,
    pub(crate) item: ItemFn,
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) params: Vec<Param>,
    pub(crate) output: Output,
}

/// One parameter of the tool function.
pub(crate) enum Param {
    /// A plain argument: a property of the input schema.
    Plain {
        ident: Ident,
        ty: Type,
        doc: Option<String>,
    },
    /// `State<T>`: host state.
    State { inner: Type },
    /// `Args<T>`: the whole argument object.
    Args { inner: Type },
}

/// How the return value becomes a result.
pub(crate) enum Output {
    /// Text, content or a `CallToolResult` (through `IntoToolResult`), `Result`s of those included.
    Content,
    /// Structured: `T` (the value's type) becomes `structuredContent` and the `outputSchema`.
    Structured { ty: Box<Type>, fallible: bool },
}

impl ToolFn {
    pub(crate) fn parse(attr: ToolAttr, tokens: TokenStream) -> syn::Result<Self> {
        let mut item: ItemFn = syn::parse2(tokens)?;
        let sig = &item.sig;
        if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
            return Err(syn::Error::new(
                sig.generics.span(),
                "a #[tool] function cannot be generic: its schema is computed once, for concrete types",
            ));
        }
        if let Some(c) = &sig.constness {
            return Err(syn::Error::new(
                c.span,
                "a #[tool] function cannot be const",
            ));
        }
        if let Some(v) = &sig.variadic {
            return Err(syn::Error::new(
                v.span(),
                "a #[tool] function cannot be variadic",
            ));
        }
        let name = match &attr.name {
            Some(lit) => lit.value(),
            None => {
                let ident = sig.ident.to_string();
                ident.strip_prefix("r#").unwrap_or(&ident).to_owned()
            }
        };
        if attr.name.is_none() && !crate::names::valid_tool_name(&name) {
            return Err(syn::Error::new(
                sig.ident.span(),
                "this function's name is not a valid tool name (1 to 64 characters of A-Z a-z 0-9 _ . - /); set one with #[tool(name = \"...\")]",
            ));
        }
        let description = match &attr.description {
            Some(lit) => lit.value(),
            None => doc_text(&item.attrs),
        };
        if description.trim().is_empty() {
            return Err(syn::Error::new(
                sig.ident.span(),
                "a tool needs a description for the model: write a doc comment on the function, or #[tool(description = \"...\")]",
            ));
        }
        let mut params = Vec::new();
        for input in item.sig.inputs.iter_mut() {
            params.push(parse_param(input)?);
        }
        check_params(&params, &item)?;
        let output = parse_output(&item.sig.output);
        Ok(ToolFn {
            attr,
            item,
            name,
            description: description.trim().to_owned(),
            params,
            output,
        })
    }

    /// True when the function is `async`.
    pub(crate) fn is_async(&self) -> bool {
        self.item.sig.asyncness.is_some()
    }
}

fn check_params(params: &[Param], item: &ItemFn) -> syn::Result<()> {
    let args = params
        .iter()
        .filter(|p| matches!(p, Param::Args { .. }))
        .count();
    let plain = params
        .iter()
        .filter(|p| matches!(p, Param::Plain { .. }))
        .count();
    if args > 1 || (args == 1 && plain > 0) {
        return Err(syn::Error::new(
            item.sig.inputs.span(),
            "a tool takes either plain parameters or one Args<T>, not both",
        ));
    }
    Ok(())
}

fn parse_param(input: &mut FnArg) -> syn::Result<Param> {
    let typed = match input {
        FnArg::Receiver(r) => {
            return Err(syn::Error::new(
                r.span(),
                "a #[tool] is a free function; it cannot take self",
            ));
        }
        FnArg::Typed(typed) => typed,
    };
    if let Some(inner) = wrapper_inner(&typed.ty, "State") {
        return Ok(Param::State { inner });
    }
    if let Some(inner) = wrapper_inner(&typed.ty, "Args") {
        return Ok(Param::Args { inner });
    }
    let doc = {
        let text = doc_text(&typed.attrs);
        (!text.trim().is_empty()).then(|| text.trim().to_owned())
    };
    // Doc comments on parameters describe the property; the compiler would refuse them.
    typed.attrs.retain(|a| !a.path().is_ident("doc"));
    let ident = match &*typed.pat {
        Pat::Ident(p) if p.subpat.is_none() => p.ident.clone(),
        other => {
            return Err(syn::Error::new(
                other.span(),
                "a tool argument is a plain name (`place: String`); destructure only State<T> or Args<T>",
            ));
        }
    };
    Ok(Param::Plain {
        ident,
        ty: (*typed.ty).clone(),
        doc,
    })
}

/// `T` when `ty` is `Wrapper<T>` (by the path's last segment).
fn wrapper_inner(ty: &Type, wrapper: &str) -> Option<Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != wrapper {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(t) if args.args.len() == 1 => Some(t.clone()),
        _ => None,
    }
}

fn last_ident(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        Type::Reference(r) => last_ident(&r.elem),
        Type::Paren(p) => last_ident(&p.elem),
        Type::Group(g) => last_ident(&g.elem),
        _ => None,
    }
}

/// True for the types that become content through `IntoToolResult`.
fn is_content(ty: &Type) -> bool {
    match ty {
        Type::Tuple(t) if t.elems.is_empty() => true,
        Type::ImplTrait(_) => true,
        _ => match last_ident(ty).as_deref() {
            Some("String" | "str" | "Cow" | "Content" | "CallToolResult") => true,
            Some("Vec") => wrapper_inner(ty, "Vec")
                .is_some_and(|inner| last_ident(&inner).as_deref() == Some("Content")),
            _ => false,
        },
    }
}

fn parse_output(output: &ReturnType) -> Output {
    let ty = match output {
        ReturnType::Default => return Output::Content,
        ReturnType::Type(_, ty) => &**ty,
    };
    if let Some(ok) = result_ok_type(ty) {
        return if is_content(ok) {
            Output::Content
        } else {
            Output::Structured {
                ty: Box::new(ok.clone()),
                fallible: true,
            }
        };
    }
    if is_content(ty) {
        Output::Content
    } else {
        Output::Structured {
            ty: Box::new(ty.clone()),
            fallible: false,
        }
    }
}

/// `T` of `Result<T, ..>` (by the path's last segment).
fn result_ok_type(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != "Result" {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(ok) => Some(ok),
        _ => None,
    }
}

/// The text of the `///` comments (or `#[doc = "..."]`), one leading space per line removed.
pub(crate) fn doc_text(attrs: &[Attribute]) -> String {
    let mut lines = Vec::new();
    for attr in attrs {
        if let Meta::NameValue(nv) = &attr.meta
            && nv.path.is_ident("doc")
            && let Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) = &nv.value
        {
            let line = s.value();
            lines.push(line.strip_prefix(' ').map(str::to_owned).unwrap_or(line));
        }
    }
    lines.join("\n")
}
