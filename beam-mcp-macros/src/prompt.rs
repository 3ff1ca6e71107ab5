//! `#[prompt]`: the model of a prompt function (string arguments only) and the definition it
//! expands to.

use beam_mcp_rules::Message;
use beam_mcp_rules::attributes::{PromptAttr, description, doc_text, item_name};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, Type};

use crate::ast::{check_signature, plain_name};
use crate::borrowed::borrowed_argument;
use crate::completion;
use crate::errors::Errors;
use crate::extractor::Extractor;
use crate::skeleton::{Expansion, Host, Kind, Parts, finish_through, registered};
use crate::spelling::{last_ident, wrapper_inner};

/// A parsed, checked prompt function.
pub(crate) struct PromptFn {
    attr: PromptAttr,
    item: ItemFn,
    name: String,
    name_span: Span,
    description: String,
    params: Vec<PromptParam>,
    /// Its icons, embedded (`const { &[Icon, ..] }`), when it has any.
    icons: Option<TokenStream>,
}

// A handful per function, built once at compile time: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
enum PromptParam {
    /// A string argument: `String` (required) or `Option<String>`.
    Argument {
        ident: syn::Ident,
        ty: Type,
        required: bool,
        doc: Option<String>,
    },
    /// Taken from the request (`#[extract]`, `State<T>`, `Context`).
    Extract(Extractor),
}

impl PromptFn {
    /// The model, or every fault of the item at once.
    pub(crate) fn parse(
        attr: syn::Result<PromptAttr>,
        mut item: ItemFn,
        method: bool,
    ) -> syn::Result<Self> {
        let mut errors = Errors::default();
        let attr = errors.take(attr);
        check_signature(&item.sig, "prompt", method, &mut errors);
        let (name, name_span) = item_name(attr.as_ref().and_then(|a| a.name.as_ref()), &item.sig);
        let description = match &attr {
            Some(attr) => description(attr.description.as_ref(), &item.attrs),
            None => String::new(),
        };
        if attr.is_some() {
            if name.is_empty() {
                errors.at(name_span, Message::EmptyName { kind: "prompt" });
            }
            if description.is_empty() {
                let message = Message::MissingDescription {
                    kind: "prompt",
                    name: name.clone(),
                };
                errors.at(item.sig.ident.span(), message);
            }
        }
        let mut params = Vec::new();
        for input in item.sig.inputs.iter_mut() {
            // `self` is checked by `check_signature`.
            let FnArg::Typed(typed) = input else { continue };
            if let Some(extractor) = Extractor::classify(typed, &mut errors) {
                params.push(PromptParam::Extract(extractor));
                continue;
            }
            let doc = doc_text(&typed.attrs).trim().to_owned();
            typed.attrs.retain(|a| !a.path().is_ident("doc"));
            let Some(ident) = errors.take(plain_name(
                &typed.pat,
                "a prompt argument is a plain name (`topic: String`); destructure only State<T>",
            )) else {
                continue;
            };
            if let Some((owned, refusal)) = borrowed_argument(&typed.ty, "prompt argument") {
                // Taken as the owned type, so the refusal is the parameter's only fault.
                errors.spanned(&typed.ty, refusal);
                *typed.ty = owned;
            }
            let Some(required) = string_kind(&typed.ty) else {
                let message = Message::PromptArgumentNotString {
                    argument: ident.to_string(),
                };
                errors.spanned(&typed.ty, message);
                continue;
            };
            params.push(PromptParam::Argument {
                ident,
                ty: (*typed.ty).clone(),
                required,
                doc: (!doc.is_empty()).then_some(doc),
            });
        }
        for completer in attr.iter().flat_map(|attr| &attr.complete) {
            let argument = completer.argument.to_string();
            let declared = params
                .iter()
                .any(|p| matches!(p, PromptParam::Argument { ident, .. } if *ident == argument));
            if !declared {
                let message = Message::CompletionTarget {
                    item: name.clone(),
                    argument,
                };
                errors.at(completer.argument.span(), message);
            }
        }
        let icons = attr
            .as_ref()
            .and_then(|a| crate::icons::icons(&a.icons, &mut errors));
        errors.finish()?;
        Ok(PromptFn {
            attr: attr.expect("a failed attribute is an error above"),
            item,
            name,
            name_span,
            description,
            params,
            icons,
        })
    }

    pub(crate) fn expand(&self, host: Host<'_>) -> Expansion {
        let item = &self.item;
        let name = &self.name;
        let description = &self.description;

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
                    let mut argument_def =
                        quote!(::beam_mcp::prompt::PromptArgument::new(#argument));
                    if let Some(doc) = doc {
                        argument_def.extend(quote!(.with_description(#doc)));
                    }
                    if !*required {
                        argument_def.extend(quote!(.optional()));
                    }
                    arguments.push(argument_def);
                    // Typed as declared: a `String` that is not std's fails to compile here.
                    let take = if *required {
                        quote!(::beam_mcp::__private_v0_1::prompt_argument(&__beam_request, #argument)?)
                    } else {
                        quote!(::beam_mcp::__private_v0_1::prompt_optional(&__beam_request, #argument))
                    };
                    prepare.push(quote_spanned! {ty.span()=> let #local: #ty = #take; });
                }
                PromptParam::Extract(extractor) => {
                    prepare.push(extractor.binding(&local, quote!(__beam_request.__parts())));
                    if let Some(inner) = &extractor.state {
                        states.push(crate::expand::state_requirement(inner));
                    }
                }
            }
            call_args.push(quote!(#local));
        }
        let completions = completion::defs(&self.attr.complete);
        let takes_context = self
            .params
            .iter()
            .any(|p| matches!(p, PromptParam::Extract(e) if e.reads_context));
        let handler = host.associated("__beam_handler", item);
        let mut definition = quote! {
            ::beam_mcp::prompt::PromptDef::new(#name, #description, Self::#handler)
        };
        // A named catalog's prompt is unique under the name it is mounted by.
        let key = match &self.attr.catalog {
            Some(catalog) => {
                definition.extend(quote!(.with_catalog(#catalog)));
                beam_mcp_rules::namespaced_name(&catalog.value(), name)
            }
            None => name.to_string(),
        };
        if let Some(title) = &self.attr.title {
            definition.extend(quote!(.with_title(#title)));
        }
        if let Some(icons) = &self.icons {
            definition.extend(quote!(.with_icons(#icons)));
        }
        definition.extend(quote! {
            .with_arguments(&[#(#arguments),*])
            .with_completions(#completions)
        });
        let tags = &self.attr.tags;
        if !tags.is_empty() {
            definition.extend(quote!(.with_tags(&[#(#tags),*])));
        }
        let scopes = &self.attr.scopes;
        if !scopes.is_empty() {
            definition.extend(quote!(.with_scopes(&[#(#scopes),*])));
        }
        let kind = Kind {
            word: "prompt",
            def: quote!(::beam_mcp::prompt::PromptDef),
            slice: quote!(::beam_mcp::__private_v0_1::PROMPTS),
            params: quote!(__beam_request: ::beam_mcp::prompt::PromptRequest),
            self_state: quote!(
                <::beam_mcp::State<Self> as ::beam_mcp::Extract>::extract(
                    &__beam_request.__parts()
                )?
                .0
            ),
            output: quote! {
                ::core::result::Result<
                    ::beam_mcp::prompt::GetPromptResult,
                    ::beam_mcp::prompt::PromptFault,
                >
            },
        };
        let finish = finish_through(
            item,
            quote!(::beam_mcp::prompt::IntoPromptResult),
            |r| quote!(::beam_mcp::__private_v0_1::prompt_result(#r::into_prompt_result(__beam_out))),
        );
        let parts = Parts {
            definition,
            states,
            takes_context,
            prepare,
            call_args,
            finish,
            associated: TokenStream::new(),
            beside: TokenStream::new(),
            unique: crate::unique::marker("prompt", &key, self.name_span),
            schema_types: None,
        };
        registered(item, &kind, parts, host)
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
