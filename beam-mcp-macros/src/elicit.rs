//! `#[derive(Elicit)]`: a struct of flat fields becomes a form (`Elicit`), an enum of unit
//! variants a choice one of its fields can hold (`ElicitField`). Anything else is refused, every
//! fault at once, each on its own span.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields};

pub(crate) fn derive(input: DeriveInput) -> syn::Result<TokenStream> {
    let name = &input.ident;
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new(
            input.generics.span(),
            "Elicit cannot be derived for a generic type: a form's fields must be known types",
        ));
    }
    match &input.data {
        Data::Struct(data) => {
            let Fields::Named(fields) = &data.fields else {
                return Err(syn::Error::new(
                    data.fields
                        .span()
                        .join(name.span())
                        .unwrap_or_else(|| name.span()),
                    "Elicit needs a struct with named fields: each field is one field of the form",
                ));
            };
            // One check per field, spanned on its type, so rustc names the field at fault.
            let checks = fields.named.iter().map(|field| {
                let ty = &field.ty;
                quote_spanned! {ty.span()=>
                    let () = <#ty as ::beam_mcp::ElicitField>::__FIELD;
                }
            });
            Ok(quote! {
                const _: () = {
                    #[allow(dead_code)]
                    fn __elicit_fields() {
                        #(#checks)*
                        ::beam_mcp::__private_v0_1::elicit_derives::<#name>();
                    }
                };
                impl ::beam_mcp::__private_v0_1::DerivedElicit for #name {}
            })
        }
        Data::Enum(data) => {
            let mut errors: Option<syn::Error> = None;
            for variant in &data.variants {
                if !matches!(variant.fields, Fields::Unit) {
                    let error = syn::Error::new(
                        variant.span(),
                        format!(
                            "Elicit on an enum makes a choice, so every variant must be a unit variant; `{}` carries data",
                            variant.ident
                        ),
                    );
                    match &mut errors {
                        Some(all) => all.combine(error),
                        None => errors = Some(error),
                    }
                }
            }
            if let Some(errors) = errors {
                return Err(errors);
            }
            if data.variants.is_empty() {
                return Err(syn::Error::new(
                    name.span(),
                    "Elicit on an enum makes a choice, and an enum without variants offers none",
                ));
            }
            Ok(quote! {
                const _: () = {
                    #[allow(dead_code)]
                    fn __elicit_choice() {
                        ::beam_mcp::__private_v0_1::elicit_derives::<#name>();
                    }
                };
                impl ::beam_mcp::ElicitField for #name {}
                impl ::beam_mcp::ElicitChoice for #name {}
            })
        }
        Data::Union(data) => Err(syn::Error::new(
            data.union_token.span,
            "Elicit cannot be derived for a union: use a struct of flat fields",
        )),
    }
}
