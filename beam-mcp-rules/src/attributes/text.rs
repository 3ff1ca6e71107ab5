//! An item's name and description, from its attribute or its function.

use proc_macro2::Span;
use syn::{Attribute, Expr, ExprLit, Lit, LitStr, Meta, Signature};

/// The function's name without `r#`.
///
/// ```
/// let sig: syn::Signature = syn::parse_str("fn r#match()").unwrap();
/// assert_eq!(beam_mcp_rules::attributes::fn_name(&sig), "match");
/// ```
pub fn fn_name(sig: &Signature) -> String {
    let ident = sig.ident.to_string();
    ident.strip_prefix("r#").unwrap_or(&ident).to_owned()
}

/// An item's name and where it was written: the attribute's `name = "..."`, else the
/// function's name.
///
/// ```
/// use beam_mcp_rules::attributes::item_name;
///
/// let sig: syn::Signature = syn::parse_str("fn plan_trip()").unwrap();
/// assert_eq!(item_name(None, &sig).0, "plan_trip");
/// let named: syn::LitStr = syn::parse_str(r#""plan""#).unwrap();
/// assert_eq!(item_name(Some(&named), &sig).0, "plan");
/// ```
pub fn item_name(name: Option<&LitStr>, sig: &Signature) -> (String, Span) {
    match name {
        Some(lit) => (lit.value(), lit.span()),
        None => (fn_name(sig), sig.ident.span()),
    }
}

/// The description: the attribute's, else the doc comment, trimmed.
///
/// ```
/// use beam_mcp_rules::attributes::description;
///
/// let function: syn::ItemFn = syn::parse_str("/// Says hello.\nfn hello() {}").unwrap();
/// assert_eq!(description(None, &function.attrs), "Says hello.");
/// ```
pub fn description(attr: Option<&LitStr>, attrs: &[Attribute]) -> String {
    match attr {
        Some(lit) => lit.value().trim().to_owned(),
        None => doc_text(attrs).trim().to_owned(),
    }
}

/// The text of the `///` comments (or `#[doc = "..."]`), one leading space per line removed.
///
/// ```
/// use beam_mcp_rules::attributes::doc_text;
///
/// let function: syn::ItemFn = syn::parse_str("/// One.\n///  Two.\nfn f() {}").unwrap();
/// assert_eq!(doc_text(&function.attrs), "One.\n Two.");
/// ```
pub fn doc_text(attrs: &[Attribute]) -> String {
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
