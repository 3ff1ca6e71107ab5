//! Procedural macros for beam-mcp. Use them through the `beam_mcp` crate
//! (`#[beam_mcp::tool]`, `#[beam_mcp::resource]`, `#[beam_mcp::prompt]`); the generated code
//! names only `::beam_mcp::...` paths.
//!
//! One pipeline per item, one file per stage: `beam_mcp_rules::attributes` parses the
//! attribute (the one parser, shared with the build-time scan of `beam-mcp-build`); `ast.rs`
//! (tools), `resource.rs` and `prompt.rs` build the typed model of the function and refuse
//! what cannot be that item, with a span on the culprit and the wording of `beam_mcp_rules`;
//! `expand.rs` (tools), `resource.rs` and `prompt.rs` write the definition and the typed
//! dispatch; `unique.rs` makes a repeated name a compile error across the whole crate.

mod ast;
mod borrowed;
mod completion;
mod elicit;
mod errors;
mod expand;
mod extractor;
mod icons;
mod items;
mod prompt;
mod resource;
mod skeleton;
mod skills;
mod spelling;
mod unique;
mod views;

use beam_mcp_rules::attributes::{PromptAttr, ResourceAttr, ToolAttr};
use proc_macro::TokenStream;
use skeleton::Host;

/// Turns a free function into an MCP tool.
///
/// The doc comment is the description; parameters are the tool's arguments (any type serde
/// and schemars can describe; `Option<T>` is not required), except `State<T>` (host state) and
/// `Args<T>` (the whole argument object as one struct). A parameter marked
/// `#[header("Name")]` carries `x-mcp-header` (sent by HTTP clients as `Mcp-Param-Name`).
/// See the `beam_mcp` crate docs.
///
/// Options: `name = "..."`, `title = "..."`, `description = "..."`, the hints
/// `read_only`, `destructive`, `idempotent`, `open_world` (each also as `= false`), and
/// `icon = "assets/tool.png"` (a file of the crate, embedded; or an `https:` URL), once or more,
/// as [`icon!`] takes it.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item2 = proc_macro2::TokenStream::from(item);
    let expanded = syn::parse2(item2.clone())
        .and_then(|item| ast::ToolFn::parse(ToolAttr::parse(attr.into()), item, false))
        .map(|model| expand::tool(&model, Host::Free).outer);
    finish(expanded, item2)
}

/// Turns a free function into an MCP resource reader: `#[resource("app://notes/{id}")]`.
///
/// The first argument is the URI, or a URI template in the supported subset (`{name}` is one
/// path segment, `{+name}` any text). Each template variable binds the parameter of the same
/// name (any `FromStr` type; one that does not parse reads as "not found"); `State<T>` takes
/// host state. Options: `name`, `title`, `description`, `mime_type`,
/// `complete(variable = function)`, `icon` (as on `#[tool]`), `size = N` (bytes, a resource
/// only) and `annotations(audience = ["user", "assistant"], priority = 0.5, last_modified =
/// "2025-01-12T15:00:58Z")`, each checked at compile time.
#[proc_macro_attribute]
pub fn resource(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item2 = proc_macro2::TokenStream::from(item);
    let expanded = syn::parse2(item2.clone())
        .and_then(|item| resource::ResourceFn::parse(ResourceAttr::parse(attr.into()), item, false))
        .map(|model| model.expand(Host::Free).outer);
    finish(expanded, item2)
}

/// Turns a free function into an MCP prompt.
///
/// Parameters are the prompt's arguments: `String` (required) or `Option<String>`, described
/// by their doc comments; `State<T>` takes host state. Options: `name`, `title`,
/// `description`, `complete(argument = function)` and `icon` (as on `#[tool]`).
#[proc_macro_attribute]
pub fn prompt(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item2 = proc_macro2::TokenStream::from(item);
    let expanded = syn::parse2(item2.clone())
        .and_then(|item| prompt::PromptFn::parse(PromptAttr::parse(attr.into()), item, false))
        .map(|model| model.expand(Host::Free).outer);
    finish(expanded, item2)
}

/// Collects the `#[tool]`, `#[resource]` and `#[prompt]` methods of an `impl` block: each
/// takes `&self`, which is the host state of the block's type (set it with
/// `ServerBuilder::state`), and is checked as a free function would be.
///
/// The block gains `TOOLS`, `RESOURCES` and `PROMPTS` (every definition of the block, for
/// `ServerBuilder::tools` and its siblings) and one constant per item (`FIND_TOOL` for
/// `fn find`); `serve!` finds them as it finds free functions. The type must be `Clone`
/// (keep shared data behind an `Arc`) and the block not generic.
#[proc_macro_attribute]
pub fn items(attr: TokenStream, item: TokenStream) -> TokenStream {
    items::expand(attr.into(), item.into()).into()
}

/// One icon, as a constant `beam_mcp::Icon`: `icon!("assets/logo.png")` embeds a file of the
/// crate (its path from the crate's root) as a `data:` URI, with its MIME type and pixel size
/// read from its bytes; `icon!("https://example.com/logo.svg")` names one served elsewhere.
/// The full form sets the rest: `icon!(src = "assets/logo.svg", theme = "dark", sizes =
/// ["any"], mime_type = "image/svg+xml")`.
///
/// At compile time, a missing file, one over 64 KiB, one whose bytes are not the image its
/// extension or `mime_type` says, and `sizes` other than its pixel size are errors.
#[proc_macro]
pub fn icon(input: TokenStream) -> TokenStream {
    match icons::icon_macro(input.into()) {
        Ok(tokens) => tokens.into(),
        Err(error) => error.to_compile_error().into(),
    }
}

/// A folder of agent skills (the Skills extension), embedded at compile time, as
/// `&'static [beam_mcp::skill::SkillDef]` for `ServerBuilder::skills`:
/// `beam_mcp::skills!("skills")`, the folder named from the crate's root, or
/// `beam_mcp::skills!("./skills")`, from the folder of the file calling it (as `include_str!`).
///
/// Each folder under it holding a `SKILL.md` is a skill (nested ones too), served at
/// `skill://<its path>/SKILL.md`; every file of its folder is one of its files (hidden files and
/// symbolic links are left out). The frontmatter is read at compile time (scalars, quoted
/// strings, `|` and `>` blocks, lists and maps of scalars) and checked: `name` is the folder's
/// name and a skill name (1 to 64 lowercase letters, digits and single hyphens),
/// `description` is present and at most 1024 characters, `compatibility` at most 500. File and
/// folder names are letters, digits, `-`, `.`, `_` and `~` (each stands in a `skill://` URI as it
/// is); a skill has at most 512 files and 16 MiB. A file that changes rebuilds the crate; a file
/// or folder *added* is picked up at the crate's next build (cargo cannot watch a folder for a
/// macro: touch a source file, or give the crate a `build.rs` printing
/// `cargo:rerun-if-changed=skills`).
#[proc_macro]
pub fn skills(input: TokenStream) -> TokenStream {
    let calling_file = proc_macro::Span::call_site().local_file();
    match skills::skills_macro(input.into(), calling_file) {
        Ok(tokens) => tokens.into(),
        Err(error) => error.to_compile_error().into(),
    }
}

/// Makes a type something host code can ask the user for (`Context::elicit`).
///
/// On a struct with named fields: a form. Every field must be a string, a number, a boolean or
/// an enum that derives `Elicit` (unit variants only), each optional or not; any other field is
/// a compile error on that field. The type also derives `serde::Deserialize` and
/// `schemars::JsonSchema`, which give the requested schema. On an enum of unit variants: a
/// choice a form field can hold.
#[proc_macro_derive(Elicit)]
pub fn derive_elicit(item: TokenStream) -> TokenStream {
    match syn::parse::<syn::DeriveInput>(item).and_then(elicit::derive) {
        Ok(tokens) => tokens.into(),
        Err(error) => error.to_compile_error().into(),
    }
}

/// The expansion, or the error followed by the untouched function, so one mistake does not
/// cascade into "cannot find function" errors wherever it is called.
fn finish(
    expanded: syn::Result<proc_macro2::TokenStream>,
    item: proc_macro2::TokenStream,
) -> TokenStream {
    match expanded {
        Ok(tokens) => tokens.into(),
        Err(error) => {
            let mut out = error.to_compile_error();
            out.extend(without_parameter_attributes(item));
            out.into()
        }
    }
}

/// The function without the parameter attributes only the macros understand.
fn without_parameter_attributes(item: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    let Ok(mut function) = syn::parse2::<syn::ItemFn>(item.clone()) else {
        return item;
    };
    skeleton::strip_parameter_attributes(&mut function.sig);
    quote::ToTokens::into_token_stream(function)
}
