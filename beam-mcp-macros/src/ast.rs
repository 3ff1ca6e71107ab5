//! The typed model of a `#[tool]` function, with every refusal spanned on its culprit.

use crate::borrowed::borrowed_argument;
use crate::errors::Errors;
use crate::extractor::Extractor;
use crate::spelling::{last_ident, wrapper_inner};
use beam_mcp_rules::attributes::{ToolAttr, description, doc_text, item_name};
use beam_mcp_rules::{Message, header_name_defect, valid_tool_name};
use syn::spanned::Spanned;
use syn::{
    FnArg, GenericArgument, Ident, ItemFn, LitStr, Pat, PathArguments, ReturnType, Signature, Type,
};

/// A parsed, checked tool function.
pub(crate) struct ToolFn {
    pub(crate) attr: ToolAttr,
    pub(crate) item: ItemFn,
    pub(crate) name: String,
    /// Where the name was written (the attribute's literal, else the function's name).
    pub(crate) name_span: proc_macro2::Span,
    pub(crate) description: String,
    pub(crate) params: Vec<Param>,
    pub(crate) output: Output,
    /// Its icons, embedded (`const { &[Icon, ..] }`), when it has any.
    pub(crate) icons: Option<proc_macro2::TokenStream>,
}

/// One parameter of the tool function.
// A handful per function, built once at compile time: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Param {
    /// A plain argument: a property of the input schema.
    Plain {
        ident: Ident,
        ty: Type,
        doc: Option<String>,
        /// `#[header("Name")]`: the property's `x-mcp-header`.
        header: Option<LitStr>,
    },
    /// Taken from the request (`#[extract]`, `State<T>`, `Context`).
    Extract(Extractor),
    /// `Args<T>`: the whole argument object.
    Args { inner: Type },
}

/// How the return value becomes a result.
pub(crate) enum Output {
    /// Text, content or a `CallToolResult` (through `IntoToolResult`), `Result`s of those included.
    Content,
    /// Structured: `T` (the value's type) becomes `structuredContent` and the `outputSchema`.
    Structured { ty: Box<Type>, fallible: bool },
}

impl ToolFn {
    /// The model, or every fault of the item at once. `attr` is the attribute's parse: when
    /// it failed, the checks that need its options (name, description) are left out rather
    /// than guessed at, and the signature is still checked.
    pub(crate) fn parse(
        attr: syn::Result<ToolAttr>,
        mut item: ItemFn,
        method: bool,
    ) -> syn::Result<Self> {
        let mut errors = Errors::default();
        let attr = errors.take(attr);
        check_signature(&item.sig, "tool", method, &mut errors);
        let sig = &item.sig;
        let (name, name_span) = item_name(attr.as_ref().and_then(|a| a.name.as_ref()), sig);
        let description = match &attr {
            Some(attr) => description(attr.description.as_ref(), &item.attrs),
            None => String::new(),
        };
        if attr.is_some() {
            if !valid_tool_name(&name) {
                let message = Message::InvalidToolName { name: name.clone() };
                errors.at(name_span, message);
            }
            if description.is_empty() {
                let message = Message::MissingDescription {
                    kind: "tool",
                    name: name.clone(),
                };
                errors.at(sig.ident.span(), message);
            }
        }
        let mut params = Vec::new();
        for input in item.sig.inputs.iter_mut() {
            if let Some(param) = parse_param(input, &mut errors) {
                params.push(param);
            }
        }
        check_params(&params, &mut errors);
        check_headers(&params, &mut errors);
        let output = parse_output(&item.sig.output);
        let icons = attr
            .as_ref()
            .and_then(|a| crate::icons::icons(&a.icons, &mut errors));
        if let Some(link) = attr.as_ref().and_then(|a| a.ui.as_ref()) {
            crate::views::check_declared(&link.resource, &mut errors);
        }
        errors.finish()?;
        Ok(ToolFn {
            attr: attr.expect("a failed attribute is an error above"),
            item,
            name,
            name_span,
            description,
            params,
            output,
            icons,
        })
    }
}

/// The refusals every annotated function shares: no generics, const or variadics; a free
/// function takes no `self`, a method (`method`) takes `&self`.
pub(crate) fn check_signature(sig: &Signature, kind: &str, method: bool, errors: &mut Errors) {
    let generic = format!(
        "a #[{kind}] function cannot be generic: its schema is computed once, for concrete types"
    );
    if !sig.generics.params.is_empty() {
        errors.spanned(&sig.generics, &generic);
    } else if let Some(clause) = &sig.generics.where_clause {
        errors.spanned(clause, &generic);
    }
    if let Some(c) = &sig.constness {
        errors.at(c.span, format!("a #[{kind}] function cannot be const"));
    }
    if let Some(v) = &sig.variadic {
        errors.at(v.span(), format!("a #[{kind}] function cannot be variadic"));
    }
    match (sig.inputs.first(), method) {
        (Some(FnArg::Receiver(r)), false) => errors.at(
            r.span(),
            format!("a #[{kind}] is a free function; it cannot take self (put it in a #[beam_mcp::items] impl block to take &self)"),
        ),
        (Some(FnArg::Receiver(r)), true) if r.reference.is_none() || r.mutability.is_some() => {
            errors.at(
                r.span(),
                format!("a #[{kind}] method takes &self: the state is shared by every call (keep what changes behind a lock or an atomic)"),
            );
        }
        (Some(FnArg::Receiver(_)), true) => {}
        (_, true) => errors.at(
            sig.ident.span(),
            format!("a #[{kind}] in a #[beam_mcp::items] impl block takes &self; without it, make it a free function"),
        ),
        (_, false) => {}
    }
}

/// The parameter's name when its pattern is a plain name, else `refusal` on the pattern.
pub(crate) fn plain_name(pat: &Pat, refusal: &str) -> syn::Result<Ident> {
    match pat {
        Pat::Ident(p) if p.subpat.is_none() => Ok(p.ident.clone()),
        other => Err(syn::Error::new(other.span(), refusal)),
    }
}

/// Header names are valid tokens, unique ignoring case, on integer, string or boolean types.
fn check_headers(params: &[Param], errors: &mut Errors) {
    let mut seen: Vec<&LitStr> = Vec::new();
    for param in params {
        let Param::Plain {
            ident,
            ty,
            header: Some(header),
            ..
        } = param
        else {
            continue;
        };
        let name = header.value();
        if let Some(reason) = header_name_defect(&name) {
            errors.at(header.span(), Message::HeaderName { name, reason });
            continue;
        }
        if let Some(first) = seen.iter().find(|h| h.value().eq_ignore_ascii_case(&name)) {
            let message = Message::HeaderRepeated {
                first: first.value(),
                second: name,
            };
            errors.at(header.span(), message);
            continue;
        }
        if !is_header_type(ty) {
            let message = Message::HeaderType {
                parameter: ident.to_string(),
            };
            errors.spanned(ty, message);
            continue;
        }
        seen.push(header);
    }
}

/// Integers, strings and booleans, optional or not, by spelling (an alias is refused rather
/// than guessed at; the startup check reads the schema and would catch a wrong guess).
fn is_header_type(ty: &Type) -> bool {
    let ty = wrapper_inner(ty, "Option").unwrap_or_else(|| ty.clone());
    matches!(
        last_ident(&ty).as_deref(),
        Some(
            "String"
                | "str"
                | "bool"
                | "i8"
                | "i16"
                | "i32"
                | "i64"
                | "isize"
                | "u8"
                | "u16"
                | "u32"
                | "u64"
                | "usize"
        )
    )
}

/// Plain parameters, or one `Args<T>`: the error points at the parameter to move or remove.
fn check_params(params: &[Param], errors: &mut Errors) {
    let mut args = params.iter().filter_map(|p| match p {
        Param::Args { inner } => Some(inner),
        _ => None,
    });
    if args.next().is_none() {
        return;
    }
    for second in args {
        errors.spanned(
            second,
            "a tool takes one Args<T>: merge these fields into the first Args struct",
        );
    }
    for param in params {
        if let Param::Plain { ident, .. } = param {
            errors.at(
                ident.span(),
                format!(
                    "a tool takes either plain parameters or one Args<T>, not both: move `{ident}` into the Args struct, or take every argument as a plain parameter"
                ),
            );
        }
    }
}

/// The parameter's model, or `None` with its faults recorded.
fn parse_param(input: &mut FnArg, errors: &mut Errors) -> Option<Param> {
    let typed = match input {
        // Refused by `check_signature`.
        FnArg::Receiver(_) => return None,
        FnArg::Typed(typed) => typed,
    };
    if let Some(extractor) = Extractor::classify(typed, errors) {
        return Some(Param::Extract(extractor));
    }
    if let Some(inner) = wrapper_inner(&typed.ty, "Args") {
        if let Some((_, refusal)) = borrowed_argument(&inner, "tool argument") {
            errors.spanned(&inner, refusal);
            return None;
        }
        return Some(Param::Args { inner });
    }
    if let Some((_, refusal)) = borrowed_argument(&typed.ty, "tool argument") {
        errors.spanned(&typed.ty, refusal);
        return None;
    }
    let doc = {
        let text = doc_text(&typed.attrs);
        (!text.trim().is_empty()).then(|| text.trim().to_owned())
    };
    let mut header = None;
    for attr in typed.attrs.iter().filter(|a| a.path().is_ident("header")) {
        if header.is_some() {
            errors.spanned(attr, "one #[header] per parameter");
            continue;
        }
        match attr.parse_args::<LitStr>() {
            Ok(name) => header = Some(name),
            Err(e) => errors.at(e.span(), "write the header name as #[header(\"Name\")]"),
        }
    }
    // Doc comments and #[header] describe the property; the compiler would refuse them here.
    typed
        .attrs
        .retain(|a| !a.path().is_ident("doc") && !a.path().is_ident("header"));
    let ident = errors.take(plain_name(
        &typed.pat,
        "a tool argument is a plain name (`place: String`); destructure only State<T> or Args<T>",
    ))?;
    Some(Param::Plain {
        ident,
        ty: (*typed.ty).clone(),
        doc,
        header,
    })
}

/// True for the types that become content through `IntoToolResult`.
fn is_content(ty: &Type) -> bool {
    match ty {
        Type::Tuple(t) if t.elems.is_empty() => true,
        Type::ImplTrait(_) => true,
        _ => match last_ident(ty).as_deref() {
            Some("String" | "str" | "Cow" | "Content" | "CallToolResult") => true,
            Some("Vec") => wrapper_inner(ty, "Vec")
                .is_some_and(|inner| last_ident(&inner).as_deref() == Some("Content")),
            _ => false,
        },
    }
}

fn parse_output(output: &ReturnType) -> Output {
    let ty = match output {
        ReturnType::Default => return Output::Content,
        ReturnType::Type(_, ty) => &**ty,
    };
    if let Some(ok) = result_ok_type(ty) {
        return if is_content(ok) {
            Output::Content
        } else {
            Output::Structured {
                ty: Box::new(ok.clone()),
                fallible: true,
            }
        };
    }
    if is_content(ty) {
        Output::Content
    } else {
        Output::Structured {
            ty: Box::new(ty.clone()),
            fallible: false,
        }
    }
}

/// `T` of `Result<T, ..>` (by the path's last segment).
fn result_ok_type(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != "Result" {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(ok) => Some(ok),
        _ => None,
    }
}
