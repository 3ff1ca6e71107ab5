//! The one parser of beam-mcp's item attributes (`#[tool]`, `#[resource]`, `#[prompt]`) and
//! the one derivation of an item's name and description, shared by the macros (which expand
//! the items) and the build-time scan (which lists them for the declared connectome), so both
//! read an attribute the same way and refuse it with the same words.
//!
//! Behind the `attributes` feature; the runtime does without it.
//!
//! ```
//! use beam_mcp_rules::attributes::{ItemAttr, ItemKind};
//!
//! let function: syn::ItemFn = syn::parse_str(
//!     "/// Read the weather.\n#[beam_mcp::tool(read_only)] fn get_weather(place: String) {}",
//! )?;
//! let attr = &function.attrs[1];
//! let kind = ItemKind::of(attr.path()).unwrap();
//! assert_eq!(kind, ItemKind::Tool);
//! let parsed = ItemAttr::parse(kind, attr)?;
//! assert_eq!(parsed.key(&function.sig).0, "get_weather");
//! # Ok::<(), syn::Error>(())
//! ```

mod item;
mod options;
mod text;

pub use item::{ItemAttr, ItemKind};
pub use options::{
    AnnotationsAttr, AppAttr, Completer, IconAttr, PromptAttr, ResourceAttr, ToolAttr, UiAttr,
};
pub use text::{description, doc_text, fn_name, item_name};
