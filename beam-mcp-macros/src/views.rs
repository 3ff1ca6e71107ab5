//! A tool's MCP Apps view, found at compile time: `#[tool(ui = "ui://…")]` names a `ui://`
//! resource, and the crate must declare it with `#[resource("ui://…")]`.
//!
//! Items of other modules cannot be named from a macro by a key (a `macro_export` marker made
//! by a macro may not be used by path), so the crate's sources are read instead: the file of
//! the tool and every `.rs` file under the crate's `src/` (symbolic links not followed),
//! parsed, each `#[resource]` (also in inline modules and `#[beam_mcp::items]` impl blocks)
//! read by the attribute's own parser. A file is parsed once per compiler process while it is
//! unchanged.
//!
//! The refusal errs toward letting a program build, with `build()` checking every link at
//! start-up anyway: it is made only when the tool's file lies under `src/` (or the crate has no
//! `src/`: then the files beside the tool's are read) and the URI, quoted,
//! appears in the sources nowhere but in tool links. Any other mention (a `ResourceDef` built by
//! hand, a resource inside a macro or under `cfg_attr`, a file syn cannot read) leaves the link
//! to `build()`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::SystemTime;

use beam_mcp_rules::attributes::{AppAttr, ResourceAttr, ToolAttr};
use proc_macro2::TokenStream;
use quote::quote;
use syn::{ImplItem, Item, ItemFn, LitStr};

use crate::errors::Errors;

/// Refuses a view no `#[resource]` of the crate declares, when the sources say so for sure
/// (module docs).
pub(crate) fn check_declared(uri: &LitStr, errors: &mut Errors) {
    let Some((calling, files)) = sources() else {
        return;
    };
    let wanted = uri.value();
    let scans: Vec<Scan> = std::iter::once(&calling)
        .chain(files.iter().filter(|f| **f != calling))
        .map(|file| scan(file))
        .collect();
    if scans.iter().any(|s| s.views.contains(&wanted)) {
        return;
    }
    let quoted = format!("{wanted:?}");
    let mentions: usize = scans.iter().map(|s| s.text.matches(&quoted).count()).sum();
    let links: usize = scans
        .iter()
        .map(|s| s.links.iter().filter(|l| **l == wanted).count())
        .sum();
    if mentions > links {
        return;
    }
    errors.spanned(
        uri,
        format!(
            "no #[resource({wanted:?})] in this crate serves this view: declare it, e.g. #[resource({wanted:?}, app(html = \"assets/view.html\"))] on `fn view() {{}}` (a view served otherwise is linked with ToolDef::with_ui, checked by build())"
        ),
    );
}

/// The largest view embedded: it is sent whole on every read.
const MOST_HTML_BYTES: usize = 4 * 1024 * 1024;

/// A view's `_meta.ui`, as an `::beam_mcp::app::AppView` expression.
pub(crate) fn view(app: &AppAttr) -> TokenStream {
    let mut csp = quote!(::beam_mcp::app::Csp::NONE);
    let kinds = [
        (&app.connect_domains, quote!(with_connect_domains)),
        (&app.resource_domains, quote!(with_resource_domains)),
        (&app.frame_domains, quote!(with_frame_domains)),
        (&app.base_uri_domains, quote!(with_base_uri_domains)),
    ];
    for (domains, setter) in kinds {
        if !domains.is_empty() {
            csp.extend(quote!(.#setter(&[#(#domains),*])));
        }
    }
    let mut permissions = quote!(::beam_mcp::app::Permissions::NONE);
    for permission in &app.permissions {
        let setter = quote::format_ident!("with_{}", permission.value(), span = permission.span());
        permissions.extend(quote!(.#setter(true)));
    }
    let mut view =
        quote!(::beam_mcp::app::AppView::NONE.with_csp(#csp).with_permissions(#permissions));
    if let Some(domain) = &app.domain {
        view.extend(quote!(.with_domain(#domain)));
    }
    if let Some(border) = app.prefers_border {
        view.extend(quote!(.with_prefers_border(#border)));
    }
    view
}

/// `app(html = "assets/view.html")` (from the crate's root) or `app(html = "./view.html")`
/// (from the folder of the calling file): the file, read and checked (UTF-8, an HTML5 document, at
/// most 4 MiB), becomes the body of the function, which names and documents the view only
/// (`fn view() {}`): it returns the file, embedded by `include_str!` (so that a change to the
/// file rebuilds the crate).
pub(crate) fn embed_html(html: &LitStr, item: &mut ItemFn, errors: &mut Errors) {
    let sig = &item.sig;
    if !sig.inputs.is_empty()
        || !matches!(sig.output, syn::ReturnType::Default)
        || !item.block.stmts.is_empty()
    {
        errors.spanned(
            &item.sig,
            "with app(html = ...), the function only names and documents the view: write `fn view() {}` (no parameters, no return type, an empty body)",
        );
        return;
    }
    let relative = html.value();
    // `./view.html` from the calling file's folder (as `include_str!`), else from the crate's
    // root.
    let base = if relative.starts_with("./") || relative.starts_with("../") {
        proc_macro::is_available()
            .then(|| proc_macro::Span::call_site().local_file())
            .flatten()
            .and_then(|file| file.parent().map(Path::to_path_buf))
    } else {
        std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from)
    };
    let Some(base) = base else {
        errors.spanned(
            html,
            "the view's folder is unknown: name its file from the crate's root, under cargo",
        );
        return;
    };
    // Absolute: `include_str!` reads a relative path from the calling file's folder, and the
    // compiler may name that file relative to its working directory.
    let path = std::path::absolute(base.join(&relative)).unwrap_or_else(|_| base.join(&relative));
    let text = match std::fs::read(&path) {
        Ok(bytes) if bytes.len() > MOST_HTML_BYTES => {
            errors.spanned(html, format!("the view {relative:?} is {} bytes; a view is at most {MOST_HTML_BYTES} bytes (it is sent whole on every read)", bytes.len()));
            return;
        }
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => {
                errors.spanned(
                    html,
                    format!("the view {relative:?} is not UTF-8: a view is sent as text"),
                );
                return;
            }
        },
        Err(e) => {
            errors.spanned(html, format!("cannot read the view {relative:?} (named from the crate's root, where its Cargo.toml is, or from this file's folder when it starts with ./): {e}"));
            return;
        }
    };
    if !is_html5_document(&text) {
        errors.spanned(html, format!("the view {relative:?} is not an HTML5 document: it starts with <!doctype html> (after any comments)"));
        return;
    }
    let Some(absolute) = path.to_str() else {
        errors.spanned(html, "the view's path is not UTF-8");
        return;
    };
    item.sig.output = syn::parse_quote!(-> &'static str);
    item.block = syn::parse_quote!({ ::core::include_str!(#absolute) });
}

/// Whether `text` starts, after whitespace and comments, with the HTML5 doctype.
fn is_html5_document(text: &str) -> bool {
    let mut rest = text.trim_start_matches('\u{feff}').trim_start();
    while let Some(comment) = rest.strip_prefix("<!--") {
        let Some(end) = comment.find("-->") else {
            return false;
        };
        rest = comment[end + 3..].trim_start();
    }
    rest.get(..14)
        .is_some_and(|start| start.eq_ignore_ascii_case("<!doctype html"))
        && rest[14..].starts_with(|c: char| c == '>' || c.is_whitespace())
}

/// The file of the macro's call and every `.rs` file under the crate's `src/`, all absolute;
/// `None` unless the calling file is known and lies under `src/`. A crate without `src/` (a
/// flat layout, trybuild's cases) gives the `.rs` files beside the calling file.
fn sources() -> Option<(PathBuf, Vec<PathBuf>)> {
    if !proc_macro::is_available() {
        return None;
    }
    let calling = std::path::absolute(proc_macro::Span::call_site().local_file()?).ok()?;
    let root = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from)?;
    let src = std::path::absolute(root.join("src")).ok()?;
    let mut files = Vec::new();
    if src.is_dir() {
        if !calling.starts_with(&src) {
            return None;
        }
        collect(&src, &mut files, 32);
    } else {
        // No src/ (a flat layout, trybuild's generated crates): the calling file's folder,
        // its own files only (a crate's root folder also holds target/).
        collect(calling.parent()?, &mut files, 0);
    }
    Some((calling, files))
}

/// The `.rs` files in `dir` and, `levels` deep, under it; symbolic links left out (no loop, no
/// walk outside the crate).
fn collect(dir: &Path, files: &mut Vec<PathBuf>, levels: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries
        .flatten()
        .filter_map(|e| Some((e.file_type().ok()?, e.path())))
        .collect();
    entries.sort_by(|a, b| a.1.cmp(&b.1));
    for (kind, path) in entries {
        if kind.is_dir() && levels > 0 {
            collect(&path, files, levels - 1);
        } else if kind.is_file() && path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// A file's size and modification time: while both hold, its scan holds.
type Stamp = (u64, Option<SystemTime>);

/// What one source file says of views.
#[derive(Clone, Default)]
struct Scan {
    /// The `ui://` URIs its `#[resource]` items declare.
    views: Vec<String>,
    /// The `ui://` URIs its `#[tool]` items link to, once per link.
    links: Vec<String>,
    /// Its text, when it names a `ui://` URI at all (else empty).
    text: String,
}

/// Each file read, with its stamp and its scan.
type Scanned = HashMap<PathBuf, (Stamp, Scan)>;

/// The scan of `file`, from the cache while the file's size and time are those it was read at.
/// A file syn cannot parse keeps its text: what it mentions then counts against a refusal.
fn scan(file: &Path) -> Scan {
    static CACHE: OnceLock<Mutex<Scanned>> = OnceLock::new();
    let Ok(meta) = std::fs::metadata(file) else {
        return Scan::default();
    };
    let stamp = (meta.len(), meta.modified().ok());
    let cache = CACHE.get_or_init(Default::default);
    if let Some((at, scanned)) = cache.lock().ok().and_then(|c| c.get(file).cloned())
        && at == stamp
    {
        return scanned;
    }
    let mut scanned = Scan::default();
    if let Ok(text) = std::fs::read_to_string(file)
        && text.contains("ui://")
    {
        if let Ok(parsed) = syn::parse_file(&text) {
            items(&parsed.items, &mut scanned);
        }
        scanned.text = text;
    }
    if let Ok(mut cache) = cache.lock() {
        cache.insert(file.to_owned(), (stamp, scanned.clone()));
    }
    scanned
}

fn items(items: &[Item], scanned: &mut Scan) {
    for item in items {
        match item {
            Item::Fn(function) => attributes(&function.attrs, scanned),
            Item::Mod(module) => {
                if let Some((_, content)) = &module.content {
                    self::items(content, scanned);
                }
            }
            Item::Impl(block) => {
                for inner in &block.items {
                    if let ImplItem::Fn(method) = inner {
                        attributes(&method.attrs, scanned);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The `ui://` URI of each `#[resource(..)]` and each `#[tool(ui ..)]` (any path ending in
/// `resource` or `tool`) among `attrs`.
fn attributes(attrs: &[syn::Attribute], scanned: &mut Scan) {
    for attr in attrs {
        let Some(last) = attr.path().segments.last() else {
            continue;
        };
        let Ok(list) = attr.meta.require_list() else {
            continue;
        };
        if last.ident == "resource" {
            if let Ok(parsed) = ResourceAttr::parse(list.tokens.clone()) {
                let uri = parsed.uri.value();
                if uri.starts_with("ui://") {
                    scanned.views.push(uri);
                }
            }
        } else if last.ident == "tool"
            && let Ok(parsed) = ToolAttr::parse(list.tokens.clone())
            && let Some(link) = parsed.ui
        {
            scanned.links.push(link.resource.value());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared(source: &str) -> Vec<String> {
        let mut scanned = Scan::default();
        items(&syn::parse_file(source).unwrap().items, &mut scanned);
        scanned.views
    }

    #[test]
    fn tool_links_are_counted_once_each() {
        let source = r#"
            #[beam_mcp::tool(ui = "ui://a/one")]
            fn one() {}
            #[tool(ui(resource = "ui://a/one", visibility = ["app"]))]
            fn two() {}
            #[tool(read_only)]
            fn three() {}
        "#;
        let mut scanned = Scan::default();
        items(&syn::parse_file(source).unwrap().items, &mut scanned);
        assert_eq!(scanned.links, ["ui://a/one", "ui://a/one"]);
        assert!(scanned.views.is_empty());
    }

    #[test]
    fn finds_views_in_functions_modules_and_impl_blocks() {
        let source = r#"
            #[beam_mcp::resource("ui://a/one", app(prefers_border))]
            fn one() {}
            mod inner {
                #[resource("ui://a/two")]
                fn two() {}
            }
            #[beam_mcp::items]
            impl Views {
                #[resource("ui://a/three")]
                fn three(&self) -> String { String::new() }
            }
            #[resource("docs://not-a-view")]
            fn four() -> String { String::new() }
            #[other("ui://a/five")]
            fn five() {}
        "#;
        assert_eq!(
            declared(source),
            ["ui://a/one", "ui://a/two", "ui://a/three"]
        );
    }

    #[test]
    fn an_html5_document_starts_with_its_doctype() {
        assert!(is_html5_document("<!DOCTYPE html>\n<html></html>"));
        assert!(is_html5_document(
            "\u{feff}  <!-- a view -->\n<!doctype html><p>x"
        ));
        assert!(!is_html5_document("<html></html>"));
        assert!(!is_html5_document("<!doctype htmlx>"));
        assert!(!is_html5_document("<!-- never closed <!doctype html>"));
        assert!(!is_html5_document(""));
    }

    #[test]
    fn a_resource_the_attribute_parser_refuses_declares_nothing() {
        let source = r#"
            #[resource("ui://a/one", mime_type = "text/plain")]
            fn one() {}
        "#;
        assert!(declared(source).is_empty());
    }
}
