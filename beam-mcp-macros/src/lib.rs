//! Procedural macros for beam-mcp. Use them through the `beam_mcp` crate
//! (`#[beam_mcp::tool]`); the generated code names only `::beam_mcp::...` paths.
//!
//! One pipeline, one file per stage: `attr.rs` parses the attribute, `ast.rs` builds the typed
//! model of the function (and refuses what cannot be a tool, with a span on the culprit), and
//! `expand.rs` writes the definition, the schema and the typed dispatch.

mod ast;
mod attr;
mod expand;
mod names;

use proc_macro::TokenStream;

/// Turns a free function into an MCP tool.
///
/// The doc comment is the description; parameters are the tool's arguments (any type serde
/// and schemars can describe; `Option<T>` is not required), except `State<T>` (host state) and
/// `Args<T>` (the whole argument object as one struct). See the `beam_mcp` crate docs.
///
/// Options: `name = "..."`, `title = "..."`, `description = "..."`, and the hints
/// `read_only`, `destructive`, `idempotent`, `open_world` (each also as `= false`).
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item2 = proc_macro2::TokenStream::from(item.clone());
    match attr::ToolAttr::parse(attr.into())
        .and_then(|attr| ast::ToolFn::parse(attr, item2.clone()))
    {
        Ok(model) => expand::tool(&model).into(),
        Err(error) => {
            // Keep the function so one bad attribute does not cascade into "cannot find
            // function" errors wherever it is called.
            let mut out = error.to_compile_error();
            out.extend(item2);
            out.into()
        }
    }
}
