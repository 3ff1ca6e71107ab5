//! Writes a tool's definition, input schema and typed dispatch from the checked model.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{Output, Param, ToolFn};
use crate::skeleton::{Expansion, Host, Kind, Parts, finish_through, registered};

pub(crate) fn tool(model: &ToolFn, host: Host<'_>) -> Expansion {
    let item = &model.item;
    let args_ident = host.beside("__beam_mcp_args", item);
    let handler = host.associated("__beam_handler", item);
    let by_value = host.associated("__beam_handler_by_value", item);
    let input_schema_fn = host.associated("__beam_input_schema", item);

    let name = &model.name;
    let description = &model.description;
    let mut definition = quote! {
        ::beam_mcp::ToolDef::new(#name, #description, Self::#input_schema_fn, Self::#by_value)
            .with_arguments_handler(Self::#handler)
    };
    let mut annotations = quote!(::beam_mcp::ToolAnnotations::NONE);
    let hints = [
        (model.attr.read_only, "with_read_only"),
        (model.attr.destructive, "with_destructive"),
        (model.attr.idempotent, "with_idempotent"),
        (model.attr.open_world, "with_open_world"),
    ];
    for (hint, setter) in hints {
        if let Some(value) = hint {
            let setter = format_ident!("{}", setter);
            annotations.extend(quote!(.#setter(#value)));
        }
    }
    definition.extend(quote!(.with_annotations(#annotations)));
    if let Some(title) = &model.attr.title {
        definition.extend(quote!(.with_title(#title)));
    }
    if let Some(icons) = &model.icons {
        definition.extend(quote!(.with_icons(#icons)));
    }
    if let Some(link) = &model.attr.ui {
        let uri = &link.resource;
        let mut ui = quote!(::beam_mcp::app::ToolUi::new(#uri));
        if let Some(visibility) = &link.visibility {
            ui.extend(quote!(.with_visibility(::beam_mcp::app::Visibility::#visibility)));
        }
        definition.extend(quote!(.with_ui(#ui)));
    }
    let requires = &model.attr.requires;
    let plain: Vec<_> = model
        .params
        .iter()
        .filter_map(|p| match p {
            Param::Plain {
                ident,
                ty,
                doc,
                header,
            } => Some(PlainParam {
                ident,
                ty,
                doc,
                header,
            }),
            _ => None,
        })
        .collect();
    let args_struct = args_struct(&args_ident, &plain);
    let args_type = model.params.iter().find_map(|p| match p {
        Param::Args { inner } => Some(inner.clone()),
        _ => None,
    });
    // The Rust types the schemas come from, as the author wrote them, for the check's message.
    let mut described: Vec<String> = plain
        .iter()
        .map(|p| format!("{}: {}", p.ident, crate::spelling::written(p.ty)))
        .collect();
    if let Some(inner) = &args_type {
        described.push(format!("Args<{}>", crate::spelling::written(inner)));
    }
    if let syn::ReturnType::Type(_, ty) = &item.sig.output {
        described.push(format!("-> {}", crate::spelling::written(ty)));
    }
    let schema_types = described.join(", ");
    let input_schema = match &args_type {
        Some(inner) => {
            quote_spanned!(inner.span()=> <#inner as ::beam_mcp::tool::ToolArgument>::__input_schema())
        }
        None => quote!(::beam_mcp::schema_for::<#args_ident>()),
    };

    let mut prepare = Vec::new();
    let mut call_args = Vec::new();
    let mut states = Vec::new();
    let takes_context = model
        .params
        .iter()
        .any(|p| matches!(p, Param::Extract(e) if e.reads_context));
    if let Some(ms) = &model.attr.time_limit_ms {
        definition.extend(quote!(.with_time_limit(::core::time::Duration::from_millis(#ms))));
    }
    if let Some(variant) = &model.attr.task {
        definition.extend(quote!(.with_task_support(::beam_mcp::TaskSupport::#variant)));
    }
    if args_type.is_none() {
        prepare.push(quote! {
            let __beam_args: #args_ident = ::beam_mcp::__private_v0_1::decode_args(__beam_arguments)?;
        });
    }
    for (i, param) in model.params.iter().enumerate() {
        let local = format_ident!("__beam_p{}", i);
        match param {
            Param::Plain { ident, .. } => {
                let field = field_ident(ident);
                call_args.push(quote!(__beam_args.#field));
            }
            Param::Extract(extractor) => {
                prepare.push(extractor.binding(&local, quote!(__beam_context.__parts())));
                call_args.push(quote!(#local));
                if let Some(inner) = &extractor.state {
                    states.push(state_requirement(inner));
                }
            }
            Param::Args { inner } => {
                prepare.push(quote_spanned! {inner.span()=>
                    let #local = ::beam_mcp::Args(<#inner as ::beam_mcp::tool::ToolArgument>::__from_arguments(__beam_arguments.into_value())?);
                });
                call_args.push(quote!(#local));
            }
        }
    }
    let (output_schema, finish) = match &model.output {
        Output::Content => (
            None,
            finish_through(
                item,
                quote!(::beam_mcp::tool::IntoToolResult),
                |r| quote!(::core::result::Result::Ok(#r::into_tool_result(__beam_out))),
            ),
        ),
        Output::Structured { ty, fallible } => {
            // Both uses name `StructuredOutput` at the return type's span: a type that is not
            // one is a single error there (rustc folds the identical pair).
            let capability =
                quote_spanned!(ty.span()=> <#ty as ::beam_mcp::tool::StructuredOutput>);
            let schema = quote_spanned! {ty.span()=>
                #capability::__output_schema as fn() -> ::beam_mcp::__private_v0_1::serde_json::Value
            };
            let structured_value = quote_spanned!(ty.span()=> #capability::__to_result(&__beam_value, &__beam_context));
            let finish = if *fallible {
                quote! {
                    match __beam_out {
                        ::core::result::Result::Ok(__beam_value) => #structured_value,
                        ::core::result::Result::Err(__beam_error) => ::beam_mcp::__private_v0_1::error(__beam_error),
                    }
                }
            } else {
                quote_spanned!(ty.span()=> #capability::__to_result(&__beam_out, &__beam_context))
            };
            (Some(schema), finish)
        }
    };

    if let Some(schema) = output_schema {
        definition.extend(quote!(.with_output_schema(#schema)));
    }
    definition.extend(quote!(.with_client_capabilities(&[#(#requires),*])));
    // A function that takes no context and no extractor reading one never reads its request's:
    // the core need not make one for a call answered at once.
    definition.extend(quote!(.with_request_read(#takes_context)));
    let tags = &model.attr.tags;
    if !tags.is_empty() {
        definition.extend(quote!(.with_tags(&[#(#tags),*])));
    }
    let scopes = &model.attr.scopes;
    if !scopes.is_empty() {
        definition.extend(quote!(.with_scopes(&[#(#scopes),*])));
    }
    // A named catalog's tool is unique under the name it is mounted by.
    let key = match &model.attr.catalog {
        Some(catalog) => {
            definition.extend(quote!(.with_catalog(#catalog)));
            beam_mcp_rules::namespaced_name(&catalog.value(), name)
        }
        None => name.to_string(),
    };
    let kind = Kind {
        word: "tool",
        def: quote!(::beam_mcp::ToolDef),
        slice: quote!(::beam_mcp::__private_v0_1::TOOLS),
        params: quote! {
            __beam_arguments: ::beam_mcp::tool::Arguments,
            __beam_context: ::beam_mcp::ToolContext,
        },
        output: quote! {
            ::core::result::Result<::beam_mcp::CallToolResult, ::beam_mcp::tool::ToolFault>
        },
        self_state: quote!(
            <::beam_mcp::State<Self> as ::beam_mcp::Extract>::extract(&__beam_context.__parts())?.0
        ),
    };
    let parts = Parts {
        definition,
        states,
        takes_context,
        prepare,
        call_args,
        finish,
        associated: quote! {
            fn #input_schema_fn() -> ::beam_mcp::__private_v0_1::serde_json::Value {
                #input_schema
            }

            // The definition's `handler`: the same, from the arguments as a value.
            fn #by_value(
                __beam_arguments: ::beam_mcp::__private_v0_1::serde_json::Value,
                __beam_context: ::beam_mcp::ToolContext,
            ) -> ::beam_mcp::tool::BoxFuture<
                ::core::result::Result<::beam_mcp::CallToolResult, ::beam_mcp::tool::ToolFault>,
            > {
                Self::#handler(::beam_mcp::tool::Arguments::from(__beam_arguments), __beam_context)
            }
        },
        beside: args_struct,
        unique: crate::unique::marker("tool", &key, model.name_span),
        schema_types: Some(schema_types),
    };
    registered(item, &kind, parts, host)
}

/// A plain parameter, as the argument struct needs it.
struct PlainParam<'a> {
    ident: &'a syn::Ident,
    ty: &'a syn::Type,
    doc: &'a Option<String>,
    header: &'a Option<syn::LitStr>,
}

/// The struct the arguments object decodes into. The host's types never sit directly under
/// serde's and schemars' derives: each field is read and described through `ToolArgument`,
/// named at the parameter's type, so a type lacking a derive is one error of ours there.
fn args_struct(ident: &syn::Ident, plain: &[PlainParam<'_>]) -> TokenStream {
    let mut accessors = Vec::new();
    let fields = plain
        .iter()
        .map(|param| {
            let field = field_ident(param.ident);
            let ty = param.ty;
            let doc = param.doc.as_ref().map(|d| quote!(#[doc = #d]));
            let header = param
                .header
                .as_ref()
                .map(|h| quote!(#[schemars(extend("x-mcp-header" = #h))]));
            // `Option<T>` (by spelling) asks `T` and is optional: absent is `None`, and the
            // property is left out of `required` without a `default` keyword.
            let inner = crate::spelling::wrapper_inner(ty, "Option");
            let (checked, de, schema, optional) = match &inner {
                Some(inner) => (
                    inner,
                    quote!(__deserialize_optional),
                    quote!(__schema_optional),
                    quote!(#[serde(default, skip_serializing_if = "::core::option::Option::is_none")]),
                ),
                None => (ty, quote!(__deserialize), quote!(__schema), quote!()),
            };
            // Both accessors name `ToolArgument` at the same span: a type that is not one is
            // a single error there (rustc folds the identical pair).
            let span = checked.span();
            let capability = quote_spanned!(span=> <#checked as ::beam_mcp::tool::ToolArgument>);
            let name = param.ident.to_string();
            let name = name.trim_start_matches("r#");
            let de_fn = format_ident!("__deserialize_{}", name);
            let schema_fn = format_ident!("__schema_{}", name);
            accessors.push(quote_spanned! {span=>
                fn #de_fn<'de, D: ::beam_mcp::__private_v0_1::serde::Deserializer<'de>>(
                    deserializer: D,
                ) -> ::core::result::Result<#ty, D::Error> {
                    #capability::#de(deserializer)
                }

                fn #schema_fn(
                    generator: &mut ::beam_mcp::__private_v0_1::schemars::SchemaGenerator,
                ) -> ::beam_mcp::__private_v0_1::schemars::Schema {
                    #capability::#schema(generator)
                }
            });
            let de_path = syn::LitStr::new(&format!("{ident}::{de_fn}"), span);
            let schema_path = syn::LitStr::new(&format!("{ident}::{schema_fn}"), span);
            quote! {
                #doc
                #header
                #optional
                #[serde(deserialize_with = #de_path)]
                #[schemars(schema_with = #schema_path)]
                #field: #ty
            }
        })
        .collect::<Vec<_>>();
    quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #[derive(::beam_mcp::__private_v0_1::serde::Deserialize, ::beam_mcp::__private_v0_1::schemars::JsonSchema)]
        #[serde(crate = "::beam_mcp::__private_v0_1::serde", deny_unknown_fields)]
        #[schemars(crate = "::beam_mcp::__private_v0_1::schemars")]
        struct #ident {
            #(#fields,)*
        }

        impl #ident {
            #(#accessors)*
        }
    }
}

/// The field name for a parameter (raw identifiers kept raw).
fn field_ident(ident: &syn::Ident) -> syn::Ident {
    syn::Ident::new(
        &ident.to_string(),
        Span::call_site().located_at(ident.span()),
    )
}

/// The `StateRequirement` for `State<inner>`, spanned on the type.
pub(crate) fn state_requirement(inner: &syn::Type) -> TokenStream {
    quote_spanned! {inner.span()=>
        ::beam_mcp::tool::StateRequirement::of::<#inner>()
    }
}
