//! The one shell every registered item expands to (tools, resources and prompts): the
//! function, a same-named struct whose `DEF` is the definition, the async handler that binds
//! the parameters and converts the return value, the `linkme` registration, and the
//! uniqueness marker. Each kind supplies only its parts.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::ItemFn;
use syn::spanned::Spanned;

use beam_mcp_rules::attributes::fn_name;

/// What differs between the kinds of item.
pub(crate) struct Kind {
    /// `tool`, `resource` or `prompt`: names the registration and the builder method in the docs.
    pub(crate) word: &'static str,
    /// The definition type, e.g. `::beam_mcp::resource::ResourceDef`.
    pub(crate) def: TokenStream,
    /// The distributed slice it registers in.
    pub(crate) slice: TokenStream,
    /// The handler's parameters (`__beam_request: ::beam_mcp::resource::ReadRequest`).
    pub(crate) params: TokenStream,
    /// What the handler's future resolves to.
    pub(crate) output: TokenStream,
}

/// What one item contributes to the shell.
pub(crate) struct Parts {
    /// The definition, built through its `const` constructors; its handler is
    /// `Self::__beam_handler`.
    pub(crate) definition: TokenStream,
    /// One binding per parameter, then the call's arguments.
    pub(crate) prepare: Vec<TokenStream>,
    pub(crate) call_args: Vec<TokenStream>,
    /// Converts the return value `__beam_out` into the handler's output.
    pub(crate) finish: TokenStream,
    /// More associated items of the definition struct (a tool's input schema).
    pub(crate) associated: TokenStream,
    /// More items beside it (a tool's argument struct).
    pub(crate) beside: TokenStream,
    /// The crate-wide uniqueness marker.
    pub(crate) unique: TokenStream,
}

/// `convert(<R as capability>)` at the return type's span, so "`R` cannot be a resource's
/// contents" points at it (`()` when the function returns nothing).
pub(crate) fn finish_through(
    item: &ItemFn,
    capability: TokenStream,
    convert: impl FnOnce(TokenStream) -> TokenStream,
) -> TokenStream {
    match &item.sig.output {
        syn::ReturnType::Type(_, ty) => convert(quote_spanned!(ty.span()=> <#ty as #capability>)),
        syn::ReturnType::Default => convert(quote!(<() as #capability>)),
    }
}

/// The whole expansion: the function, a same-named struct whose `DEF` is the definition, the
/// async handler that binds the parameters and converts the return value, the `linkme`
/// registration, and the uniqueness marker.
pub(crate) fn registered(item: &ItemFn, kind: &Kind, parts: Parts) -> TokenStream {
    let vis = &item.vis;
    let fn_ident = &item.sig.ident;
    let Kind {
        word,
        def,
        slice,
        params,
        output,
    } = kind;
    let Parts {
        definition,
        prepare,
        call_args,
        finish,
        associated,
        beside,
        unique,
    } = parts;
    let registration = format_ident!(
        "__BEAM_MCP_{}_{}",
        word.to_uppercase(),
        fn_name(&item.sig).to_uppercase()
    );
    // A synchronous function runs on the blocking pool: a slow one holds up neither the timer
    // of its time limit nor other requests.
    let invoke = match item.sig.asyncness {
        Some(_) => quote!(#fn_ident(#(#call_args),*).await),
        None => {
            quote!(::beam_mcp::__private_v0_1::blocking(move || #fn_ident(#(#call_args),*)).await)
        }
    };
    let doc = format!(
        "The MCP {word} definition of [`{fn_ident}()`]: pass `{fn_ident}::DEF` to `ServerBuilder::{word}`."
    );
    let def_doc = format!("The {word}'s definition.");
    quote! {
        #item

        #beside

        #[doc = #doc]
        #[allow(non_camel_case_types)]
        #vis struct #fn_ident {}

        impl #fn_ident {
            #[doc = #def_doc]
            #vis const DEF: #def = #definition;

            #associated

            #[allow(unused_variables)]
            fn __beam_handler(#params) -> ::beam_mcp::tool::BoxFuture<#output> {
                ::std::boxed::Box::pin(async move {
                    #(#prepare)*
                    let __beam_out = #invoke;
                    #finish
                })
            }
        }

        #[::beam_mcp::__private_v0_1::linkme::distributed_slice(#slice)]
        #[linkme(crate = ::beam_mcp::__private_v0_1::linkme)]
        #[allow(non_upper_case_globals)]
        static #registration: #def = #fn_ident::DEF;

        #unique
    }
}
