//! Writes a tool's definition, input schema and typed dispatch from the checked model.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{Output, Param, ToolFn};

pub(crate) fn tool(model: &ToolFn) -> TokenStream {
    let item = &model.item;
    let vis = &item.vis;
    let fn_ident = &item.sig.ident;
    let def_ident = fn_ident.clone();
    let args_ident = format_ident!(
        "__beam_mcp_args_{}",
        fn_ident.to_string().trim_start_matches("r#")
    );
    let registration = format_ident!(
        "__BEAM_MCP_TOOL_{}",
        fn_ident.to_string().trim_start_matches("r#").to_uppercase()
    );

    let name = &model.name;
    let description = &model.description;
    let title = option_str(model.attr.title.as_ref().map(|t| t.value()));
    let hint = |v: Option<bool>| match v {
        Some(b) => quote!(::core::option::Option::Some(#b)),
        None => quote!(::core::option::Option::None),
    };
    let read_only = hint(model.attr.read_only);
    let destructive = hint(model.attr.destructive);
    let idempotent = hint(model.attr.idempotent);
    let open_world = hint(model.attr.open_world);
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
    let input_schema = match &args_type {
        Some(inner) => {
            quote_spanned!(inner.span()=> <#inner as ::beam_mcp::tool::ToolArgument>::__input_schema())
        }
        None => quote!(::beam_mcp::schema_for::<#args_ident>()),
    };

    let mut prepare = Vec::new();
    let mut call_args = Vec::new();
    let mut states = Vec::new();
    let takes_context = model.params.iter().any(|p| matches!(p, Param::Context));
    let time_limit = match &model.attr.time_limit_ms {
        Some(ms) => quote!(::core::option::Option::Some(::core::time::Duration::from_millis(#ms))),
        None => quote!(::core::option::Option::None),
    };
    let task_support = match &model.attr.task {
        Some(variant) => quote!(::beam_mcp::TaskSupport::#variant),
        None => quote!(::beam_mcp::TaskSupport::Forbidden),
    };
    if args_type.is_none() {
        prepare.push(quote! {
            let __beam_args: #args_ident = ::beam_mcp::__private::decode_args(__beam_arguments)?;
        });
    }
    for (i, param) in model.params.iter().enumerate() {
        let local = format_ident!("__beam_p{}", i);
        match param {
            Param::Plain { ident, .. } => {
                let field = field_ident(ident);
                call_args.push(quote!(__beam_args.#field));
            }
            Param::State { inner } => {
                prepare.push(quote_spanned! {inner.span()=>
                    let #local = ::beam_mcp::State(::beam_mcp::__private::state::<#inner>(&__beam_context)?);
                });
                call_args.push(quote!(#local));
                states.push(state_requirement(inner));
            }
            Param::Args { inner } => {
                prepare.push(quote_spanned! {inner.span()=>
                    let #local = ::beam_mcp::Args(<#inner as ::beam_mcp::tool::ToolArgument>::__from_arguments(__beam_arguments)?);
                });
                call_args.push(quote!(#local));
            }
            Param::Context => {
                prepare.push(quote! {
                    let #local = ::beam_mcp::__private::context(&__beam_context);
                });
                call_args.push(quote!(#local));
            }
        }
    }
    // A synchronous function runs on the blocking pool: a slow one holds up neither the
    // timer of its time limit nor other requests.
    let invoke = if model.is_async() {
        quote!(#fn_ident(#(#call_args),*).await)
    } else {
        quote!(::beam_mcp::__private::blocking(move || #fn_ident(#(#call_args),*)).await)
    };
    let (output_schema, finish) = match &model.output {
        Output::Content => {
            let capability = match &item.sig.output {
                syn::ReturnType::Type(_, ty) => {
                    quote_spanned!(ty.span()=> <#ty as ::beam_mcp::tool::IntoToolResult>)
                }
                syn::ReturnType::Default => quote!(<() as ::beam_mcp::tool::IntoToolResult>),
            };
            (
                quote!(::core::option::Option::None),
                quote!(::core::result::Result::Ok(#capability::into_tool_result(__beam_out))),
            )
        }
        Output::Structured { ty, fallible } => {
            // Both uses name `StructuredOutput` at the return type's span: a type that is not
            // one is a single error there (rustc folds the identical pair).
            let capability =
                quote_spanned!(ty.span()=> <#ty as ::beam_mcp::tool::StructuredOutput>);
            let schema = quote_spanned! {ty.span()=>
                ::core::option::Option::Some(#capability::__output_schema as fn() -> ::beam_mcp::__private::serde_json::Value)
            };
            let structured_value = quote_spanned!(ty.span()=> #capability::__to_result(&__beam_value, &__beam_context));
            let finish = if *fallible {
                quote! {
                    match __beam_out {
                        ::core::result::Result::Ok(__beam_value) => #structured_value,
                        ::core::result::Result::Err(__beam_error) => ::beam_mcp::__private::error(__beam_error),
                    }
                }
            } else {
                quote_spanned!(ty.span()=> #capability::__to_result(&__beam_out, &__beam_context))
            };
            (schema, finish)
        }
    };

    let unique = crate::unique::marker("tool", name, model.name_span);
    let doc = format!(
        "The MCP tool definition of [`{fn_ident}()`]: pass `{fn_ident}::DEF` to `ServerBuilder::tool`."
    );
    quote! {
        #item

        #args_struct

        #[doc = #doc]
        #[allow(non_camel_case_types)]
        #vis struct #def_ident {}

        impl #def_ident {
            /// The tool's definition.
            #vis const DEF: ::beam_mcp::ToolDef = ::beam_mcp::ToolDef {
                name: #name,
                title: #title,
                description: #description,
                annotations: ::beam_mcp::ToolAnnotations {
                    read_only: #read_only,
                    destructive: #destructive,
                    idempotent: #idempotent,
                    open_world: #open_world,
                },
                input_schema: Self::__beam_input_schema,
                output_schema: #output_schema,
                handler: Self::__beam_handler,
                states: &[#(#states),*],
                client_capabilities: &[#(#requires),*],
                takes_context: #takes_context,
                time_limit: #time_limit,
                task_support: #task_support,
                module_path: ::core::module_path!(),
                location: (::core::file!(), ::core::line!()),
            };

            fn __beam_input_schema() -> ::beam_mcp::__private::serde_json::Value {
                #input_schema
            }

            #[allow(unused_variables)]
            fn __beam_handler(
                __beam_arguments: ::beam_mcp::__private::serde_json::Value,
                __beam_context: ::beam_mcp::ToolContext,
            ) -> ::beam_mcp::tool::BoxFuture<
                ::core::result::Result<::beam_mcp::CallToolResult, ::beam_mcp::tool::ToolFault>,
            > {
                ::std::boxed::Box::pin(async move {
                    #(#prepare)*
                    let __beam_out = #invoke;
                    #finish
                })
            }
        }

        #[::beam_mcp::__private::linkme::distributed_slice(::beam_mcp::__private::TOOLS)]
        #[linkme(crate = ::beam_mcp::__private::linkme)]
        #[allow(non_upper_case_globals)]
        static #registration: ::beam_mcp::ToolDef = #def_ident::DEF;

        #unique
    }
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
            let inner = crate::ast::wrapper_inner(ty, "Option");
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
                fn #de_fn<'de, D: ::beam_mcp::__private::serde::Deserializer<'de>>(
                    deserializer: D,
                ) -> ::core::result::Result<#ty, D::Error> {
                    #capability::#de(deserializer)
                }

                fn #schema_fn(
                    generator: &mut ::beam_mcp::__private::schemars::SchemaGenerator,
                ) -> ::beam_mcp::__private::schemars::Schema {
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
        #[derive(::beam_mcp::__private::serde::Deserialize, ::beam_mcp::__private::schemars::JsonSchema)]
        #[serde(crate = "::beam_mcp::__private::serde", deny_unknown_fields)]
        #[schemars(crate = "::beam_mcp::__private::schemars")]
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

fn option_str(value: Option<String>) -> TokenStream {
    match value {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

/// The `StateRequirement` for `State<inner>`, spanned on the type.
pub(crate) fn state_requirement(inner: &syn::Type) -> TokenStream {
    quote_spanned! {inner.span()=>
        ::beam_mcp::tool::StateRequirement {
            type_id: ::core::any::TypeId::of::<#inner>,
            type_name: ::core::any::type_name::<#inner>,
        }
    }
}
