//! Parses `#[tool(...)]`: every option by name, each refused with a span when unknown.

use proc_macro2::TokenStream;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Expr, ExprLit, Lit, LitStr, Meta, Token};

use crate::names::valid_tool_name;

/// The options of `#[tool(...)]`.
#[derive(Default)]
pub(crate) struct ToolAttr {
    pub(crate) name: Option<LitStr>,
    pub(crate) title: Option<LitStr>,
    pub(crate) description: Option<LitStr>,
    pub(crate) read_only: Option<bool>,
    pub(crate) destructive: Option<bool>,
    pub(crate) idempotent: Option<bool>,
    pub(crate) open_world: Option<bool>,
}

const OPTIONS: &str = "name = \"...\", title = \"...\", description = \"...\", read_only, destructive, idempotent, open_world";

impl ToolAttr {
    pub(crate) fn parse(tokens: TokenStream) -> syn::Result<Self> {
        let metas = Punctuated::<Meta, Token![,]>::parse_terminated.parse2(tokens)?;
        let mut attr = ToolAttr::default();
        for meta in metas {
            let key = meta
                .path()
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            match key.as_str() {
                "name" => {
                    let lit = string_value(&meta)?;
                    if !valid_tool_name(&lit.value()) {
                        return Err(syn::Error::new(
                            lit.span(),
                            "a tool name is 1 to 64 characters of A-Z a-z 0-9 _ . - /; rename the tool",
                        ));
                    }
                    set(&mut attr.name, lit, &meta)?;
                }
                "title" => set(&mut attr.title, string_value(&meta)?, &meta)?,
                "description" => set(&mut attr.description, string_value(&meta)?, &meta)?,
                "read_only" => set(&mut attr.read_only, flag(&meta)?, &meta)?,
                "destructive" => set(&mut attr.destructive, flag(&meta)?, &meta)?,
                "idempotent" => set(&mut attr.idempotent, flag(&meta)?, &meta)?,
                "open_world" => set(&mut attr.open_world, flag(&meta)?, &meta)?,
                _ => {
                    return Err(syn::Error::new_spanned(
                        meta.path(),
                        format!("unknown #[tool] option; the options are: {OPTIONS}"),
                    ));
                }
            }
        }
        Ok(attr)
    }
}

fn set<T>(slot: &mut Option<T>, value: T, meta: &Meta) -> syn::Result<()> {
    if slot.is_some() {
        return Err(syn::Error::new_spanned(
            meta,
            "this #[tool] option is given twice; keep one",
        ));
    }
    *slot = Some(value);
    Ok(())
}

fn string_value(meta: &Meta) -> syn::Result<LitStr> {
    match meta {
        Meta::NameValue(nv) => match &nv.value {
            Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) => Ok(s.clone()),
            other => Err(syn::Error::new_spanned(other, "expected a string literal")),
        },
        _ => Err(syn::Error::new_spanned(meta, "expected `key = \"...\"`")),
    }
}

/// A bare flag (`read_only`) or `read_only = true|false`.
fn flag(meta: &Meta) -> syn::Result<bool> {
    match meta {
        Meta::Path(_) => Ok(true),
        Meta::NameValue(nv) => match &nv.value {
            Expr::Lit(ExprLit {
                lit: Lit::Bool(b), ..
            }) => Ok(b.value),
            other => Err(syn::Error::new_spanned(other, "expected true or false")),
        },
        Meta::List(list) => Err(syn::Error::new(
            list.delimiter.span().join(),
            "a hint is written bare (`read_only`) or as `read_only = false`",
        )),
    }
}
