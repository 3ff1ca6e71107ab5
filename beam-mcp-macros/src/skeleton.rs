//! The one shell every registered item expands to (tools, resources and prompts, free
//! functions or methods): the definition (a same-named struct's `DEF`, or an associated
//! constant of the method's type), the async handler that binds the parameters and converts
//! the return value, the `linkme` registration, and the uniqueness marker. Each kind supplies
//! only its parts.

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
    /// For a method: the expression that takes the host state `Self` from the request.
    pub(crate) self_state: TokenStream,
}

/// What one item contributes to the shell.
pub(crate) struct Parts {
    /// The definition, built through its `const` constructors; its handler is
    /// `Self::` + [`Host::associated`]`("__beam_handler")`. The shell adds what every kind
    /// shares: its states, whether it takes the context, and where it was declared.
    pub(crate) definition: TokenStream,
    /// The `StateRequirement`s of its `State<T>` parameters (and of `Self`, for a method).
    pub(crate) states: Vec<TokenStream>,
    /// True when it may send notifications through its request context.
    pub(crate) takes_context: bool,
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
    /// For a tool, the Rust types its schemas come from (`filter: Filter`, `Args<Query>`, `->
    /// Reading`): a `#[cfg(test)]` test then builds its schemas, so `cargo test` names every
    /// refused one.
    pub(crate) schema_types: Option<String>,
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

/// Where an annotated function lives.
#[derive(Clone, Copy)]
pub(crate) enum Host<'a> {
    /// A free function: its definition is `f::DEF`.
    Free,
    /// A method taking `&self` in `#[beam_mcp::items] impl T`: `self` is the host state `T`,
    /// and the definition is `T::F_TOOL` (`_RESOURCE`, `_PROMPT`).
    Method(&'a syn::Ident),
}

impl Host<'_> {
    /// The name of an associated function of the item (`__beam_handler`), unique in its impl
    /// block for a method.
    pub(crate) fn associated(self, base: &str, item: &ItemFn) -> syn::Ident {
        match self {
            Host::Free => format_ident!("{}", base),
            Host::Method(_) => format_ident!("{}_{}", base, fn_name(&item.sig)),
        }
    }

    /// The name of a module-level item of the function (`__beam_mcp_args_find`), unique in
    /// its module for a method.
    pub(crate) fn beside(self, base: &str, item: &ItemFn) -> syn::Ident {
        match self {
            Host::Free => format_ident!("{}_{}", base, fn_name(&item.sig)),
            Host::Method(ty) => format_ident!("{}_{}_{}", base, ty, fn_name(&item.sig)),
        }
    }
}

/// A whole expansion: `outer` goes where the function was (a method's: beside its impl
/// block), `inner` into the impl block of a method's type (nothing for a free function).
pub(crate) struct Expansion {
    pub(crate) outer: TokenStream,
    pub(crate) inner: TokenStream,
    /// The definition's path (`find::DEF`, `Notes::FIND_TOOL`).
    pub(crate) def_path: TokenStream,
}

/// The whole expansion: the function, a same-named struct whose `DEF` is the definition (for
/// a method, an associated const of its type), the async handler that binds the parameters
/// and converts the return value, the `linkme` registration, and the uniqueness marker.
pub(crate) fn registered(item: &ItemFn, kind: &Kind, parts: Parts, host: Host<'_>) -> Expansion {
    let vis = &item.vis;
    let fn_ident = &item.sig.ident;
    let Kind {
        word,
        def,
        slice,
        params,
        output,
        self_state,
    } = kind;
    let Parts {
        definition,
        mut states,
        takes_context,
        mut prepare,
        call_args,
        finish,
        associated,
        beside,
        unique,
        schema_types,
    } = parts;
    if let Host::Method(_) = host {
        states.push(quote!(::beam_mcp::tool::StateRequirement::of::<Self>()));
    }
    let definition = quote! {
        #definition
            .with_states(&[#(#states),*])
            .with_context(#takes_context)
            .declared_at(::core::module_path!(), ::core::file!(), ::core::line!())
    };
    let handler = host.associated("__beam_handler", item);
    let (callee, receiver) = match host {
        Host::Free => (quote!(#fn_ident), None),
        Host::Method(ty) => {
            // Spanned on the type: "`Notes` is not Clone" points at `impl Notes`.
            let self_state = respan(self_state.clone(), ty.span());
            prepare.insert(0, quote!(let __beam_self: Self = #self_state;));
            (quote!(Self::#fn_ident), Some(quote!(&__beam_self)))
        }
    };
    let args = receiver.iter().chain(&call_args);
    // A synchronous function runs on the blocking pool: a slow one holds up neither the timer
    // of its time limit nor other requests.
    let invoke = match item.sig.asyncness {
        Some(_) => quote!(#callee(#(#args),*).await),
        None => {
            quote!(::beam_mcp::__private_v0_1::blocking(move || #callee(#(#args),*)).await)
        }
    };
    let handler_fn = quote! {
        #[allow(unused_variables)]
        fn #handler(#params) -> ::beam_mcp::tool::BoxFuture<#output> {
            ::std::boxed::Box::pin(async move {
                #(#prepare)*
                let __beam_out = #invoke;
                #finish
            })
        }
    };
    let def_doc = format!("The {word}'s definition.");
    let (def_path, outer_item, inner) = match host {
        Host::Free => {
            let doc = format!(
                "The MCP {word} definition of [`{fn_ident}()`]: pass `{fn_ident}::DEF` to `ServerBuilder::{word}`."
            );
            let outer = quote! {
                #item

                #[doc = #doc]
                #[allow(non_camel_case_types)]
                #vis struct #fn_ident {}

                impl #fn_ident {
                    #[doc = #def_doc]
                    #vis const DEF: #def = #definition;

                    #associated

                    #handler_fn
                }
            };
            (quote!(#fn_ident::DEF), outer, TokenStream::new())
        }
        Host::Method(ty) => {
            let konst = format_ident!(
                "{}_{}",
                fn_name(&item.sig).to_uppercase(),
                word.to_uppercase()
            );
            let doc = format!(
                "The MCP {word} definition of [`{ty}::{fn_ident}`]: pass it to `ServerBuilder::{word}` (with the state `{ty}`)."
            );
            let inner = quote! {
                #[doc = #doc]
                #vis const #konst: #def = #definition;

                #associated

                #handler_fn
            };
            (quote!(#ty::#konst), TokenStream::new(), inner)
        }
    };
    let registration = match host {
        Host::Free => format_ident!(
            "__BEAM_MCP_{}_{}",
            word.to_uppercase(),
            fn_name(&item.sig).to_uppercase()
        ),
        Host::Method(ty) => format_ident!(
            "__BEAM_MCP_{}_{}_{}",
            word.to_uppercase(),
            ty.to_string().to_uppercase(),
            fn_name(&item.sig).to_uppercase()
        ),
    };
    // A tool's schemas, built in the host's own `cargo test`: every refusal at once, each
    // naming the tool and its Rust types, before any server starts.
    let schema_check = schema_types.map(|types| {
        let test = host.beside("__beam_mcp_schema_check", item);
        quote! {
            #[cfg(test)]
            #[test]
            #[allow(non_snake_case, reason = "named after the item, a method's type included")]
            fn #test() {
                ::beam_mcp::__private_v0_1::check_tool_schemas(&#def_path, #types);
            }
        }
    });
    let outer = quote! {
        #outer_item

        #beside

        #schema_check

        #[::beam_mcp::__private_v0_1::linkme::distributed_slice(#slice)]
        #[linkme(crate = ::beam_mcp::__private_v0_1::linkme)]
        #[allow(non_upper_case_globals)]
        static #registration: #def = #def_path;

        #unique
    };
    Expansion {
        outer,
        inner,
        def_path,
    }
}

/// `tokens` with every token (and group) at `span`.
fn respan(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tree| {
            if let proc_macro2::TokenTree::Group(group) = &tree {
                let mut inner =
                    proc_macro2::Group::new(group.delimiter(), respan(group.stream(), span));
                inner.set_span(span);
                tree = proc_macro2::TokenTree::Group(inner);
            } else {
                tree.set_span(span);
            }
            tree
        })
        .collect()
}

/// Removes the parameter attributes only the macros understand (`///`, `#[header]` and
/// `#[extract]`), which rustc would report as errors of their own.
pub(crate) fn strip_parameter_attributes(sig: &mut syn::Signature) {
    for input in sig.inputs.iter_mut() {
        if let syn::FnArg::Typed(typed) = input {
            typed.attrs.retain(|a| {
                !["doc", "header", "extract"]
                    .iter()
                    .any(|n| a.path().is_ident(n))
            });
        }
    }
}
