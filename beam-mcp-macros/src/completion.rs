//! `complete(argument = function)`: one `CompletionDef` per declared completer.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use beam_mcp_rules::attributes::Completer;

/// A `&'static [CompletionDef]` expression; each completer is type-checked where it is named.
pub(crate) fn defs(completers: &[Completer]) -> TokenStream {
    let defs = completers.iter().map(|c| {
        let argument = c.argument.to_string();
        let function = &c.function;
        let call = quote_spanned! {function.span()=>
            ::beam_mcp::__private_v0_1::complete(#function, __beam_request)
        };
        quote! {
            ::beam_mcp::completion::CompletionDef::new(#argument, {
                fn __beam_complete(
                    __beam_request: ::beam_mcp::completion::CompletionRequest,
                ) -> ::beam_mcp::tool::BoxFuture<::beam_mcp::completion::Completion> {
                    #call
                }
                __beam_complete
            })
        }
    });
    quote!(&[#(#defs),*])
}
