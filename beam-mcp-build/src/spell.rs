//! Code spelled back as text for names in the bound and in errors: tokens joined without the
//! spaces `to_string` puts everywhere (`stations.0.get(place.as_str())`, `Vec<u8>`), and
//! places as `file:line`.

use std::path::Path;

use proc_macro2::{Delimiter, Spacing, Span, TokenStream, TokenTree};
use quote::ToTokens;

/// The node's tokens, compactly.
pub(crate) fn spell(node: &impl ToTokens) -> String {
    let mut out = String::new();
    write(node.to_token_stream(), &mut out);
    out.trim_end().to_owned()
}

fn write(tokens: TokenStream, out: &mut String) {
    let mut operator = String::new();
    for token in tokens {
        if let TokenTree::Punct(punct) = &token {
            operator.push(punct.as_char());
            if punct.spacing() == Spacing::Alone {
                push_operator(out, &std::mem::take(&mut operator));
            }
            continue;
        }
        push_operator(out, &std::mem::take(&mut operator));
        match token {
            TokenTree::Group(group) => {
                let (open, close) = match group.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("", ""),
                };
                out.push_str(open);
                write(group.stream(), out);
                out.push_str(close);
            }
            TokenTree::Ident(ident) => push_word(out, &ident.to_string()),
            TokenTree::Literal(literal) => push_word(out, &literal.to_string()),
            TokenTree::Punct(_) => {}
        }
    }
    push_operator(out, &operator);
}

/// Binary and arrow operators spaced (`feature = "x"`, `a == b`, `-> T`), the rest joined
/// (`a::b`, `x?`, `&mut`), a space after `,` and `;`.
fn push_operator(out: &mut String, operator: &str) {
    const SPACED: &[&str] = &[
        "=", "==", "!=", "=>", "+=", "-=", "*=", "/=", "%=", "&&", "||", "<=", ">=", "->",
    ];
    if operator.is_empty() {
        return;
    }
    if SPACED.contains(&operator) {
        if !out.is_empty() && !out.ends_with(' ') {
            out.push(' ');
        }
        out.push_str(operator);
        out.push(' ');
    } else {
        out.push_str(operator);
        if operator == "," || operator == ";" {
            out.push(' ');
        }
    }
}

/// A word, with a space before it when it follows another (`mut x`, `dyn Trait`, `x as u8`).
fn push_word(out: &mut String, text: &str) {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '"';
    if let (Some(last), Some(next)) = (out.chars().last(), text.chars().next())
        && word(last)
        && (word(next) || next == '\'')
    {
        out.push(' ');
    }
    out.push_str(text);
}

/// The 1-based line a span starts on, in the file it was parsed from.
pub(crate) fn line(span: Span) -> usize {
    span.start().line
}

/// `file:line`, with `/` between path components whatever the platform.
pub(crate) fn place(file: &Path, line: usize) -> String {
    format!("{}:{line}", slashed(file))
}

/// A relative path with `/` separators.
pub(crate) fn slashed(file: &Path) -> String {
    let parts: Vec<String> = file
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::spell;

    #[test]
    fn spells_compactly() {
        let expr: syn::Expr = syn::parse_str("stations . 0 . get ( place . as_str ( ) )").unwrap();
        assert_eq!(spell(&expr), "stations.0.get(place.as_str())");
        let ty: syn::Type = syn::parse_str("Vec < & 'a mut u8 >").unwrap();
        assert_eq!(spell(&ty), "Vec<&'a mut u8>");
        let meta: syn::Meta = syn::parse_str(r#"all(feature = "x", not(unix))"#).unwrap();
        assert_eq!(spell(&meta), r#"all(feature = "x", not(unix))"#);
        let expr: syn::Expr = syn::parse_str("x as u8 == y").unwrap();
        assert_eq!(spell(&expr), "x as u8 == y");
    }
}
