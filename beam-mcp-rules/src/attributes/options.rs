//! Parses the options of each attribute: every option by name, each refused with a span when
//! unknown or given twice.

use proc_macro2::TokenStream;
use syn::parse::{ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Expr, ExprLit, Ident, Lit, LitStr, Meta, MetaNameValue, Path, Token};

/// The options of `#[tool(...)]`, each as written (with its span).
///
/// ```
/// use beam_mcp_rules::attributes::ToolAttr;
///
/// let tokens = r#"read_only, name = "get_weather""#.parse().unwrap();
/// let attr = ToolAttr::parse(tokens)?;
/// assert_eq!(attr.read_only, Some(true));
/// assert_eq!(attr.name.map(|n| n.value()).as_deref(), Some("get_weather"));
/// assert!(ToolAttr::parse("fast".parse().unwrap()).is_err());
/// # Ok::<(), syn::Error>(())
/// ```
#[derive(Default)]
#[non_exhaustive]
pub struct ToolAttr {
    /// `name = "..."`: the tool's name, if not the function's.
    pub name: Option<LitStr>,
    /// `title = "..."`.
    pub title: Option<LitStr>,
    /// `description = "..."`, if not the doc comment.
    pub description: Option<LitStr>,
    /// The `read_only` hint, when set (bare is `true`).
    pub read_only: Option<bool>,
    /// The `destructive` hint, when set.
    pub destructive: Option<bool>,
    /// The `idempotent` hint, when set.
    pub idempotent: Option<bool>,
    /// The `open_world` hint, when set.
    pub open_world: Option<bool>,
    /// `requires(sampling, ...)`: client capabilities a call needs.
    pub requires: Vec<LitStr>,
    /// `time_limit_ms = 500`: the call's time limit.
    pub time_limit_ms: Option<syn::LitInt>,
    /// `task = "optional"`: whether a call may become a task (the `TaskSupport` variant).
    pub task: Option<syn::Ident>,
    /// `tags = ["admin", ...]`: labels for the host's middleware and listing filters.
    pub tags: Vec<LitStr>,
    /// `scopes = ["notes:write", ...]`: the OAuth scopes a caller needs (RFC 6749 scope tokens).
    pub scopes: Vec<LitStr>,
}

/// The options of `#[resource("uri", ...)]`.
///
/// ```
/// use beam_mcp_rules::attributes::ResourceAttr;
///
/// let attr = ResourceAttr::parse(r#""app://notes/{id}", mime_type = "text/plain""#.parse().unwrap())?;
/// assert_eq!(attr.uri.value(), "app://notes/{id}");
/// assert!(ResourceAttr::parse(Default::default()).is_err());
/// # Ok::<(), syn::Error>(())
/// ```
#[non_exhaustive]
pub struct ResourceAttr {
    /// The URI or URI template, as written.
    pub uri: LitStr,
    /// `name = "..."`, if not the function's.
    pub name: Option<LitStr>,
    /// `title = "..."`.
    pub title: Option<LitStr>,
    /// `description = "..."`, if not the doc comment.
    pub description: Option<LitStr>,
    /// `mime_type = "..."`.
    pub mime_type: Option<LitStr>,
    /// `complete(variable = function)`, in the order written.
    pub complete: Vec<Completer>,
    /// `tags = ["admin", ...]`: labels for the host's middleware and listing filters.
    pub tags: Vec<LitStr>,
    /// `scopes = ["notes:write", ...]`: the OAuth scopes a caller needs (RFC 6749 scope tokens).
    pub scopes: Vec<LitStr>,
}

/// The options of `#[prompt(...)]`.
///
/// ```
/// use beam_mcp_rules::attributes::PromptAttr;
///
/// let attr = PromptAttr::parse("complete(place = complete_place)".parse().unwrap())?;
/// assert_eq!(attr.complete[0].argument, "place");
/// # Ok::<(), syn::Error>(())
/// ```
#[derive(Default)]
#[non_exhaustive]
pub struct PromptAttr {
    /// `name = "..."`, if not the function's.
    pub name: Option<LitStr>,
    /// `title = "..."`.
    pub title: Option<LitStr>,
    /// `description = "..."`, if not the doc comment.
    pub description: Option<LitStr>,
    /// `complete(argument = function)`, in the order written.
    pub complete: Vec<Completer>,
    /// `tags = ["admin", ...]`: labels for the host's middleware and listing filters.
    pub tags: Vec<LitStr>,
    /// `scopes = ["notes:write", ...]`: the OAuth scopes a caller needs (RFC 6749 scope tokens).
    pub scopes: Vec<LitStr>,
}

/// `complete(argument = path::to::completer)`.
///
/// ```
/// use beam_mcp_rules::attributes::PromptAttr;
///
/// let attr = PromptAttr::parse("complete(topic = crate::done::topics)".parse().unwrap())?;
/// let completer = &attr.complete[0];
/// assert_eq!(completer.argument, "topic");
/// assert_eq!(completer.function.segments.len(), 3);
/// # Ok::<(), syn::Error>(())
/// ```
#[non_exhaustive]
pub struct Completer {
    /// The argument (or template variable) it completes.
    pub argument: Ident,
    /// The completer function, by its path as written.
    pub function: Path,
}

const TOOL_OPTIONS: &str = "name = \"...\", title = \"...\", description = \"...\", read_only, destructive, idempotent, open_world, requires(sampling | elicitation | roots, ...), time_limit_ms = N, task = \"optional\" | \"required\", tags = [\"...\", ...], scopes = [\"...\", ...]";
const RESOURCE_OPTIONS: &str = "name = \"...\", title = \"...\", description = \"...\", mime_type = \"...\", complete(variable = function), tags = [\"...\", ...], scopes = [\"...\", ...]";
const PROMPT_OPTIONS: &str = "name = \"...\", title = \"...\", description = \"...\", complete(argument = function), tags = [\"...\", ...], scopes = [\"...\", ...]";

impl ToolAttr {
    /// The options from the attribute's tokens (inside the parentheses), or the first mistake,
    /// spanned on its culprit.
    ///
    /// ```
    /// use beam_mcp_rules::attributes::ToolAttr;
    /// let attr = ToolAttr::parse(r#"title = "Weather", open_world = false"#.parse().unwrap())?;
    /// assert_eq!(attr.open_world, Some(false));
    /// # Ok::<(), syn::Error>(())
    /// ```
    pub fn parse(tokens: TokenStream) -> syn::Result<Self> {
        let mut attr = ToolAttr::default();
        for meta in Punctuated::<Meta, Token![,]>::parse_terminated.parse2(tokens)? {
            match key(&meta).as_str() {
                "name" => set(&mut attr.name, string_value(&meta)?, &meta)?,
                "title" => set(&mut attr.title, string_value(&meta)?, &meta)?,
                "description" => set(&mut attr.description, string_value(&meta)?, &meta)?,
                "read_only" => set(&mut attr.read_only, flag(&meta)?, &meta)?,
                "destructive" => set(&mut attr.destructive, flag(&meta)?, &meta)?,
                "idempotent" => set(&mut attr.idempotent, flag(&meta)?, &meta)?,
                "open_world" => set(&mut attr.open_world, flag(&meta)?, &meta)?,
                "requires" => requires(&meta, &mut attr.requires)?,
                "time_limit_ms" => set(&mut attr.time_limit_ms, milliseconds(&meta)?, &meta)?,
                "task" => set(&mut attr.task, task_support(&meta)?, &meta)?,
                "tags" => tags(&meta, &mut attr.tags)?,
                "scopes" => scopes(&meta, &mut attr.scopes)?,
                _ => return Err(unknown(&meta, "tool", TOOL_OPTIONS)),
            }
        }
        Ok(attr)
    }
}

impl ResourceAttr {
    /// The URI and options from the attribute's tokens, or the first mistake, spanned on its
    /// culprit.
    ///
    /// ```
    /// use beam_mcp_rules::attributes::ResourceAttr;
    /// let attr = ResourceAttr::parse(r#""app://readme", title = "Readme""#.parse().unwrap())?;
    /// assert_eq!(attr.title.unwrap().value(), "Readme");
    /// # Ok::<(), syn::Error>(())
    /// ```
    pub fn parse(tokens: TokenStream) -> syn::Result<Self> {
        let parser = |input: ParseStream| {
            if !input.peek(LitStr) {
                const MESSAGE: &str = "a #[resource] starts with its URI or URI template: #[resource(\"app://notes/{id}\")]";
                // Not `input.error`, which prefixes "unexpected end of input" when empty.
                return Err(syn::Error::new(input.span(), MESSAGE));
            }
            let uri: LitStr = input.parse()?;
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
            let metas = Punctuated::<Meta, Token![,]>::parse_terminated(input)?;
            Ok((uri, metas))
        };
        let (uri, metas) = parser.parse2(tokens)?;
        let mut attr = ResourceAttr {
            uri,
            name: None,
            title: None,
            description: None,
            mime_type: None,
            complete: Vec::new(),
            tags: Vec::new(),
            scopes: Vec::new(),
        };
        for meta in metas {
            match key(&meta).as_str() {
                "name" => set(&mut attr.name, string_value(&meta)?, &meta)?,
                "title" => set(&mut attr.title, string_value(&meta)?, &meta)?,
                "description" => set(&mut attr.description, string_value(&meta)?, &meta)?,
                "mime_type" => set(&mut attr.mime_type, string_value(&meta)?, &meta)?,
                "complete" => completers(&meta, &mut attr.complete)?,
                "tags" => tags(&meta, &mut attr.tags)?,
                "scopes" => scopes(&meta, &mut attr.scopes)?,
                _ => return Err(unknown(&meta, "resource", RESOURCE_OPTIONS)),
            }
        }
        Ok(attr)
    }
}

impl PromptAttr {
    /// The options from the attribute's tokens, or the first mistake, spanned on its culprit.
    ///
    /// ```
    /// use beam_mcp_rules::attributes::PromptAttr;
    /// let attr = PromptAttr::parse(r#"name = "plan""#.parse().unwrap())?;
    /// assert_eq!(attr.name.unwrap().value(), "plan");
    /// # Ok::<(), syn::Error>(())
    /// ```
    pub fn parse(tokens: TokenStream) -> syn::Result<Self> {
        let mut attr = PromptAttr::default();
        for meta in Punctuated::<Meta, Token![,]>::parse_terminated.parse2(tokens)? {
            match key(&meta).as_str() {
                "name" => set(&mut attr.name, string_value(&meta)?, &meta)?,
                "title" => set(&mut attr.title, string_value(&meta)?, &meta)?,
                "description" => set(&mut attr.description, string_value(&meta)?, &meta)?,
                "complete" => completers(&meta, &mut attr.complete)?,
                "tags" => tags(&meta, &mut attr.tags)?,
                "scopes" => scopes(&meta, &mut attr.scopes)?,
                _ => return Err(unknown(&meta, "prompt", PROMPT_OPTIONS)),
            }
        }
        Ok(attr)
    }
}

fn key(meta: &Meta) -> String {
    meta.path()
        .get_ident()
        .map(|i| i.to_string())
        .unwrap_or_default()
}

fn unknown(meta: &Meta, item: &str, options: &str) -> syn::Error {
    syn::Error::new_spanned(
        meta.path(),
        format!("unknown #[{item}] option; the options are: {options}"),
    )
}

fn set<T>(slot: &mut Option<T>, value: T, meta: &Meta) -> syn::Result<()> {
    if slot.is_some() {
        return Err(syn::Error::new_spanned(
            meta,
            "this option is given twice; keep one",
        ));
    }
    *slot = Some(value);
    Ok(())
}

fn string_value(meta: &Meta) -> syn::Result<LitStr> {
    match meta {
        Meta::NameValue(nv) => match &nv.value {
            Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) => Ok(s.clone()),
            other => Err(syn::Error::new_spanned(other, "expected a string literal")),
        },
        _ => Err(syn::Error::new_spanned(meta, "expected `key = \"...\"`")),
    }
}

/// `task = "optional" | "required" | "forbidden"`: the `TaskSupport` variant.
fn task_support(meta: &Meta) -> syn::Result<syn::Ident> {
    const HOW: &str =
        "write task = \"optional\" (a task when the client supports tasks) or task = \"required\"";
    let value = string_value(meta).map_err(|_| syn::Error::new_spanned(meta, HOW))?;
    let variant = match value.value().as_str() {
        "optional" => "Optional",
        "required" => "Required",
        "forbidden" => "Forbidden",
        _ => return Err(syn::Error::new_spanned(&value, HOW)),
    };
    Ok(syn::Ident::new(variant, value.span()))
}

/// `time_limit_ms = 500`: a whole number of milliseconds above zero.
fn milliseconds(meta: &Meta) -> syn::Result<syn::LitInt> {
    const HOW: &str = "write the time limit as time_limit_ms = 500 (milliseconds, above zero)";
    let Meta::NameValue(nv) = meta else {
        return Err(syn::Error::new_spanned(meta, HOW));
    };
    match &nv.value {
        Expr::Lit(ExprLit {
            lit: Lit::Int(n), ..
        }) if n.base10_parse::<u64>().is_ok_and(|n| n > 0) => Ok(n.clone()),
        other => Err(syn::Error::new_spanned(other, HOW)),
    }
}

/// A bare flag (`read_only`) or `read_only = true|false`.
fn flag(meta: &Meta) -> syn::Result<bool> {
    match meta {
        Meta::Path(_) => Ok(true),
        Meta::NameValue(nv) => match &nv.value {
            Expr::Lit(ExprLit {
                lit: Lit::Bool(b), ..
            }) => Ok(b.value),
            other => {
                let hint = key(meta);
                Err(syn::Error::new_spanned(
                    other,
                    format!(
                        "expected true or false: write the hint bare (`{hint}`) or as `{hint} = false`"
                    ),
                ))
            }
        },
        Meta::List(list) => {
            let hint = key(meta);
            Err(syn::Error::new(
                list.delimiter.span().join(),
                format!("a hint is written bare (`{hint}`) or as `{hint} = false`"),
            ))
        }
    }
}

/// `complete(a = f, b = g)`, each argument once.
fn completers(meta: &Meta, out: &mut Vec<Completer>) -> syn::Result<()> {
    let Meta::List(list) = meta else {
        return Err(syn::Error::new_spanned(
            meta,
            "write completions as complete(argument = function)",
        ));
    };
    let pairs = list.parse_args_with(Punctuated::<MetaNameValue, Token![,]>::parse_terminated)?;
    for pair in pairs {
        let Some(argument) = pair.path.get_ident().cloned() else {
            return Err(syn::Error::new_spanned(
                &pair.path,
                "name the argument to complete: complete(argument = function)",
            ));
        };
        let Expr::Path(function) = pair.value else {
            return Err(syn::Error::new_spanned(
                &pair.value,
                "a completer is named by its path: complete(argument = function)",
            ));
        };
        if out.iter().any(|c| c.argument == argument) {
            return Err(syn::Error::new(
                argument.span(),
                "this argument already has a completer; keep one",
            ));
        }
        out.push(Completer {
            argument,
            function: function.path,
        });
    }
    Ok(())
}

/// `requires(sampling, roots)`: each a client capability, once.
/// `tags = ["admin", "billing"]`: each a non-empty string, once; the option given once.
fn tags(meta: &Meta, out: &mut Vec<LitStr>) -> syn::Result<()> {
    let how = "write the item's tags as tags = [\"admin\", ...]";
    strings(meta, out, how, |tag| {
        if tag.is_empty() {
            Err("a tag is not empty")
        } else {
            Ok(())
        }
    })
}

/// `scopes = ["notes:write"]`: each an RFC 6749 scope token, once; the option given once.
fn scopes(meta: &Meta, out: &mut Vec<LitStr>) -> syn::Result<()> {
    let how = "write the scopes a caller needs as scopes = [\"notes:write\", ...]";
    strings(meta, out, how, |scope| {
        // RFC 6749 §3.3: %x21 / %x23-5B / %x5D-7E.
        let token = !scope.is_empty()
            && scope
                .bytes()
                .all(|b| b == 0x21 || (0x23..=0x5B).contains(&b) || (0x5D..=0x7E).contains(&b));
        if token {
            Ok(())
        } else {
            Err(
                "a scope is an RFC 6749 scope token: printable ASCII without space, quote or backslash",
            )
        }
    })
}

/// A list option of string literals, each accepted by `check`, none twice; the option given
/// once.
fn strings(
    meta: &Meta,
    out: &mut Vec<LitStr>,
    how: &str,
    check: impl Fn(&str) -> Result<(), &'static str>,
) -> syn::Result<()> {
    if !out.is_empty() {
        return Err(syn::Error::new_spanned(
            meta,
            "this option is given twice; keep one",
        ));
    }
    let Meta::NameValue(MetaNameValue {
        value: Expr::Array(array),
        ..
    }) = meta
    else {
        return Err(syn::Error::new_spanned(meta, how));
    };
    for element in &array.elems {
        let Expr::Lit(ExprLit {
            lit: Lit::Str(word),
            ..
        }) = element
        else {
            return Err(syn::Error::new_spanned(element, how));
        };
        check(&word.value()).map_err(|why| syn::Error::new_spanned(word, why))?;
        if out.iter().any(|t| t.value() == word.value()) {
            return Err(syn::Error::new_spanned(
                word,
                "this value is given twice; keep one",
            ));
        }
        out.push(word.clone());
    }
    if out.is_empty() {
        return Err(syn::Error::new_spanned(meta, how));
    }
    Ok(())
}

fn requires(meta: &Meta, out: &mut Vec<LitStr>) -> syn::Result<()> {
    let Meta::List(list) = meta else {
        return Err(syn::Error::new_spanned(
            meta,
            "write the client capabilities a tool needs as requires(sampling, elicitation, roots)",
        ));
    };
    let names = list.parse_args_with(Punctuated::<Ident, Token![,]>::parse_terminated)?;
    for name in names {
        let text = name.to_string();
        if !["sampling", "elicitation", "roots"].contains(&text.as_str()) {
            let message = crate::Message::ClientCapability { name: text };
            return Err(syn::Error::new(name.span(), message.to_string()));
        }
        if out.iter().any(|l| l.value() == text) {
            return Err(syn::Error::new(
                name.span(),
                "this capability is named twice; keep one",
            ));
        }
        out.push(LitStr::new(&text, name.span()));
    }
    Ok(())
}
