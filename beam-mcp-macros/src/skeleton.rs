//! The shape every registered item expands to (resources and prompts): the function, a
//! same-named struct whose `DEF` is the definition, the async handler that binds the
//! parameters and converts the return value, the `linkme` registration, and the uniqueness
//! marker.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::ItemFn;
use syn::spanned::Spanned;

use beam_mcp_rules::attributes::fn_name;

/// What differs between the kinds of item.
pub(crate) struct Kind {
    /// `resource` or `prompt`: names the registration and the builder method in the docs.
    pub(crate) word: &'static str,
    /// The definition type, e.g. `::beam_mcp::resource::ResourceDef`.
    pub(crate) def: TokenStream,
    /// The distributed slice it registers in.
    pub(crate) slice: TokenStream,
    /// What the handler is handed (bound as `__beam_request`).
    pub(crate) request: TokenStream,
    /// What the handler's future resolves to.
    pub(crate) output: TokenStream,
    /// The trait the return value converts through, e.g. `::beam_mcp::resource::IntoReadResult`.
    pub(crate) capability: TokenStream,
    /// Converts the return value `__beam_out`, given the qualified self type of its
    /// conversion trait (`<R as ::beam_mcp::resource::IntoReadResult>`), named at the return
    /// type so a type that cannot be one is one error there.
    pub(crate) finish: fn(TokenStream) -> TokenStream,
}

/// The handler's statements: one binding per parameter, then the call's arguments.
pub(crate) struct Binding {
    pub(crate) prepare: Vec<TokenStream>,
    pub(crate) call_args: Vec<TokenStream>,
}

/// The whole expansion. `fields` are the definition's fields; `handler` in them is
/// `Self::__beam_handler`.
pub(crate) fn registered(
    item: &ItemFn,
    kind: &Kind,
    fields: TokenStream,
    binding: Binding,
    unique: TokenStream,
) -> TokenStream {
    let vis = &item.vis;
    let fn_ident = &item.sig.ident;
    let Kind {
        word,
        def,
        slice,
        request,
        output,
        capability,
        finish,
    } = kind;
    let registration = format_ident!(
        "__BEAM_MCP_{}_{}",
        word.to_uppercase(),
        fn_name(&item.sig).to_uppercase()
    );
    let Binding { prepare, call_args } = binding;
    // A synchronous function runs on the blocking pool, as a tool's does.
    let invoke = match item.sig.asyncness {
        Some(_) => quote!(#fn_ident(#(#call_args),*).await),
        None => quote!(::beam_mcp::__private::blocking(move || #fn_ident(#(#call_args),*)).await),
    };
    // Spanned on the return type, so "cannot be a resource's contents" points at it.
    let finish = match &item.sig.output {
        syn::ReturnType::Type(_, ty) => finish(quote_spanned!(ty.span()=> <#ty as #capability>)),
        syn::ReturnType::Default => finish(quote!(<() as #capability>)),
    };
    let doc = format!(
        "The MCP {word} definition of [`{fn_ident}()`]: pass `{fn_ident}::DEF` to `ServerBuilder::{word}`."
    );
    let def_doc = format!("The {word}'s definition.");
    quote! {
        #item

        #[doc = #doc]
        #[allow(non_camel_case_types)]
        #vis struct #fn_ident {}

        impl #fn_ident {
            #[doc = #def_doc]
            #vis const DEF: #def = #def { #fields };

            fn __beam_handler(
                __beam_request: #request,
            ) -> ::beam_mcp::tool::BoxFuture<#output> {
                ::std::boxed::Box::pin(async move {
                    #(#prepare)*
                    let __beam_out = #invoke;
                    #finish
                })
            }
        }

        #[::beam_mcp::__private::linkme::distributed_slice(#slice)]
        #[linkme(crate = ::beam_mcp::__private::linkme)]
        #[allow(non_upper_case_globals)]
        static #registration: #def = #fn_ident::DEF;

        #unique
    }
}
