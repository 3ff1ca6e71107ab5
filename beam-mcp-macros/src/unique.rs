//! Crate-wide uniqueness at compile time, across modules and files.
//!
//! Each item defines a `#[macro_export]` macro whose name encodes its key. Exported macros
//! all live at the crate root, so a second item with the same key is rustc's E0428 ("the name
//! … is defined multiple times"), with both items' spans shown. The name reads as the fix.

use proc_macro2::{Span, TokenStream};
use quote::quote_spanned;
use syn::Ident;

/// The marker for an item of `kind` (`tool`, `prompt`, `resource`, `template`) keyed by `key`.
pub(crate) fn marker(kind: &str, key: &str, span: Span) -> TokenStream {
    let ident = Ident::new(
        &format!("beam_mcp_{}__declared_twice__rename_one", encode(kind, key)),
        span,
    );
    quote_spanned! {span=>
        #[doc(hidden)]
        #[macro_export]
        macro_rules! #ident {
            () => {};
        }
    }
}

/// `tool_get_weather` for identifier-like keys; `toolhex_<hex>` otherwise. Injective: the
/// two forms differ right after the kind.
fn encode(kind: &str, key: &str) -> String {
    if !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        format!("{kind}_{key}")
    } else {
        let hex: String = key.bytes().map(|b| format!("{b:02x}")).collect();
        format!("{kind}hex_{hex}")
    }
}
