//! What a type is, read from how it is spelled (the last path segment): the macros run before
//! types are resolved, so `State<T>`, `Context`, `Option<T>` and friends are recognised by
//! name, and an alias is refused or taken as written rather than guessed at.

use syn::{GenericArgument, PathArguments, Type};

/// True when `ty` is the request context (`Context`, `beam_mcp::Context`: by the path's last
/// segment, without generic arguments).
pub(crate) fn is_context(ty: &Type) -> bool {
    let Type::Path(path) = ty else { return false };
    path.qself.is_none()
        && path
            .path
            .segments
            .last()
            .is_some_and(|last| last.ident == "Context" && last.arguments.is_none())
}

/// `T` when `ty` is `Wrapper<T>` (by the path's last segment).
pub(crate) fn wrapper_inner(ty: &Type, wrapper: &str) -> Option<Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != wrapper {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(t) if args.args.len() == 1 => Some(t.clone()),
        _ => None,
    }
}

/// The last path segment's name (through references, parentheses and groups).
pub(crate) fn last_ident(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        Type::Reference(r) => last_ident(&r.elem),
        Type::Paren(p) => last_ident(&p.elem),
        Type::Group(g) => last_ident(&g.elem),
        _ => None,
    }
}

/// A type as its author wrote it, for messages: `Vec<Option<Tree>>`, not the token stream's
/// `Vec < Option < Tree > >`.
pub(crate) fn written(ty: &Type) -> String {
    let spaced = quote::ToTokens::to_token_stream(ty).to_string();
    let mut out = String::with_capacity(spaced.len());
    let mut chars = spaced.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ' ' {
            let next = chars.peek().copied();
            let prev = out.chars().last();
            let tight = matches!(next, Some('<' | '>' | ',' | ':' | ')' | ']'))
                || matches!(prev, Some('<' | ':' | '(' | '[' | '&'));
            if tight {
                continue;
            }
        }
        out.push(c);
    }
    out
}
