//! Which attribute makes an item, and its parsed options whatever the kind.

use proc_macro2::{Span, TokenStream};
use syn::{Attribute, Meta, Path, Signature};

use super::options::{PromptAttr, ResourceAttr, ToolAttr};
use super::text::item_name;

/// The kind of catalog item an attribute makes.
///
/// ```
/// use beam_mcp_rules::attributes::ItemKind;
///
/// let path: syn::Path = syn::parse_str("::beam_mcp::resource").unwrap();
/// assert_eq!(ItemKind::of(&path), Some(ItemKind::Resource));
/// assert_eq!(ItemKind::of(&syn::parse_str("tokio::main").unwrap()), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ItemKind {
    /// `#[tool]`.
    Tool,
    /// `#[resource("uri")]`.
    Resource,
    /// `#[prompt]`.
    Prompt,
}

impl ItemKind {
    /// Every kind, in catalog order.
    ///
    /// ```
    /// use beam_mcp_rules::attributes::ItemKind;
    /// assert_eq!(ItemKind::ALL.map(ItemKind::as_str), ["tool", "resource", "prompt"]);
    /// ```
    pub const ALL: [ItemKind; 3] = [ItemKind::Tool, ItemKind::Resource, ItemKind::Prompt];

    /// The kind an attribute path names: `tool`, `beam_mcp::tool` or `::beam_mcp::tool` (and
    /// the same for `resource` and `prompt`), by spelling; any other path is not an item.
    ///
    /// ```
    /// use beam_mcp_rules::attributes::ItemKind;
    /// let path = |text| syn::parse_str::<syn::Path>(text).unwrap();
    /// assert_eq!(ItemKind::of(&path("prompt")), Some(ItemKind::Prompt));
    /// assert_eq!(ItemKind::of(&path("beam_mcp::tool")), Some(ItemKind::Tool));
    /// assert_eq!(ItemKind::of(&path("::tool")), None);
    /// ```
    pub fn of(path: &Path) -> Option<ItemKind> {
        let words: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        let last = match words.as_slice() {
            [last] if path.leading_colon.is_none() => last,
            [krate, last] if krate == "beam_mcp" => last,
            _ => return None,
        };
        if path.segments.iter().any(|s| !s.arguments.is_none()) {
            return None;
        }
        ItemKind::ALL.into_iter().find(|k| k.as_str() == last)
    }

    /// The attribute's word: `tool`, `resource` or `prompt`.
    ///
    /// ```
    /// assert_eq!(beam_mcp_rules::attributes::ItemKind::Resource.as_str(), "resource");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            ItemKind::Tool => "tool",
            ItemKind::Resource => "resource",
            ItemKind::Prompt => "prompt",
        }
    }
}

/// An item attribute's parsed options, whatever its kind.
///
/// ```
/// use beam_mcp_rules::attributes::{ItemAttr, ItemKind};
///
/// let function: syn::ItemFn =
///     syn::parse_str(r#"#[resource("app://a", mime_type = "text/plain")] fn a() {}"#)?;
/// let attr = ItemAttr::parse(ItemKind::Resource, &function.attrs[0])?;
/// assert_eq!(attr.key(&function.sig).0, "app://a");
/// # Ok::<(), syn::Error>(())
/// ```
#[non_exhaustive]
pub enum ItemAttr {
    /// `#[tool(...)]`.
    Tool(ToolAttr),
    /// `#[resource("uri", ...)]`.
    Resource(ResourceAttr),
    /// `#[prompt(...)]`.
    Prompt(PromptAttr),
}

impl ItemAttr {
    /// The options of `attr`, an attribute of `kind`, parsed as the macro parses them.
    ///
    /// ```
    /// use beam_mcp_rules::attributes::{ItemAttr, ItemKind};
    ///
    /// let function: syn::ItemFn = syn::parse_str("#[tool(fast)] fn t() {}")?;
    /// let error = ItemAttr::parse(ItemKind::Tool, &function.attrs[0]).err().unwrap();
    /// assert!(error.to_string().starts_with("unknown #[tool] option"));
    /// # Ok::<(), syn::Error>(())
    /// ```
    pub fn parse(kind: ItemKind, attr: &Attribute) -> syn::Result<ItemAttr> {
        let tokens = match &attr.meta {
            Meta::Path(_) => TokenStream::new(),
            Meta::List(list) => list.tokens.clone(),
            Meta::NameValue(nv) => {
                let word = kind.as_str();
                return Err(syn::Error::new_spanned(
                    &nv.value,
                    format!("write the options of #[{word}] in parentheses: #[{word}(...)]"),
                ));
            }
        };
        Ok(match kind {
            ItemKind::Tool => ItemAttr::Tool(ToolAttr::parse(tokens)?),
            ItemKind::Resource => ItemAttr::Resource(ResourceAttr::parse(tokens)?),
            ItemKind::Prompt => ItemAttr::Prompt(PromptAttr::parse(tokens)?),
        })
    }

    /// Its kind.
    ///
    /// ```
    /// use beam_mcp_rules::attributes::{ItemAttr, ItemKind};
    ///
    /// let function: syn::ItemFn = syn::parse_str("#[prompt] fn p() {}")?;
    /// let attr = ItemAttr::parse(ItemKind::Prompt, &function.attrs[0])?;
    /// assert_eq!(attr.kind(), ItemKind::Prompt);
    /// # Ok::<(), syn::Error>(())
    /// ```
    pub fn kind(&self) -> ItemKind {
        match self {
            ItemAttr::Tool(_) => ItemKind::Tool,
            ItemAttr::Resource(_) => ItemKind::Resource,
            ItemAttr::Prompt(_) => ItemKind::Prompt,
        }
    }

    /// The item's key in the catalog it is served from and where it was written: a tool's or
    /// prompt's name (the attribute's, else the function's), a resource's URI or URI template
    /// as written; an item of a named catalog (`catalog = "notes"`) under the name it is
    /// mounted by (`notes_search`, `scheme://notes/...`), as `serve!` mounts it.
    ///
    /// ```
    /// use beam_mcp_rules::attributes::{ItemAttr, ItemKind};
    ///
    /// let function: syn::ItemFn = syn::parse_str(r#"#[tool(name = "geo.lookup")] fn lookup() {}"#)?;
    /// let attr = ItemAttr::parse(ItemKind::Tool, &function.attrs[0])?;
    /// assert_eq!(attr.key(&function.sig).0, "geo.lookup");
    ///
    /// let function: syn::ItemFn = syn::parse_str(r#"#[tool(catalog = "notes")] fn search() {}"#)?;
    /// let attr = ItemAttr::parse(ItemKind::Tool, &function.attrs[0])?;
    /// assert_eq!(attr.key(&function.sig).0, "notes_search");
    /// # Ok::<(), syn::Error>(())
    /// ```
    pub fn key(&self, sig: &Signature) -> (String, Span) {
        let (key, span) = match self {
            ItemAttr::Tool(attr) => item_name(attr.name.as_ref(), sig),
            ItemAttr::Prompt(attr) => item_name(attr.name.as_ref(), sig),
            ItemAttr::Resource(attr) => (attr.uri.value(), attr.uri.span()),
        };
        let catalog = match self {
            ItemAttr::Tool(attr) => attr.catalog.as_ref(),
            ItemAttr::Prompt(attr) => attr.catalog.as_ref(),
            ItemAttr::Resource(attr) => attr.catalog.as_ref(),
        };
        let Some(catalog) = catalog else {
            return (key, span);
        };
        let mounted = match self {
            ItemAttr::Resource(_) => crate::namespaced_uri(&catalog.value(), &key).unwrap_or(key),
            _ => crate::namespaced_name(&catalog.value(), &key),
        };
        (mounted, span)
    }

    /// The completers it names (`complete(argument = function)`), in the order written.
    ///
    /// ```
    /// use beam_mcp_rules::attributes::{ItemAttr, ItemKind};
    ///
    /// let function: syn::ItemFn =
    ///     syn::parse_str(r#"#[resource("app://n/{id}", complete(id = ids))] fn n(id: String) {}"#)?;
    /// let attr = ItemAttr::parse(ItemKind::Resource, &function.attrs[0])?;
    /// assert_eq!(attr.completers()[0].argument, "id");
    /// # Ok::<(), syn::Error>(())
    /// ```
    pub fn completers(&self) -> &[super::Completer] {
        match self {
            ItemAttr::Tool(_) => &[],
            ItemAttr::Resource(attr) => &attr.complete,
            ItemAttr::Prompt(attr) => &attr.complete,
        }
    }
}

impl ToolAttr {
    /// The hints that are set, by their option's name, in the order the options are listed
    /// (`read_only`, `destructive`, `idempotent`, `open_world`).
    ///
    /// ```
    /// use beam_mcp_rules::attributes::ToolAttr;
    ///
    /// let attr = ToolAttr::parse("idempotent, read_only = false".parse().unwrap())?;
    /// assert_eq!(attr.hints(), [("read_only", false), ("idempotent", true)]);
    /// # Ok::<(), syn::Error>(())
    /// ```
    pub fn hints(&self) -> Vec<(&'static str, bool)> {
        [
            ("read_only", self.read_only),
            ("destructive", self.destructive),
            ("idempotent", self.idempotent),
            ("open_world", self.open_world),
        ]
        .into_iter()
        .filter_map(|(name, value)| value.map(|v| (name, v)))
        .collect()
    }
}
