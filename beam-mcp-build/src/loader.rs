//! The module tree, from the crate root down, as rustc finds it: `mod foo;` in `foo.rs` or
//! `foo/mod.rs` (beside a `mod.rs`-like file, else in a directory named after the file),
//! `#[path]`, inline `mod foo { ... }`. Every item `#[cfg]` cuts is dropped here and listed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use syn::{Expr, ExprLit, Item, Lit, Meta};

use crate::bound::{Bound, Category};
use crate::cfg::{Cfg, CfgError};
use crate::error::ScanError;
use crate::names;
use crate::spell::{line, spell};

/// An index into [`Tree::modules`].
pub(crate) type ModId = usize;

/// One module: its path from the crate's name, the file its items are in, its compiled items.
pub(crate) struct Module {
    /// `["weather", "resources"]`.
    pub(crate) path: Vec<String>,
    /// The file holding its items, relative to the manifest directory.
    pub(crate) file: PathBuf,
    pub(crate) parent: Option<ModId>,
    /// Its items for this build; a child `mod` is kept without its content (see `children`).
    pub(crate) items: Vec<Item>,
    pub(crate) children: BTreeMap<String, ModId>,
}

impl Module {
    /// `weather::resources`.
    pub(crate) fn name(&self) -> String {
        self.path.join("::")
    }
}

/// The crate's modules, the root first (a module's id is its index).
pub(crate) struct Tree {
    pub(crate) modules: Vec<Module>,
}

/// Where a module's child modules are looked for.
#[derive(Clone)]
struct Dirs {
    /// The directory of the file the declaration is in (`#[path]` outside inline modules is
    /// relative to it).
    file_dir: PathBuf,
    /// Where `mod child;` looks: the file's directory for `main.rs`, `lib.rs`, `mod.rs` and
    /// `#[path]` files, else a directory named after the file's module; plus inline modules.
    child_dir: PathBuf,
    /// Inside an inline module, where `#[path]` is relative to `child_dir`.
    inline: bool,
}

pub(crate) struct Loader<'a> {
    manifest_dir: &'a Path,
    cfg: &'a Cfg,
    /// Every file read (or tried), absolute, in order, once.
    pub(crate) sources: Vec<PathBuf>,
    pub(crate) bound: Bound,
    modules: Vec<Module>,
    /// The files being loaded, root first, to refuse a `#[path]` loop.
    stack: Vec<PathBuf>,
}

impl<'a> Loader<'a> {
    pub(crate) fn new(manifest_dir: &'a Path, cfg: &'a Cfg) -> Loader<'a> {
        Loader {
            manifest_dir,
            cfg,
            sources: Vec::new(),
            bound: Bound::default(),
            modules: Vec::new(),
            stack: Vec::new(),
        }
    }

    /// Loads the crate whose root file is `root` (relative to the manifest directory).
    pub(crate) fn load(&mut self, crate_name: &str, root: &Path) -> Result<Tree, ScanError> {
        let absolute = self.manifest_dir.join(root);
        // Every other file's path is this one's directory joined with `#[path]` strings and
        // module names, which are checked where they are read.
        if !printable(&absolute) {
            return Err(ScanError::UnprintablePath { path: absolute });
        }
        let file_dir = absolute.parent().map(Path::to_path_buf).unwrap_or_default();
        let dirs = Dirs {
            file_dir: file_dir.clone(),
            child_dir: file_dir,
            inline: false,
        };
        let mut file = self.read(&absolute)?;
        let relative = self.relative(&absolute);
        if let Some(pred) = self.cfg_of(&relative, &mut file.attrs)? {
            self.bound
                .add(Category::cfg_cut, format!("{crate_name} #[{pred}]"));
            file.items.clear();
        }
        self.stack
            .push(std::fs::canonicalize(&absolute).unwrap_or(absolute));
        self.module(
            vec![crate_name.to_owned()],
            relative,
            None,
            file.items,
            &dirs,
        )?;
        self.stack.pop();
        Ok(Tree {
            modules: std::mem::take(&mut self.modules),
        })
    }

    fn module(
        &mut self,
        path: Vec<String>,
        file: PathBuf,
        parent: Option<ModId>,
        items: Vec<Item>,
        dirs: &Dirs,
    ) -> Result<ModId, ScanError> {
        let id = self.modules.len();
        let name = path.join("::");
        self.modules.push(Module {
            path: path.clone(),
            file: file.clone(),
            parent,
            items: Vec::new(),
            children: BTreeMap::new(),
        });
        let mut kept = Vec::with_capacity(items.len());
        for mut item in items {
            if let Some(attrs) = names::item_attrs(&mut item)
                && let Some(pred) = self.cfg_of(&file, attrs)?
            {
                let entry = format!("{} #[{pred}]", names::item(&name, &item));
                self.bound.add(Category::cfg_cut, entry);
                continue;
            }
            self.cut_members(&name, &file, &mut item)?;
            if let Item::Fn(f) = &mut item {
                let owner = names::ident(&f.sig.ident);
                self.cut_params(&format!("{name}::{owner}"), &file, &mut f.sig)?;
            }
            if let Item::Mod(module) = &mut item {
                let child = names::ident(&module.ident);
                let mut child_path = path.clone();
                child_path.push(child.clone());
                let loaded = match module.content.take() {
                    Some((_, inner)) => {
                        let sub = match path_attr(&file, &module.attrs)? {
                            Some(p) => dirs.child_dir.join(p),
                            None => dirs.child_dir.join(&child),
                        };
                        let inline = Dirs {
                            file_dir: dirs.file_dir.clone(),
                            child_dir: sub,
                            inline: true,
                        };
                        Some(self.module(child_path, file.clone(), Some(id), inner, &inline)?)
                    }
                    None => self.external(module, &child, child_path, &file, id, dirs)?,
                };
                if let (Some(loaded), Some(this)) = (loaded, self.modules.get_mut(id)) {
                    this.children.insert(child, loaded);
                }
            }
            kept.push(item);
        }
        if let Some(this) = self.modules.get_mut(id) {
            this.items = kept;
        }
        Ok(id)
    }

    /// `mod name;`: finds, reads and loads its file; `None` when the file's own
    /// `#![cfg(...)]` cuts it.
    fn external(
        &mut self,
        module: &syn::ItemMod,
        name: &str,
        path: Vec<String>,
        declared_in: &Path,
        parent: ModId,
        dirs: &Dirs,
    ) -> Result<Option<ModId>, ScanError> {
        let declared_line = line(module.ident.span());
        let (absolute, child_dirs) = match path_attr(declared_in, &module.attrs)? {
            Some(p) => {
                let base = if dirs.inline {
                    &dirs.child_dir
                } else {
                    &dirs.file_dir
                };
                let absolute = base.join(p);
                let dir = absolute.parent().map(Path::to_path_buf).unwrap_or_default();
                (
                    absolute,
                    Dirs {
                        file_dir: dir.clone(),
                        child_dir: dir,
                        inline: false,
                    },
                )
            }
            None => {
                let flat = dirs.child_dir.join(format!("{name}.rs"));
                let nested = dirs.child_dir.join(name).join("mod.rs");
                match (flat.is_file(), nested.is_file()) {
                    (true, false) => {
                        let dirs = Dirs {
                            file_dir: dirs.child_dir.clone(),
                            child_dir: dirs.child_dir.join(name),
                            inline: false,
                        };
                        (flat, dirs)
                    }
                    (false, true) => {
                        let dir = dirs.child_dir.join(name);
                        (
                            nested,
                            Dirs {
                                file_dir: dir.clone(),
                                child_dir: dir,
                                inline: false,
                            },
                        )
                    }
                    (true, true) => {
                        return Err(ScanError::ModuleAmbiguous {
                            file: declared_in.to_path_buf(),
                            line: declared_line,
                            module: name.to_owned(),
                            first: self.relative(&flat),
                            second: self.relative(&nested),
                        });
                    }
                    (false, false) => {
                        // Listed so that creating either file reruns the scan.
                        self.note(&flat);
                        self.note(&nested);
                        return Err(ScanError::ModuleNotFound {
                            file: declared_in.to_path_buf(),
                            line: declared_line,
                            module: name.to_owned(),
                            tried: vec![self.relative(&flat), self.relative(&nested)],
                        });
                    }
                }
            }
        };
        let key = std::fs::canonicalize(&absolute).unwrap_or_else(|_| absolute.clone());
        if self.stack.contains(&key) {
            return Err(ScanError::ModuleCycle {
                file: declared_in.to_path_buf(),
                line: declared_line,
                module: name.to_owned(),
                target: self.relative(&absolute),
            });
        }
        let mut file = self.read(&absolute)?;
        let relative = self.relative(&absolute);
        if let Some(pred) = self.cfg_of(&relative, &mut file.attrs)? {
            self.bound
                .add(Category::cfg_cut, format!("{} #[{pred}]", path.join("::")));
            return Ok(None);
        }
        self.stack.push(key);
        let id = self.module(path, relative, Some(parent), file.items, &child_dirs);
        self.stack.pop();
        id.map(Some)
    }

    /// Drops the members of an impl block or trait that `#[cfg]` cuts, listing them.
    fn cut_members(&mut self, module: &str, file: &Path, item: &mut Item) -> Result<(), ScanError> {
        match item {
            Item::Impl(block) => {
                let owner = names::impl_owner(block);
                let mut kept = Vec::with_capacity(block.items.len());
                for mut member in std::mem::take(&mut block.items) {
                    if let Some(attrs) = names::impl_item_attrs(&mut member)
                        && let Some(pred) = self.cfg_of(file, attrs)?
                    {
                        let entry =
                            format!("{} #[{pred}]", names::impl_item(module, &owner, &member));
                        self.bound.add(Category::cfg_cut, entry);
                        continue;
                    }
                    if let syn::ImplItem::Fn(f) = &mut member {
                        let function = format!("{module}::{owner}::{}", names::ident(&f.sig.ident));
                        self.cut_params(&function, file, &mut f.sig)?;
                    }
                    kept.push(member);
                }
                block.items = kept;
            }
            Item::Trait(def) => {
                let owner = names::ident(&def.ident);
                let mut kept = Vec::with_capacity(def.items.len());
                for mut member in std::mem::take(&mut def.items) {
                    if let Some(attrs) = names::trait_item_attrs(&mut member)
                        && let Some(pred) = self.cfg_of(file, attrs)?
                    {
                        let entry =
                            format!("{} #[{pred}]", names::trait_item(module, &owner, &member));
                        self.bound.add(Category::cfg_cut, entry);
                        continue;
                    }
                    if let syn::TraitItem::Fn(f) = &mut member {
                        let function = format!("{module}::{owner}::{}", names::ident(&f.sig.ident));
                        self.cut_params(&function, file, &mut f.sig)?;
                    }
                    kept.push(member);
                }
                def.items = kept;
            }
            _ => {}
        }
        Ok(())
    }

    /// Drops the parameters `#[cfg]` cuts from a signature, listing them (`f: parameter a
    /// #[cfg(...)]`), so that the arity is the compiled function's.
    fn cut_params(
        &mut self,
        function: &str,
        file: &Path,
        sig: &mut syn::Signature,
    ) -> Result<(), ScanError> {
        if !sig
            .inputs
            .iter()
            .any(|input| !fn_arg_attrs(input).is_empty())
        {
            return Ok(());
        }
        let mut kept = syn::punctuated::Punctuated::new();
        for mut input in std::mem::take(&mut sig.inputs) {
            let param = match &input {
                syn::FnArg::Receiver(_) => "self".to_owned(),
                syn::FnArg::Typed(t) => spell(&t.pat),
            };
            let attrs = match &mut input {
                syn::FnArg::Receiver(r) => &mut r.attrs,
                syn::FnArg::Typed(t) => &mut t.attrs,
            };
            if let Some(pred) = self.cfg_of(file, attrs)? {
                let entry = format!("{function}: parameter {param} #[{pred}]");
                self.bound.add(Category::cfg_cut, entry);
                continue;
            }
            kept.push(input);
        }
        sig.inputs = kept;
        Ok(())
    }

    fn cfg_of(
        &self,
        file: &Path,
        attrs: &mut Vec<syn::Attribute>,
    ) -> Result<Option<String>, ScanError> {
        self.cfg.keep(attrs).map_err(|e| attribute_error(file, e))
    }

    /// Reads and parses a file, listing it first so that a fix reruns the scan.
    fn read(&mut self, absolute: &Path) -> Result<syn::File, ScanError> {
        self.note(absolute);
        let file = self.relative(absolute);
        let text = std::fs::read_to_string(absolute).map_err(|e| ScanError::Read {
            file: file.clone(),
            message: e.to_string(),
        })?;
        // A file that does not lex is left to syn, which says where.
        if let Ok(tokens) = lexed(&text).parse::<proc_macro2::TokenStream>() {
            crate::nesting::check(tokens).map_err(|e| ScanError::TooDeep {
                file: file.clone(),
                line: e.at.line,
                column: e.at.column + 1,
                what: e.what,
                limit: e.limit,
            })?;
        }
        syn::parse_file(&text).map_err(|e| {
            let start = e.span().start();
            let mut message = e.to_string();
            if message == "cannot parse string into token stream" {
                // proc-macro2's lexer says no more; say what it means.
                message = "the file does not lex here: an unclosed or unmatched delimiter, or an invalid token".to_owned();
            }
            ScanError::Syntax {
                file,
                line: start.line,
                column: start.column + 1,
                message,
            }
        })
    }

    fn note(&mut self, absolute: &Path) {
        if !self.sources.iter().any(|s| s == absolute) {
            self.sources.push(absolute.to_path_buf());
        }
    }

    /// The path relative to the manifest directory, with `..` to leave it, so that what the
    /// bound records is the same on every machine (as is only when no relative path exists,
    /// on another drive).
    pub(crate) fn relative(&self, absolute: &Path) -> PathBuf {
        let file =
            normalize(&std::path::absolute(absolute).unwrap_or_else(|_| absolute.to_path_buf()));
        let base = normalize(
            &std::path::absolute(self.manifest_dir)
                .unwrap_or_else(|_| self.manifest_dir.to_path_buf()),
        );
        relative_to(&file, &base).unwrap_or(file)
    }
}

/// `file` as a path from `base` (both absolute and normalized), `None` when none exists.
fn relative_to(file: &Path, base: &Path) -> Option<PathBuf> {
    use std::path::Component;
    let mut file_parts = file.components().peekable();
    let mut base_parts = base.components().peekable();
    // The same root (and drive) first, else no relative path.
    while let (Some(f), Some(b)) = (file_parts.peek(), base_parts.peek()) {
        if f != b {
            break;
        }
        file_parts.next();
        base_parts.next();
    }
    let mut out = PathBuf::new();
    for part in base_parts {
        match part {
            Component::Normal(_) => out.push(".."),
            _ => return None,
        }
    }
    for part in file_parts {
        match part {
            Component::Normal(_) | Component::ParentDir => out.push(part),
            _ => return None,
        }
    }
    Some(out)
}

/// True when `path` can be printed on a `cargo::rerun-if-changed=` line as it is: UTF-8, and
/// no line break to end the line and start another instruction.
pub(crate) fn printable(path: &Path) -> bool {
    path.to_str().is_some_and(|s| !s.contains(['\r', '\n']))
}

/// The text `syn::parse_file` lexes: without a byte order mark, and without a shebang line
/// (`#!` not starting an inner attribute), its line break kept so that lines keep their numbers.
fn lexed(text: &str) -> &str {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(rest) = text.strip_prefix("#!") else {
        return text;
    };
    if skip_trivia(rest).starts_with('[') {
        return text;
    }
    text.find('\n').map_or("", |end| &text[end..])
}

/// `text` after its leading whitespace and comments.
fn skip_trivia(mut text: &str) -> &str {
    loop {
        let trimmed = text.trim_start();
        if let Some(comment) = trimmed.strip_prefix("//") {
            text = comment.find('\n').map_or("", |end| &comment[end..]);
        } else if let Some(comment) = trimmed.strip_prefix("/*") {
            text = comment.find("*/").map_or("", |end| &comment[end + 2..]);
        } else {
            return trimmed;
        }
    }
}

/// `a/./b/../c` as `a/c`, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn fn_arg_attrs(input: &syn::FnArg) -> &[syn::Attribute] {
    match input {
        syn::FnArg::Receiver(r) => &r.attrs,
        syn::FnArg::Typed(t) => &t.attrs,
    }
}

fn attribute_error(file: &Path, error: CfgError) -> ScanError {
    ScanError::Attribute {
        file: file.to_path_buf(),
        line: error.line,
        message: error.message,
    }
}

/// The value of `#[path = "..."]`, if any.
fn path_attr(file: &Path, attrs: &[syn::Attribute]) -> Result<Option<PathBuf>, ScanError> {
    let Some(attr) = attrs.iter().find(|a| a.path().is_ident("path")) else {
        return Ok(None);
    };
    match &attr.meta {
        Meta::NameValue(nv) => match &nv.value {
            Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) => {
                let value = s.value();
                // Every file read is printed on a `cargo::rerun-if-changed=` line: a line break
                // would end it and start another cargo instruction.
                if value.contains(['\r', '\n']) {
                    return Err(ScanError::Attribute {
                        file: file.to_path_buf(),
                        line: line(attr.pound_token.span),
                        message: format!(
                            "#[path = {value:?}] holds a line break, which no cargo::rerun-if-changed line can name"
                        ),
                    });
                }
                Ok(Some(PathBuf::from(value)))
            }
            _ => Err(ScanError::Attribute {
                file: file.to_path_buf(),
                line: line(attr.pound_token.span),
                message: "#[path] takes a string: #[path = \"file.rs\"]".to_owned(),
            }),
        },
        _ => Err(ScanError::Attribute {
            file: file.to_path_buf(),
            line: line(attr.pound_token.span),
            message: "#[path] takes a string: #[path = \"file.rs\"]".to_owned(),
        }),
    }
}
