//! `#[prompt]`: the model of a prompt function (string arguments only) and the definition it
//! expands to.

use beam_mcp_rules::Message;
use beam_mcp_rules::attributes::{PromptAttr, description, doc_text, item_name};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, LitStr, Type};

use crate::ast::{check_signature, last_ident, plain_name, wrapper_inner};
use crate::completion;
use crate::resource::optional;
use crate::skeleton::{Binding, Kind, registered};

/// A parsed, checked prompt function.
pub(crate) struct PromptFn {
    attr: PromptAttr,
    item: ItemFn,
    name: String,
    name_span: Span,
    description: String,
    params: Vec<PromptParam>,
}

enum PromptParam {
    /// A string argument: `String` (required) or `Option<String>`.
    Argument {
        ident: syn::Ident,
        ty: Type,
        required: bool,
        doc: Option<String>,
    },
    /// `State<T>`.
    State { inner: Type },
    /// `Context`: the request context.
    Context,
}

impl PromptFn {
    pub(crate) fn parse(attr: PromptAttr, tokens: TokenStream) -> syn::Result<Self> {
        let mut item: ItemFn = syn::parse2(tokens)?;
        check_signature(&item.sig, "prompt")?;
        let (name, name_span) = item_name(attr.name.as_ref(), &item.sig);
        if name.is_empty() {
            let message = Message::EmptyName { kind: "prompt" };
            return Err(syn::Error::new(name_span, message.to_string()));
        }
        let description = description(attr.description.as_ref(), &item.attrs);
        if description.is_empty() {
            let message = Message::MissingDescription {
                kind: "prompt",
                name,
            };
            return Err(syn::Error::new(item.sig.ident.span(), message.to_string()));
        }
        let mut params = Vec::new();
        for input in item.sig.inputs.iter_mut() {
            let FnArg::Typed(typed) = input else {
                unreachable!("check_signature refused self")
            };
            if let Some(inner) = wrapper_inner(&typed.ty, "State") {
                params.push(PromptParam::State { inner });
                continue;
            }
            if crate::ast::is_context(&typed.ty) {
                params.push(PromptParam::Context);
                continue;
            }
            let doc = doc_text(&typed.attrs).trim().to_owned();
            typed.attrs.retain(|a| !a.path().is_ident("doc"));
            let ident = plain_name(
                &typed.pat,
                "a prompt argument is a plain name (`topic: String`); destructure only State<T>",
            )?;
            let required = match string_kind(&typed.ty) {
                Some(required) => required,
                None => {
                    let message = Message::PromptArgumentNotString {
                        argument: ident.to_string(),
                    };
                    return Err(syn::Error::new_spanned(&typed.ty, message.to_string()));
                }
            };
            params.push(PromptParam::Argument {
                ident,
                ty: (*typed.ty).clone(),
                required,
                doc: (!doc.is_empty()).then_some(doc),
            });
        }
        for completer in &attr.complete {
            let argument = completer.argument.to_string();
            let declared = params
                .iter()
                .any(|p| matches!(p, PromptParam::Argument { ident, .. } if *ident == argument));
            if !declared {
                let message = Message::CompletionTarget {
                    item: name,
                    argument,
                };
                return Err(syn::Error::new(
                    completer.argument.span(),
                    message.to_string(),
                ));
            }
        }
        Ok(PromptFn {
            attr,
            item,
            name,
            name_span,
            description,
            params,
        })
    }

    pub(crate) fn expand(&self) -> TokenStream {
        let item = &self.item;
        let name = &self.name;
        let description = &self.description;
        let title = optional(self.attr.title.as_ref().map(LitStr::value));

        let mut prepare = Vec::new();
        let mut call_args = Vec::new();
        let mut states = Vec::new();
        let mut arguments = Vec::new();
        for (i, param) in self.params.iter().enumerate() {
            let local = format_ident!("__beam_p{}", i);
            match param {
                PromptParam::Argument {
                    ident,
                    ty,
                    required,
                    doc,
                } => {
                    let argument = ident.to_string();
                    let description = optional(doc.clone());
                    arguments.push(quote! {
                        ::beam_mcp::prompt::PromptArgument {
                            name: #argument,
                            title: ::core::option::Option::None,
                            description: #description,
                            required: #required,
                        }
                    });
                    // Typed as declared: a `String` that is not std's fails to compile here.
                    let take = if *required {
                        quote!(::beam_mcp::__private::prompt_argument(&__beam_request, #argument)?)
                    } else {
                        quote!(::beam_mcp::__private::prompt_optional(&__beam_request, #argument))
                    };
                    prepare.push(quote_spanned! {ty.span()=> let #local: #ty = #take; });
                }
                PromptParam::State { inner } => {
                    prepare.push(quote_spanned! {inner.span()=>
                        let #local = ::beam_mcp::State(::beam_mcp::__private::prompt_state::<#inner>(&__beam_request)?);
                    });
                    states.push(crate::expand::state_requirement(inner));
                }
                PromptParam::Context => {
                    prepare.push(quote! { let #local = __beam_request.context().clone(); });
                }
            }
            call_args.push(quote!(#local));
        }
        let completions = completion::defs(&self.attr.complete);
        let takes_context = self
            .params
            .iter()
            .any(|p| matches!(p, PromptParam::Context));
        let fields = quote! {
            name: #name,
            title: #title,
            description: #description,
            arguments: &[#(#arguments),*],
            handler: Self::__beam_handler,
            completions: #completions,
            states: &[#(#states),*],
            takes_context: #takes_context,
            module_path: ::core::module_path!(),
            location: (::core::file!(), ::core::line!()),
        };
        let kind = Kind {
            word: "prompt",
            def: quote!(::beam_mcp::prompt::PromptDef),
            slice: quote!(::beam_mcp::__private::PROMPTS),
            request: quote!(::beam_mcp::prompt::PromptRequest),
            output: quote! {
                ::core::result::Result<
                    ::beam_mcp::prompt::GetPromptResult,
                    ::beam_mcp::prompt::PromptFault,
                >
            },
            capability: quote!(::beam_mcp::prompt::IntoPromptResult),
            finish: |capability| quote!(::beam_mcp::__private::prompt_result(#capability::into_prompt_result(__beam_out))),
        };
        let unique = crate::unique::marker("prompt", name, self.name_span);
        let binding = Binding { prepare, call_args };
        registered(item, &kind, fields, binding, unique)
    }
}

/// `Some(true)` for `String`, `Some(false)` for `Option<String>`, `None` for anything else
/// (by spelling: an alias is refused rather than guessed at).
fn string_kind(ty: &Type) -> Option<bool> {
    if let Some(inner) = wrapper_inner(ty, "Option") {
        return (last_ident(&inner).as_deref() == Some("String")).then_some(false);
    }
    matches!(ty, Type::Path(_))
        .then(|| last_ident(ty))
        .flatten()
        .filter(|name| name == "String")
        .map(|_| true)
}
