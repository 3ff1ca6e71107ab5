//! `#[beam_mcp::items] impl T { .. }`: the tools, resources and prompts of an impl block, each
//! a method taking `&self` (the host state `T`), through the same models and shell as free
//! functions.

use beam_mcp_rules::attributes::{PromptAttr, ResourceAttr, ToolAttr};
use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;
use syn::{Attribute, ImplItem, ItemFn, ItemImpl, Type};

use crate::errors::Errors;
use crate::skeleton::{Expansion, Host};

/// Which attribute marks a method.
enum Mark {
    Tool,
    Resource,
    Prompt,
}

/// `tool`, `beam_mcp::tool`, ...: the mark an attribute is, by its last segment.
fn mark(attr: &Attribute) -> Option<Mark> {
    let last = attr.path().segments.last()?.ident.to_string();
    match last.as_str() {
        "tool" => Some(Mark::Tool),
        "resource" => Some(Mark::Resource),
        "prompt" => Some(Mark::Prompt),
        _ => None,
    }
}

/// The options inside a mark's parentheses (none for a bare `#[tool]`).
fn options(attr: &Attribute) -> TokenStream {
    match &attr.meta {
        syn::Meta::List(list) => list.tokens.clone(),
        _ => TokenStream::new(),
    }
}

pub(crate) fn expand(attr: TokenStream, tokens: TokenStream) -> TokenStream {
    let mut block: ItemImpl = match syn::parse2(tokens.clone()) {
        Ok(block) => block,
        Err(_) => {
            let error = syn::Error::new_spanned(
                &tokens,
                "#[beam_mcp::items] goes on an impl block: `impl Notes { #[tool] fn find(&self, ..) }`",
            );
            let mut out = error.to_compile_error();
            out.extend(tokens);
            return out;
        }
    };
    let mut errors = Errors::default();
    if !attr.is_empty() {
        errors.spanned(
            &attr,
            "#[beam_mcp::items] takes no options; set them on each item",
        );
    }
    if !block.generics.params.is_empty() {
        errors.spanned(
            &block.generics,
            "a #[beam_mcp::items] impl block cannot be generic: its state type is looked up once, by its concrete type",
        );
    }
    if let Some((_, path, _)) = &block.trait_ {
        errors.spanned(
            path,
            "#[beam_mcp::items] goes on an inherent impl block (`impl Notes`), not a trait impl",
        );
    }
    let self_ident = match &*block.self_ty {
        Type::Path(path) if path.qself.is_none() => {
            path.path.segments.last().map(|s| s.ident.clone())
        }
        _ => None,
    };
    let Some(self_ident) = self_ident else {
        errors.spanned(
            &block.self_ty,
            "#[beam_mcp::items] needs a named type: `impl Notes`",
        );
        let mut out = errors.finish().unwrap_err().to_compile_error();
        out.extend(quote!(#block));
        return out;
    };

    let mut inner = Vec::new();
    let mut outer = Vec::new();
    let (mut tools, mut resources, mut prompts) = (Vec::new(), Vec::new(), Vec::new());
    for member in block.items.iter_mut() {
        let ImplItem::Fn(method) = member else {
            continue;
        };
        let mut marks = method
            .attrs
            .iter()
            .filter_map(|a| mark(a).map(|m| (m, a.clone())));
        let Some((kind, attr)) = marks.next() else {
            continue;
        };
        if let Some((_, second)) = marks.next() {
            errors.spanned(
                &second,
                "one of #[tool], #[resource] or #[prompt] per method",
            );
        }
        method.attrs.retain(|a| mark(a).is_none());
        let item = ItemFn {
            attrs: method.attrs.clone(),
            vis: method.vis.clone(),
            sig: method.sig.clone(),
            block: Box::new(method.block.clone()),
        };
        let host = Host::Method(&self_ident);
        let (expanded, list): (syn::Result<Expansion>, _) = match kind {
            Mark::Tool => (
                crate::ast::ToolFn::parse(ToolAttr::parse(options(&attr)), item, true)
                    .map(|model| crate::expand::tool(&model, host)),
                &mut tools,
            ),
            Mark::Resource => (
                crate::resource::ResourceFn::parse(ResourceAttr::parse(options(&attr)), item, true)
                    .map(|model| model.expand(host)),
                &mut resources,
            ),
            Mark::Prompt => (
                crate::prompt::PromptFn::parse(PromptAttr::parse(options(&attr)), item, true)
                    .map(|model| model.expand(host)),
                &mut prompts,
            ),
        };
        crate::skeleton::strip_parameter_attributes(&mut method.sig);
        match expanded {
            Ok(expansion) => {
                inner.push(expansion.inner);
                outer.push(expansion.outer);
                list.push(expansion.def_path);
            }
            Err(error) => errors.push(error),
        }
    }
    if let Err(error) = errors.finish() {
        let mut out = error.to_compile_error();
        out.extend(quote!(#block));
        return out;
    }
    // As visible as the most visible item: `pub` when one is, else the crate's (a `pub`
    // constant of a private type would be unreachable).
    let any_pub = block.items.iter().any(
        |member| matches!(member, ImplItem::Fn(f) if matches!(f.vis, syn::Visibility::Public(_))),
    );
    let vis = if any_pub {
        quote!(pub)
    } else {
        quote!(pub(crate))
    };
    let self_ty = &block.self_ty;
    let span = block.impl_token.span();
    let companion = quote::quote_spanned! {span=>
        impl #self_ty {
            /// The tool definitions of this impl block.
            #[allow(dead_code)]
            #vis const TOOLS: &'static [::beam_mcp::ToolDef] = &[#(#tools),*];
            /// The resource definitions of this impl block.
            #[allow(dead_code)]
            #vis const RESOURCES: &'static [::beam_mcp::resource::ResourceDef] = &[#(#resources),*];
            /// The prompt definitions of this impl block.
            #[allow(dead_code)]
            #vis const PROMPTS: &'static [::beam_mcp::prompt::PromptDef] = &[#(#prompts),*];

            #(#inner)*
        }
    };
    quote! {
        #block

        #companion

        #(#outer)*
    }
}
