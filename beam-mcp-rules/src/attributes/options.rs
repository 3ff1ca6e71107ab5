//! Parses the options of each attribute: every option by name, each refused with a span when
//! unknown or given twice.

use proc_macro2::TokenStream;
use syn::parse::{ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
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
    /// `icon = "assets/tool.png"` or `icon(src = "...", ...)`, each given once or more.
    pub icons: Vec<IconAttr>,
    /// `ui = "ui://..."` or `ui(resource = "ui://...", visibility = ["app"])`: the MCP Apps
    /// view a host renders for the tool.
    pub ui: Option<UiAttr>,
    /// `catalog = "notes"`: the named catalog it belongs to (mounted under that name).
    pub catalog: Option<LitStr>,
}

/// A tool's link to its MCP Apps view: `ui = "ui://weather/reading"`, or `ui(resource =
/// "ui://weather/reading", visibility = ["app"])`.
///
/// ```
/// use beam_mcp_rules::attributes::ToolAttr;
///
/// let attr = ToolAttr::parse(r#"ui(resource = "ui://weather/reading", visibility = ["app"])"#.parse().unwrap())?;
/// let ui = attr.ui.unwrap();
/// assert_eq!(ui.resource.value(), "ui://weather/reading");
/// assert_eq!(ui.visibility.unwrap().to_string(), "App");
/// assert!(ToolAttr::parse(r#"ui = "app://weather""#.parse().unwrap()).is_err());
/// assert!(ToolAttr::parse(r#"ui(resource = "ui://a", visibility = [])"#.parse().unwrap()).is_err());
/// # Ok::<(), syn::Error>(())
/// ```
#[non_exhaustive]
pub struct UiAttr {
    /// The view's `ui://` URI.
    pub resource: LitStr,
    /// The `Visibility` variant (`ModelAndApp`, `Model`, `App`), when given.
    pub visibility: Option<Ident>,
}

/// An MCP Apps view's options: `app(html = "assets/view.html", csp(connect_domains = [...],
/// resource_domains = [...], frame_domains = [...], base_uri_domains = [...]), permissions =
/// ["camera", ...], domain = "...", prefers_border = true)` on a `ui://` resource (a `ui://`
/// resource is a view, with or without them).
///
/// ```
/// use beam_mcp_rules::attributes::ResourceAttr;
///
/// let attr = ResourceAttr::parse(r#""ui://weather/reading", app(html = "assets/reading.html", csp(connect_domains = ["https://api.example.com"]), prefers_border)"#.parse().unwrap())?;
/// let app = attr.app.unwrap();
/// assert_eq!(app.html.unwrap().value(), "assets/reading.html");
/// assert_eq!(app.connect_domains[0].value(), "https://api.example.com");
/// assert_eq!(app.prefers_border, Some(true));
/// assert!(ResourceAttr::parse(r#""ui://a", app(csp(connect_domains = ["*"]))"#.parse().unwrap()).is_err());
/// assert!(ResourceAttr::parse(r#""docs://a", app(prefers_border)"#.parse().unwrap()).is_err());
/// # Ok::<(), syn::Error>(())
/// ```
#[derive(Default)]
#[non_exhaustive]
pub struct AppAttr {
    /// `html = "assets/view.html"`: a file of the crate (from its root, or from the calling
    /// file's folder when written `./view.html`) embedded as the view.
    pub html: Option<LitStr>,
    /// `csp(connect_domains = [...])`.
    pub connect_domains: Vec<LitStr>,
    /// `csp(resource_domains = [...])`.
    pub resource_domains: Vec<LitStr>,
    /// `csp(frame_domains = [...])`.
    pub frame_domains: Vec<LitStr>,
    /// `csp(base_uri_domains = [...])`.
    pub base_uri_domains: Vec<LitStr>,
    /// `permissions = ["camera", "microphone", "geolocation", "clipboard_write"]`.
    pub permissions: Vec<LitStr>,
    /// `domain = "..."`: a dedicated sandbox origin, in the host's form.
    pub domain: Option<LitStr>,
    /// `prefers_border` (bare is `true`) or `prefers_border = false`.
    pub prefers_border: Option<bool>,
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
    /// `icon = "assets/doc.png"` or `icon(src = "...", ...)`, each given once or more.
    pub icons: Vec<IconAttr>,
    /// `size = 1024`: its size in bytes, when known before it is read.
    pub size: Option<syn::LitInt>,
    /// `catalog = "notes"`: the named catalog it belongs to (mounted under that name).
    pub catalog: Option<LitStr>,
    /// `annotations(audience = ["user"], priority = 0.5, last_modified = "...")`.
    pub annotations: Option<AnnotationsAttr>,
    /// The MCP Apps view's options: `Some` for every `ui://` resource (default options when
    /// `app(...)` is not written).
    pub app: Option<AppAttr>,
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
    /// `icon = "assets/prompt.png"` or `icon(src = "...", ...)`, each given once or more.
    pub icons: Vec<IconAttr>,
    /// `catalog = "notes"`: the named catalog it belongs to (mounted under that name).
    pub catalog: Option<LitStr>,
}

/// One icon: `icon = "assets/a.png"` (a file of the crate, embedded by the macro, or an
/// `https:` URL) or `icon(src = "...", mime_type = "image/png", sizes = ["48x48"], theme =
/// "dark")`. The source's form, the MIME type, the sizes and the theme are checked here; the
/// macro reads the file.
///
/// ```
/// use beam_mcp_rules::attributes::ToolAttr;
///
/// let attr = ToolAttr::parse(r#"icon = "assets/a.png", icon(src = "https://x.example/b.svg", theme = "dark")"#.parse().unwrap())?;
/// assert_eq!(attr.icons.len(), 2);
/// assert!(attr.icons[0].is_file());
/// assert_eq!(attr.icons[1].theme.as_ref().map(|t| t.value()).as_deref(), Some("dark"));
/// assert!(ToolAttr::parse(r#"icon(src = "a.png", mime_type = "image/tiff")"#.parse().unwrap()).is_err());
/// # Ok::<(), syn::Error>(())
/// ```
#[non_exhaustive]
pub struct IconAttr {
    /// Where it is: a path in the crate, or an `https:`/`http:`/`data:` URI.
    pub src: LitStr,
    /// `mime_type = "image/png"`.
    pub mime_type: Option<LitStr>,
    /// `sizes = ["48x48", "any"]`.
    pub sizes: Vec<LitStr>,
    /// `theme = "light" | "dark"`.
    pub theme: Option<LitStr>,
}

impl IconAttr {
    /// True when the source is a file of the crate (no scheme: not a URI): the macro embeds
    /// it.
    ///
    /// ```
    /// use beam_mcp_rules::attributes::PromptAttr;
    /// let attr = PromptAttr::parse(r#"icon = "https://x.example/a.png""#.parse().unwrap())?;
    /// assert!(!attr.icons[0].is_file());
    /// # Ok::<(), syn::Error>(())
    /// ```
    pub fn is_file(&self) -> bool {
        !self.src.value().contains(':')
    }
}

/// `annotations(audience = ["user", "assistant"], priority = 0.5, last_modified =
/// "2025-01-12T15:00:58Z")` on a resource: each part checked here (a known role, a priority
/// from 0 to 1, an RFC 3339 date-time).
///
/// ```
/// use beam_mcp_rules::attributes::ResourceAttr;
///
/// let attr = ResourceAttr::parse(r#""app://a", annotations(priority = 1, last_modified = "2025-01-12T15:00:58Z")"#.parse().unwrap())?;
/// let annotations = attr.annotations.unwrap();
/// assert_eq!(annotations.priority.map(|(p, _)| p), Some(1.0));
/// assert_eq!(annotations.last_modified.map(|(_, at)| at), Some((1_736_694_058, 0)));
/// assert!(ResourceAttr::parse(r#""app://a", annotations(priority = 1.5)"#.parse().unwrap()).is_err());
/// # Ok::<(), syn::Error>(())
/// ```
#[derive(Default)]
#[non_exhaustive]
pub struct AnnotationsAttr {
    /// `audience = ["user", "assistant"]`.
    pub audience: Vec<LitStr>,
    /// `priority = 0.5`: the value and its literal.
    pub priority: Option<(f64, syn::Lit)>,
    /// `last_modified = "..."`: the literal and the moment, as Unix seconds and nanoseconds.
    pub last_modified: Option<(LitStr, (i64, u32))>,
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

const TOOL_OPTIONS: &str = "name = \"...\", title = \"...\", description = \"...\", read_only, destructive, idempotent, open_world, requires(sampling | elicitation | roots, ...), time_limit_ms = N, task = \"optional\" | \"required\", tags = [\"...\", ...], scopes = [\"...\", ...], icon = \"...\", ui = \"ui://...\", catalog = \"...\"";
const RESOURCE_OPTIONS: &str = "name = \"...\", title = \"...\", description = \"...\", mime_type = \"...\", complete(variable = function), tags = [\"...\", ...], scopes = [\"...\", ...], icon = \"...\", size = N, annotations(audience = [...], priority = 0.5, last_modified = \"...\"), app(html = \"...\", csp(...), permissions = [...], domain = \"...\", prefers_border), catalog = \"...\"";
const PROMPT_OPTIONS: &str = "name = \"...\", title = \"...\", description = \"...\", complete(argument = function), tags = [\"...\", ...], scopes = [\"...\", ...], icon = \"...\", catalog = \"...\"";

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
                "icon" => attr.icons.push(icon(&meta)?),
                "ui" => set(&mut attr.ui, ui(&meta)?, &meta)?,
                "catalog" => set(&mut attr.catalog, catalog(&meta)?, &meta)?,
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
            icons: Vec::new(),
            size: None,
            catalog: None,
            annotations: None,
            app: None,
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
                "icon" => attr.icons.push(icon(&meta)?),
                "size" => set(&mut attr.size, size(&meta)?, &meta)?,
                "catalog" => set(&mut attr.catalog, catalog(&meta)?, &meta)?,
                "annotations" => set(&mut attr.annotations, annotations(&meta)?, &meta)?,
                "app" => {
                    let uri = attr.uri.value();
                    crate::app_uri(&uri).map_err(|why| {
                        syn::Error::new_spanned(
                            &attr.uri,
                            format!("app(...) makes this resource an MCP Apps view: {why}"),
                        )
                    })?;
                    set(&mut attr.app, app(&meta)?, &meta)?;
                }
                _ => return Err(unknown(&meta, "resource", RESOURCE_OPTIONS)),
            }
        }
        if attr.uri.value().starts_with("ui://") {
            crate::app_uri(&attr.uri.value())
                .map_err(|why| syn::Error::new_spanned(&attr.uri, why))?;
            attr.app.get_or_insert_with(AppAttr::default);
            if let Some(mime_type) = &attr.mime_type
                && mime_type.value() != crate::APP_MIME_TYPE
            {
                return Err(syn::Error::new_spanned(
                    mime_type,
                    format!(
                        "a ui:// resource is an MCP Apps view, of type {:?}: leave mime_type out",
                        crate::APP_MIME_TYPE
                    ),
                ));
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
                "icon" => attr.icons.push(icon(&meta)?),
                "catalog" => set(&mut attr.catalog, catalog(&meta)?, &meta)?,
                _ => return Err(unknown(&meta, "prompt", PROMPT_OPTIONS)),
            }
        }
        Ok(attr)
    }
}

/// `catalog = "notes"`: a name that can stand as a mount prefix.
fn catalog(meta: &Meta) -> syn::Result<LitStr> {
    let name = string_value(meta)?;
    match crate::prefix_defect(&name.value()) {
        None => Ok(name),
        Some(why) => Err(syn::Error::new_spanned(
            &name,
            format!("a catalog is mounted under its name: {why}"),
        )),
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

/// `icon = "..."` or `icon(src = "...", mime_type = "...", sizes = [...], theme = "...")`.
fn icon(meta: &Meta) -> syn::Result<IconAttr> {
    const HOW: &str = "write an icon as icon = \"assets/icon.png\" (a file of the crate, or an https: URL) or icon(src = \"...\", mime_type = \"image/png\", sizes = [\"48x48\"], theme = \"dark\")";
    let icon = match meta {
        Meta::NameValue(_) => IconAttr {
            src: string_value(meta).map_err(|_| syn::Error::new_spanned(meta, HOW))?,
            mime_type: None,
            sizes: Vec::new(),
            theme: None,
        },
        Meta::List(list) => {
            let mut src = None;
            let mut icon = IconAttr {
                src: LitStr::new("", list.path.span()),
                mime_type: None,
                sizes: Vec::new(),
                theme: None,
            };
            for part in list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)? {
                match key(&part).as_str() {
                    "src" => set(&mut src, string_value(&part)?, &part)?,
                    "mime_type" => set(&mut icon.mime_type, string_value(&part)?, &part)?,
                    "theme" => set(&mut icon.theme, string_value(&part)?, &part)?,
                    "sizes" => strings(&part, &mut icon.sizes, HOW, icon_size_rule)?,
                    _ => {
                        return Err(syn::Error::new_spanned(
                            part.path(),
                            "unknown icon option; the options are: src, mime_type, sizes, theme",
                        ));
                    }
                }
            }
            icon.src = src.ok_or_else(|| syn::Error::new_spanned(meta, HOW))?;
            icon
        }
        Meta::Path(_) => return Err(syn::Error::new_spanned(meta, HOW)),
    };
    let src = icon.src.value();
    if !icon.is_file() {
        crate::icon_source(&src).map_err(|why| syn::Error::new_spanned(&icon.src, why))?;
    } else if src.is_empty() || src.starts_with('/') || src.contains('\\') {
        return Err(syn::Error::new_spanned(
            &icon.src,
            "an icon file is named by its path from the crate's root (its Cargo.toml), with /",
        ));
    }
    if let Some(mime_type) = &icon.mime_type {
        crate::icon_mime_type(&mime_type.value())
            .map_err(|why| syn::Error::new_spanned(mime_type, why))?;
        if let Some(data) = src.strip_prefix("data:")
            && !data.starts_with(&format!("{};", mime_type.value()))
        {
            return Err(syn::Error::new_spanned(
                mime_type,
                "this mime_type is not the type of the icon's data: URI",
            ));
        }
    }
    if let Some(theme) = &icon.theme
        && !["light", "dark"].contains(&theme.value().as_str())
    {
        return Err(syn::Error::new_spanned(
            theme,
            "an icon's theme is \"light\" or \"dark\"",
        ));
    }
    Ok(icon)
}

/// `ui = "ui://..."` or `ui(resource = "ui://...", visibility = [...])`.
fn ui(meta: &Meta) -> syn::Result<UiAttr> {
    const HOW: &str = "link a tool to its view as ui = \"ui://server/view\" or ui(resource = \"ui://server/view\", visibility = [\"model\", \"app\"])";
    let link = match meta {
        Meta::NameValue(_) => UiAttr {
            resource: string_value(meta).map_err(|_| syn::Error::new_spanned(meta, HOW))?,
            visibility: None,
        },
        Meta::List(list) => {
            let mut resource = None;
            let mut visibility = None;
            for part in list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)? {
                match key(&part).as_str() {
                    "resource" => set(&mut resource, string_value(&part)?, &part)?,
                    "visibility" => {
                        let mut who = Vec::new();
                        strings(&part, &mut who, HOW, |w| {
                            if w == "model" || w == "app" {
                                Ok(())
                            } else {
                                Err("a tool is visible to \"model\", \"app\" or both")
                            }
                        })?;
                        let variant = match (
                            who.iter().any(|w| w.value() == "model"),
                            who.iter().any(|w| w.value() == "app"),
                        ) {
                            (true, true) => "ModelAndApp",
                            (true, false) => "Model",
                            _ => "App",
                        };
                        set(&mut visibility, Ident::new(variant, part.span()), &part)?;
                    }
                    _ => {
                        return Err(syn::Error::new_spanned(
                            part.path(),
                            "unknown ui option; the options are: resource, visibility",
                        ));
                    }
                }
            }
            UiAttr {
                resource: resource.ok_or_else(|| syn::Error::new_spanned(meta, HOW))?,
                visibility,
            }
        }
        Meta::Path(_) => return Err(syn::Error::new_spanned(meta, HOW)),
    };
    crate::app_uri(&link.resource.value())
        .map_err(|why| syn::Error::new_spanned(&link.resource, why))?;
    Ok(link)
}

/// `app(html = "...", csp(...), permissions = [...], domain = "...", prefers_border)`, or a
/// bare `app`.
fn app(meta: &Meta) -> syn::Result<AppAttr> {
    const OPTIONS: &str = "unknown app option; the options are: html = \"assets/view.html\", csp(connect_domains = [...], resource_domains = [...], frame_domains = [...], base_uri_domains = [...]), permissions = [\"camera\", ...], domain = \"...\", prefers_border";
    let mut out = AppAttr::default();
    let list = match meta {
        Meta::Path(_) => return Ok(out),
        Meta::List(list) => list,
        Meta::NameValue(_) => {
            return Err(syn::Error::new_spanned(
                meta,
                "write a view's options as app(html = \"assets/view.html\", ...)",
            ));
        }
    };
    for part in list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)? {
        match key(&part).as_str() {
            "html" => {
                let html = string_value(&part)?;
                let path = html.value();
                if path.is_empty()
                    || path.starts_with('/')
                    || path.contains('\\')
                    || path.contains(':')
                {
                    return Err(syn::Error::new_spanned(
                        &html,
                        "a view's HTML file is named by its path from the crate's root (its Cargo.toml), or from this file's folder as ./view.html, with /",
                    ));
                }
                set(&mut out.html, html, &part)?;
            }
            "csp" => csp(&part, &mut out)?,
            "permissions" => strings(
                &part,
                &mut out.permissions,
                "write a view's permissions as permissions = [\"camera\", \"microphone\", \"geolocation\", \"clipboard_write\"]",
                |p| crate::app_permission(p).map(|_| ()),
            )?,
            "domain" => {
                let domain = string_value(&part)?;
                crate::app_domain(&domain.value())
                    .map_err(|why| syn::Error::new_spanned(&domain, why))?;
                set(&mut out.domain, domain, &part)?;
            }
            "prefers_border" => set(&mut out.prefers_border, flag(&part)?, &part)?,
            _ => return Err(syn::Error::new_spanned(part.path(), OPTIONS)),
        }
    }
    Ok(out)
}

/// `csp(connect_domains = [...], resource_domains = [...], frame_domains = [...],
/// base_uri_domains = [...])`: each an origin.
fn csp(meta: &Meta, out: &mut AppAttr) -> syn::Result<()> {
    const HOW: &str = "write a view's origins as csp(connect_domains = [\"https://api.example.com\"], resource_domains = [...], frame_domains = [...], base_uri_domains = [...])";
    let Meta::List(list) = meta else {
        return Err(syn::Error::new_spanned(meta, HOW));
    };
    for part in list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)? {
        let slot = match key(&part).as_str() {
            "connect_domains" => &mut out.connect_domains,
            "resource_domains" => &mut out.resource_domains,
            "frame_domains" => &mut out.frame_domains,
            "base_uri_domains" => &mut out.base_uri_domains,
            _ => {
                return Err(syn::Error::new_spanned(
                    part.path(),
                    "unknown csp option; the options are: connect_domains, resource_domains, frame_domains, base_uri_domains",
                ));
            }
        };
        strings(&part, slot, HOW, crate::csp_source)?;
    }
    Ok(())
}

fn icon_size_rule(size: &str) -> Result<(), &'static str> {
    crate::icon_size(size).map_err(|_| "an icon size is written WxH (\"48x48\") or \"any\"")
}

/// `size = 1024`: a whole number of bytes.
fn size(meta: &Meta) -> syn::Result<syn::LitInt> {
    const HOW: &str = "write a resource's size in bytes as size = 1024";
    let Meta::NameValue(nv) = meta else {
        return Err(syn::Error::new_spanned(meta, HOW));
    };
    match &nv.value {
        Expr::Lit(ExprLit {
            lit: Lit::Int(n), ..
        }) if n.base10_parse::<u64>().is_ok() => Ok(n.clone()),
        other => Err(syn::Error::new_spanned(other, HOW)),
    }
}

/// `annotations(audience = [...], priority = 0.5, last_modified = "...")`.
fn annotations(meta: &Meta) -> syn::Result<AnnotationsAttr> {
    const HOW: &str = "write a resource's annotations as annotations(audience = [\"user\", \"assistant\"], priority = 0.5, last_modified = \"2025-01-12T15:00:58Z\")";
    let Meta::List(list) = meta else {
        return Err(syn::Error::new_spanned(meta, HOW));
    };
    let mut out = AnnotationsAttr::default();
    for part in list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)? {
        match key(&part).as_str() {
            "audience" => strings(&part, &mut out.audience, HOW, |role| {
                if role == "user" || role == "assistant" {
                    Ok(())
                } else {
                    Err("an audience is \"user\" or \"assistant\"")
                }
            })?,
            "priority" => {
                let Meta::NameValue(MetaNameValue {
                    value: Expr::Lit(ExprLit { lit, .. }),
                    ..
                }) = &part
                else {
                    return Err(syn::Error::new_spanned(&part, HOW));
                };
                let value = match lit {
                    Lit::Float(f) => f.base10_parse::<f64>()?,
                    Lit::Int(i) => i.base10_parse::<f64>()?,
                    other => return Err(syn::Error::new_spanned(other, HOW)),
                };
                crate::priority(value).map_err(|why| syn::Error::new_spanned(lit, why))?;
                set(&mut out.priority, (value, lit.clone()), &part)?;
            }
            "last_modified" => {
                let text = string_value(&part)?;
                let moment = crate::timestamp(&text.value())
                    .map_err(|why| syn::Error::new_spanned(&text, why))?;
                set(&mut out.last_modified, (text, moment), &part)?;
            }
            _ => {
                return Err(syn::Error::new_spanned(
                    part.path(),
                    "unknown annotation; the annotations are: audience, priority, last_modified",
                ));
            }
        }
    }
    Ok(out)
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
