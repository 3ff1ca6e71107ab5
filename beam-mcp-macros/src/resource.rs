//! `#[resource]`: the model of a reader function (checked against its URI template) and the
//! definition it expands to.

use beam_mcp_rules::attributes::{ResourceAttr, description, item_name};
use beam_mcp_rules::{Message, UriTemplate, uri_defect};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, Type};

use crate::ast::{check_signature, plain_name};
use crate::borrowed::borrowed_argument;
use crate::completion;
use crate::errors::Errors;
use crate::extractor::Extractor;
use crate::skeleton::{Expansion, Host, Kind, Parts, finish_through, registered};

/// A parsed, checked resource reader.
pub(crate) struct ResourceFn {
    attr: ResourceAttr,
    item: ItemFn,
    template: UriTemplate,
    params: Vec<ReaderParam>,
    /// Its icons, embedded (`const { &[Icon, ..] }`), when it has any.
    icons: Option<TokenStream>,
}

// A handful per function, built once at compile time: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
enum ReaderParam {
    /// Bound from the template variable of the same name.
    Variable { ident: syn::Ident, ty: Type },
    /// Taken from the request (`#[extract]`, `State<T>`, `Context`).
    Extract(Extractor),
}

impl ResourceFn {
    /// The model, or every fault of the item at once (the signature is checked even when the
    /// attribute or its template cannot be read).
    pub(crate) fn parse(
        attr: syn::Result<ResourceAttr>,
        item: ItemFn,
        method: bool,
    ) -> syn::Result<Self> {
        let mut errors = Errors::default();
        let attr = errors.take(attr);
        check_signature(&item.sig, "resource", method, &mut errors);
        let template = attr.as_ref().and_then(|attr| {
            let uri = attr.uri.value();
            let template = UriTemplate::parse(&uri)
                .map_err(|error| {
                    let message = Message::Template {
                        template: uri.clone(),
                        error,
                    };
                    errors.at(attr.uri.span(), message);
                })
                .ok()?;
            if let Some(reason) = uri_defect(&uri) {
                errors.at(attr.uri.span(), Message::InvalidUri { uri, reason });
                return None;
            }
            if let Some(catalog) = &attr.catalog
                && beam_mcp_rules::namespaced_uri(&catalog.value(), &uri).is_none()
            {
                errors.push(syn::Error::new_spanned(
                    &attr.uri,
                    format!(
                        "a resource of catalog {:?} is mounted at `scheme://{}/...`: give it a URI with `//` after its scheme",
                        catalog.value(),
                        catalog.value()
                    ),
                ));
                return None;
            }
            Some(template)
        });
        let mut params = Vec::new();
        let mut item = item;
        for input in item.sig.inputs.iter_mut() {
            // `self` is checked by `check_signature`.
            let FnArg::Typed(typed) = input else { continue };
            if let Some(extractor) = Extractor::classify(typed, &mut errors) {
                params.push(ReaderParam::Extract(extractor));
                continue;
            }
            let Some(ident) = errors.take(plain_name(
                &typed.pat,
                "a reader's parameter is a plain name bound from the template (`id: String`); destructure only State<T>",
            )) else {
                continue;
            };
            if let Some((owned, refusal)) = borrowed_argument(&typed.ty, "template variable") {
                // Taken as the owned type, so the refusal is the parameter's only fault.
                errors.spanned(&typed.ty, refusal);
                *typed.ty = owned;
            }
            if let (Some(attr), Some(template)) = (&attr, &template) {
                let name = ident.to_string();
                if !template.variables().any(|v| v == name) {
                    let message = Message::ParameterWithoutVariable {
                        template: attr.uri.value(),
                        parameter: name,
                    };
                    errors.at(ident.span(), message);
                }
            }
            params.push(ReaderParam::Variable {
                ident,
                ty: (*typed.ty).clone(),
            });
        }
        if let (Some(attr), Some(template)) = (&attr, &template) {
            let bound = |v: &str| {
                params
                    .iter()
                    .any(|p| matches!(p, ReaderParam::Variable { ident, .. } if ident == v))
            };
            for variable in template.variables().filter(|v| !bound(v)) {
                let message = Message::VariableWithoutParameter {
                    template: attr.uri.value(),
                    variable: variable.into(),
                };
                errors.at(attr.uri.span(), message);
            }
            for completer in &attr.complete {
                let argument = completer.argument.to_string();
                if !template.variables().any(|v| v == argument) {
                    let message = Message::CompletionTarget {
                        item: attr.uri.value(),
                        argument,
                    };
                    errors.at(completer.argument.span(), message);
                }
            }
        }
        let icons = attr
            .as_ref()
            .and_then(|a| crate::icons::icons(&a.icons, &mut errors));
        if let (Some(attr), Some(template)) = (&attr, &template)
            && let Some(size) = &attr.size
            && !template.is_static()
        {
            errors.spanned(
                size,
                "a template has no size (the spec's ResourceTemplate has none); give it to each resource it reads",
            );
        }
        if let Some(html) = attr.as_ref().and_then(|a| a.app.as_ref()?.html.as_ref()) {
            crate::views::embed_html(html, &mut item, &mut errors);
        }
        errors.finish()?;
        Ok(ResourceFn {
            attr: attr.expect("a failed attribute is an error above"),
            item,
            template: template.expect("an unreadable template is an error above"),
            params,
            icons,
        })
    }

    pub(crate) fn expand(&self, host: Host<'_>) -> Expansion {
        let item = &self.item;
        let uri = &self.attr.uri;
        let (name, _) = item_name(self.attr.name.as_ref(), &item.sig);
        let description = description(self.attr.description.as_ref(), &item.attrs);
        let description = (!description.is_empty()).then_some(description);
        let title = self.attr.title.as_ref().map(|t| t.value());
        let mime_type = self.attr.mime_type.as_ref().map(|m| m.value());

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
                        let #local: #ty = ::beam_mcp::__private_v0_1::variable(
                            &__beam_request,
                            #variable,
                            <#ty as ::beam_mcp::resource::TemplateVariable>::__parse,
                        )?;
                    });
                }
                ReaderParam::Extract(extractor) => {
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
            .any(|p| matches!(p, ReaderParam::Extract(e) if e.reads_context));
        // A named catalog's resource is unique under the URI it is mounted at (`parse` refused
        // a URI with no place for the prefix).
        let catalog = self.attr.catalog.as_ref();
        let mounted = catalog
            .and_then(|c| beam_mcp_rules::namespaced_uri(&c.value(), &self.attr.uri.value()))
            .and_then(|at| Some((UriTemplate::parse(&at).ok()?, at)));
        let (marker, key) = match &mounted {
            Some((template, at)) if template.is_static() => ("resource", at.clone()),
            Some((template, _)) => ("template", template.shape()),
            None if self.template.is_static() => ("resource", self.attr.uri.value()),
            None => ("template", self.template.shape()),
        };
        let unique = crate::unique::marker(marker, &key, uri.span());
        let handler = host.associated("__beam_handler", item);
        let mut definition = quote! {
            ::beam_mcp::resource::ResourceDef::new(#uri, #name, Self::#handler)
        };
        if let Some(catalog) = catalog {
            definition.extend(quote!(.with_catalog(#catalog)));
        }
        for (value, setter) in [
            (title, "with_title"),
            (description, "with_description"),
            (mime_type, "with_mime_type"),
        ] {
            if let Some(value) = value {
                let setter = format_ident!("{}", setter);
                definition.extend(quote!(.#setter(#value)));
            }
        }
        definition.extend(quote! {
            .with_parameters(&[#(#parameters),*])
            .with_completions(#completions)
        });
        if let Some(icons) = &self.icons {
            definition.extend(quote!(.with_icons(#icons)));
        }
        if let Some(size) = &self.attr.size {
            definition.extend(quote!(.with_size(#size)));
        }
        if let Some(annotations) = &self.attr.annotations {
            let annotations = crate::icons::annotations(annotations);
            definition.extend(quote!(.with_annotations(#annotations)));
        }
        if let Some(app) = &self.attr.app {
            let view = crate::views::view(app);
            definition.extend(quote!(.with_app(#view)));
        }
        let tags = &self.attr.tags;
        if !tags.is_empty() {
            definition.extend(quote!(.with_tags(&[#(#tags),*])));
        }
        let scopes = &self.attr.scopes;
        if !scopes.is_empty() {
            definition.extend(quote!(.with_scopes(&[#(#scopes),*])));
        }
        let kind = Kind {
            word: "resource",
            def: quote!(::beam_mcp::resource::ResourceDef),
            slice: quote!(::beam_mcp::__private_v0_1::RESOURCES),
            params: quote!(__beam_request: ::beam_mcp::resource::ReadRequest),
            self_state: quote!(
                <::beam_mcp::State<Self> as ::beam_mcp::Extract>::extract(
                    &__beam_request.__parts()
                )?
                .0
            ),
            output: quote! {
                ::core::result::Result<
                    ::std::vec::Vec<::beam_mcp::resource::ResourceContents>,
                    ::beam_mcp::resource::ResourceError,
                >
            },
        };
        let finish = finish_through(
            item,
            quote!(::beam_mcp::resource::IntoReadResult),
            |r| quote!(#r::into_read_result(__beam_out)),
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
            unique,
            schema_types: None,
        };
        registered(item, &kind, parts, host)
    }
}
