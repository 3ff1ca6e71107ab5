//! `#[resource]`: the model of a reader function (checked against its URI template) and the
//! definition it expands to.

use beam_mcp_rules::attributes::{ResourceAttr, description, item_name};
use beam_mcp_rules::{Message, UriTemplate, uri_defect};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, Type};

use crate::ast::{check_signature, plain_name, wrapper_inner};
use crate::completion;
use crate::skeleton::{Binding, Kind, registered};

/// A parsed, checked resource reader.
pub(crate) struct ResourceFn {
    attr: ResourceAttr,
    item: ItemFn,
    template: UriTemplate,
    params: Vec<ReaderParam>,
}

enum ReaderParam {
    /// Bound from the template variable of the same name.
    Variable { ident: syn::Ident, ty: Type },
    /// `State<T>`.
    State { inner: Type },
    /// `Context`: the request context.
    Context,
}

impl ResourceFn {
    pub(crate) fn parse(attr: ResourceAttr, tokens: TokenStream) -> syn::Result<Self> {
        let item: ItemFn = syn::parse2(tokens)?;
        check_signature(&item.sig, "resource")?;
        let uri = attr.uri.value();
        let refuse = |message: Message| Err(syn::Error::new(attr.uri.span(), message.to_string()));
        let template = match UriTemplate::parse(&uri) {
            Ok(template) => template,
            Err(error) => {
                return refuse(Message::Template {
                    template: uri,
                    error,
                });
            }
        };
        if let Some(reason) = uri_defect(&uri) {
            return refuse(Message::InvalidUri { uri, reason });
        }
        let mut params = Vec::new();
        for input in &item.sig.inputs {
            let FnArg::Typed(typed) = input else {
                unreachable!("check_signature refused self")
            };
            if let Some(inner) = wrapper_inner(&typed.ty, "State") {
                params.push(ReaderParam::State { inner });
                continue;
            }
            if crate::ast::is_context(&typed.ty) {
                params.push(ReaderParam::Context);
                continue;
            }
            let ident = plain_name(
                &typed.pat,
                "a reader's parameter is a plain name bound from the template (`id: String`); destructure only State<T>",
            )?;
            let name = ident.to_string();
            if !template.variables().any(|v| v == name) {
                let message = Message::ParameterWithoutVariable {
                    template: uri,
                    parameter: name,
                };
                return Err(syn::Error::new(ident.span(), message.to_string()));
            }
            params.push(ReaderParam::Variable {
                ident,
                ty: (*typed.ty).clone(),
            });
        }
        let bound = |v: &str| {
            params
                .iter()
                .any(|p| matches!(p, ReaderParam::Variable { ident, .. } if ident == v))
        };
        if let Some(variable) = template.variables().find(|v| !bound(v)) {
            return refuse(Message::VariableWithoutParameter {
                template: uri.clone(),
                variable: variable.into(),
            });
        }
        for completer in &attr.complete {
            let argument = completer.argument.to_string();
            if !template.variables().any(|v| v == argument) {
                let message = Message::CompletionTarget {
                    item: uri,
                    argument,
                };
                return Err(syn::Error::new(
                    completer.argument.span(),
                    message.to_string(),
                ));
            }
        }
        Ok(ResourceFn {
            attr,
            item,
            template,
            params,
        })
    }

    pub(crate) fn expand(&self) -> TokenStream {
        let item = &self.item;
        let uri = &self.attr.uri;
        let (name, _) = item_name(self.attr.name.as_ref(), &item.sig);
        let description = description(self.attr.description.as_ref(), &item.attrs);
        let description = optional((!description.is_empty()).then_some(description));
        let title = optional(self.attr.title.as_ref().map(|t| t.value()));
        let mime_type = optional(self.attr.mime_type.as_ref().map(|m| m.value()));

        let mut prepare = Vec::new();
        let mut call_args = Vec::new();
        let mut states = Vec::new();
        let mut parameters = Vec::new();
        for (i, param) in self.params.iter().enumerate() {
            let local = format_ident!("__beam_p{}", i);
            match param {
                ReaderParam::Variable { ident, ty } => {
                    let variable = ident.to_string();
                    parameters.push(variable.clone());
                    prepare.push(quote_spanned! {ty.span()=>
                        let #local: #ty = ::beam_mcp::__private::variable(
                            &__beam_request,
                            #variable,
                            <#ty as ::beam_mcp::resource::TemplateVariable>::__parse,
                        )?;
                    });
                }
                ReaderParam::State { inner } => {
                    prepare.push(quote_spanned! {inner.span()=>
                        let #local = ::beam_mcp::State(::beam_mcp::__private::read_state::<#inner>(&__beam_request)?);
                    });
                    states.push(crate::expand::state_requirement(inner));
                }
                ReaderParam::Context => {
                    prepare.push(quote! { let #local = __beam_request.context().clone(); });
                }
            }
            call_args.push(quote!(#local));
        }
        let completions = completion::defs(&self.attr.complete);
        let takes_context = self
            .params
            .iter()
            .any(|p| matches!(p, ReaderParam::Context));
        let (marker, key) = if self.template.is_static() {
            ("resource", self.attr.uri.value())
        } else {
            ("template", self.template.shape())
        };
        let unique = crate::unique::marker(marker, &key, uri.span());
        let fields = quote! {
            uri: #uri,
            name: #name,
            title: #title,
            description: #description,
            mime_type: #mime_type,
            parameters: &[#(#parameters),*],
            reader: Self::__beam_handler,
            completions: #completions,
            states: &[#(#states),*],
            takes_context: #takes_context,
            module_path: ::core::module_path!(),
            location: (::core::file!(), ::core::line!()),
        };
        let kind = Kind {
            word: "resource",
            def: quote!(::beam_mcp::resource::ResourceDef),
            slice: quote!(::beam_mcp::__private::RESOURCES),
            request: quote!(::beam_mcp::resource::ReadRequest),
            output: quote! {
                ::core::result::Result<
                    ::std::vec::Vec<::beam_mcp::resource::ResourceContents>,
                    ::beam_mcp::resource::ResourceError,
                >
            },
            capability: quote!(::beam_mcp::resource::IntoReadResult),
            finish: |capability| quote!(#capability::into_read_result(__beam_out)),
        };
        let binding = Binding { prepare, call_args };
        registered(item, &kind, fields, binding, unique)
    }
}

pub(crate) fn optional(value: Option<String>) -> TokenStream {
    match value {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}
