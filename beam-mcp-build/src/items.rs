//! The catalog the crate declares: every function under `#[tool]`, `#[resource]` or
//! `#[prompt]`, its attribute read by the macros' own parser, and the duplicates no macro can
//! see.

use std::collections::BTreeMap;

use beam_mcp_connectome::Labels;
use beam_mcp_rules::UriTemplate;
use beam_mcp_rules::attributes::{ItemAttr, ItemKind};

use crate::error::{Duplicate, Place, ScanError};
use crate::index::{FnId, Index};
use crate::spell::line;

/// One item of the declared catalog.
///
/// ```
/// # fn main() -> Result<(), beam_mcp_build::ScanError> {
/// # let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tree");
/// let declared = beam_mcp_build::connectome("srv").manifest_dir(dir).crate_name("tree").scan()?;
/// let item = &declared.items[0];
/// assert_eq!((item.kind, item.key.as_str()), (beam_mcp_build::ItemKind::Tool, "root_tool"));
/// assert_eq!(item.function, "tree::root_tool");
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DeclaredItem {
    /// Tool, resource or prompt.
    pub kind: ItemKind,
    /// The name (tools, prompts) or the URI or URI template as written (resources).
    pub key: String,
    /// The function, `module::name` (`weather::resources::station`).
    pub function: String,
    /// Where the key was written.
    pub place: Place,
    /// The node's labels: a tool's hints that are set (`{"read_only": true}`), else none.
    pub labels: Labels,
    /// The OAuth scopes it declares (`scopes = ["notes:write"]`), as written.
    pub scopes: Vec<String>,
}

/// An item with what the graph needs: its function and its completers.
pub(crate) struct Found {
    pub(crate) item: DeclaredItem,
    pub(crate) function: FnId,
    pub(crate) attr: ItemAttr,
}

/// Every annotated function's item, in module-tree order, refused in the macro's words when
/// its attribute is wrong.
pub(crate) fn collect(index: &Index) -> Result<Vec<Found>, ScanError> {
    let mut found = Vec::with_capacity(index.annotated.len());
    for annotated in &index.annotated {
        let Some(def) = index.fns.get(annotated.function) else {
            continue;
        };
        let file = index
            .tree
            .modules
            .get(def.module)
            .map(|m| m.file.clone())
            .unwrap_or_default();
        let attr = ItemAttr::parse(annotated.kind, &annotated.attr).map_err(|e| {
            let mut start = e.span().start();
            if e.span().byte_range() == (0..0) {
                // The call site: the macro's error covers the whole attribute, as rustc shows.
                start = annotated.attr.pound_token.span.start();
            }
            ScanError::ItemAttribute {
                file: file.clone(),
                line: start.line,
                column: start.column + 1,
                kind: annotated.kind,
                message: e.to_string(),
            }
        })?;
        let (key, span) = attr.key(&def.sig);
        let mut labels = Labels::new();
        if let ItemAttr::Tool(tool) = &attr {
            for (hint, value) in tool.hints() {
                labels.insert(hint.to_owned(), value.into());
            }
        }
        let scopes = match &attr {
            ItemAttr::Tool(a) => a.scopes.as_slice(),
            ItemAttr::Resource(a) => a.scopes.as_slice(),
            ItemAttr::Prompt(a) => a.scopes.as_slice(),
            _ => &[],
        }
        .iter()
        .map(syn::LitStr::value)
        .collect();
        let item = DeclaredItem {
            kind: annotated.kind,
            key: key.clone(),
            function: index.fn_name(annotated.function),
            place: Place {
                file: file.clone(),
                line: line(span),
                written: key,
            },
            labels,
            scopes,
        };
        found.push(Found {
            item,
            function: annotated.function,
            attr,
        });
    }
    Ok(found)
}

/// Each second item with a key already taken: a tool name, a prompt name, a resource URI (or
/// a template matching the same URIs as another, `{a}` and `{b}` alike).
pub(crate) fn duplicates(items: &[Found]) -> Vec<Duplicate> {
    let mut first: BTreeMap<(ItemKind, String), &Place> = BTreeMap::new();
    let mut out = Vec::new();
    for found in items {
        let item = &found.item;
        let key = match item.kind {
            ItemKind::Resource => match UriTemplate::parse(&item.key) {
                Ok(template) if !template.is_static() => format!("template {}", template.shape()),
                _ => format!("uri {}", item.key),
            },
            _ => item.key.clone(),
        };
        match first.get(&(item.kind, key.clone())) {
            Some(place) => out.push(Duplicate {
                kind: item.kind,
                first: (*place).clone(),
                second: item.place.clone(),
            }),
            None => {
                first.insert((item.kind, key), &item.place);
            }
        }
    }
    out
}
