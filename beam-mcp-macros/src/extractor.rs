//! The one rule for telling an extractor from an argument, shared by tools, readers and
//! prompts: a parameter is an extractor when it is marked `#[extract]`, or its type is spelled
//! `State<..>` or `Context`; everything else is the item's own (an argument, a template
//! variable). Every extractor is bound through `beam_mcp::Extract`, named at its type.

use proc_macro2::TokenStream;
use quote::quote_spanned;
use syn::spanned::Spanned;
use syn::{Ident, PatType, Type};

use crate::borrowed;
use crate::errors::Errors;
use crate::spelling::{is_context, wrapper_inner};

/// A parameter taken from the request.
pub(crate) struct Extractor {
    /// The parameter's type, which implements `Extract`.
    ty: Type,
    /// `T` of `State<T>`: the server must be given it (checked at `build()`).
    pub(crate) state: Option<Type>,
    /// True when it may send notifications: `Context`, or a host extractor (which reads the
    /// context it likes).
    pub(crate) reads_context: bool,
}

impl Extractor {
    /// The parameter as an extractor, its `#[extract]` mark removed; `None` for anything else.
    pub(crate) fn classify(typed: &mut PatType, errors: &mut Errors) -> Option<Self> {
        let marks: Vec<_> = typed
            .attrs
            .iter()
            .filter(|a| a.path().is_ident("extract"))
            .cloned()
            .collect();
        typed.attrs.retain(|a| !a.path().is_ident("extract"));
        for mark in &marks {
            if !matches!(mark.meta, syn::Meta::Path(_)) {
                errors.spanned(mark, "write #[extract] alone: it takes no options");
            }
        }
        if marks.len() > 1 {
            errors.spanned(&marks[1], "one #[extract] per parameter");
        }
        let header = typed.attrs.iter().find(|a| a.path().is_ident("header"));
        if let (Some(header), false) = (header, marks.is_empty()) {
            errors.spanned(
                header,
                "an #[extract] parameter is not an argument, so it carries no #[header]",
            );
        }
        if let Some(refusal) = borrowed::extractor_by_reference(&typed.ty) {
            errors.spanned(&typed.ty, refusal);
            let Type::Reference(reference) = &*typed.ty else {
                unreachable!("only a reference is refused")
            };
            // Taken as the extractor it names, so the refusal is the parameter's only fault.
            *typed.ty = (*reference.elem).clone();
        }
        let ty = (*typed.ty).clone();
        let state = wrapper_inner(&ty, "State");
        let context = is_context(&ty);
        if marks.is_empty() && state.is_none() && !context {
            return None;
        }
        Some(Extractor {
            reads_context: context || (!marks.is_empty() && state.is_none()),
            ty,
            state,
        })
    }

    /// `let #local: T = <T as Extract>::extract(&#parts)?;`, spanned on the type, so a type
    /// that is not an extractor is one error there.
    pub(crate) fn binding(&self, local: &Ident, parts: TokenStream) -> TokenStream {
        let ty = &self.ty;
        quote_spanned! {ty.span()=>
            let #local: #ty = <#ty as ::beam_mcp::Extract>::extract(&#parts)?;
        }
    }
}
