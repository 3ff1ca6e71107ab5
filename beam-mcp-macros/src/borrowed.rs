//! Borrowed parameters, refused in a few lines naming the owned type to take. An argument is
//! read from a request the call does not keep, and an extractor is handed over by value, so
//! `&str` or `&Context` can never work; left to rustc, each is dozens of lines about lifetimes
//! and `Deserialize<'de>` that never name the fix.

use syn::{GenericArgument, PathArguments, Type};

use crate::spelling::{is_context, wrapper_inner, written};

/// The refusal for an extractor taken by reference (`&Context`, `&mut State<T>`), if it is one.
pub(crate) fn extractor_by_reference(ty: &Type) -> Option<String> {
    let Type::Reference(reference) = ty else {
        return None;
    };
    let inner = &*reference.elem;
    (is_context(inner) || wrapper_inner(inner, "State").is_some()).then(|| {
        let inner = written(inner);
        format!("take `{inner}` by value: an extractor is handed to the call, not lent")
    })
}

/// For a `kind` parameter whose type borrows (`&str`, `Option<&str>`, `&[u8]`): the owned
/// type to take instead, and the refusal naming it; `None` for an owned type.
pub(crate) fn borrowed_argument(ty: &Type, kind: &str) -> Option<(Type, String)> {
    let mut changed = false;
    let owned = owned(ty, &mut changed);
    changed.then(|| {
        let refusal = format!(
            "take `{}` instead of `{}`: a {kind} is read into an owned value, because the request it comes from is not kept for the call",
            written(&owned),
            written(ty)
        );
        (owned, refusal)
    })
}

/// `ty` with every borrow rewritten into the owned type serde reads (`&str` into `String`,
/// `&[T]` into `Vec<T>`, `&T` into `T`); `changed` is set when there was one. Lifetimes inside
/// generic arguments (`Cow<'a, str>`) are left alone: such a type owns when it must.
fn owned(ty: &Type, changed: &mut bool) -> Type {
    match ty {
        Type::Reference(reference) => {
            *changed = true;
            match owned(&reference.elem, changed) {
                Type::Path(path) if path.qself.is_none() && path.path.is_ident("str") => {
                    syn::parse_quote!(String)
                }
                Type::Slice(slice) => {
                    let item = &*slice.elem;
                    syn::parse_quote!(Vec<#item>)
                }
                other => other,
            }
        }
        Type::Path(path) => {
            let mut path = path.clone();
            for segment in path.path.segments.iter_mut() {
                if let PathArguments::AngleBracketed(args) = &mut segment.arguments {
                    for arg in args.args.iter_mut() {
                        if let GenericArgument::Type(inner) = arg {
                            *inner = owned(inner, changed);
                        }
                    }
                }
            }
            Type::Path(path)
        }
        Type::Slice(slice) => {
            let mut slice = slice.clone();
            *slice.elem = owned(&slice.elem, changed);
            Type::Slice(slice)
        }
        Type::Array(array) => {
            let mut array = array.clone();
            *array.elem = owned(&array.elem, changed);
            Type::Array(array)
        }
        Type::Tuple(tuple) => {
            let mut tuple = tuple.clone();
            for elem in tuple.elems.iter_mut() {
                *elem = owned(elem, changed);
            }
            Type::Tuple(tuple)
        }
        Type::Paren(paren) => owned(&paren.elem, changed),
        Type::Group(group) => owned(&group.elem, changed),
        other => other.clone(),
    }
}
