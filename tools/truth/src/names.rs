//! Symbols as the comparison reads them: demangled, generic arguments and hashes removed,
//! closures folded into their function, methods named the way the scanner names them, and
//! reduced to a **normalized** form both sides are compared by.
//!
//! The normalized form of a function name keeps only the last path segment of each type and
//! trait, without generic arguments, references, lifetimes or `dyn`:
//!
//! | written (scanner) or demangled (IR) | normalized |
//! | --- | --- |
//! | `<Stations as Default>::default`, `<weather::Stations as core::default::Default>::default` | `<Stations as Default>::default` |
//! | `Stations::reading`, `<weather::Stations>::reading` | `Stations::reading` |
//! | `<&'a Wrapper<T> as fmt::Display>::fmt` | `<Wrapper as Display>::fmt` |
//! | `lookup` | `lookup` |

use std::fmt::Write as _;

/// One way of reading a symbol as the scanner would name it: the module the function sits in
/// and its normalized name.
///
/// ```
/// use beam_mcp_truth::names::{Reading, demangle};
///
/// let name = demangle("_RNvMNtCsg5P03tE4okC_6sample5modelNtB2_8Stations7reading").unwrap();
/// assert_eq!(
///     name.readings[0],
///     Reading { module: "sample::model".into(), name: "Stations::reading".into(), by_name: true },
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// The module path, `::`-separated, from the crate's name.
    pub module: String,
    /// The normalized name (see the module's table).
    pub name: String,
    /// Whether a match by the name alone, when one function of the crate has it, is allowed:
    /// true for methods (whose type may be defined in another module than its `impl`), false
    /// for free functions.
    pub by_name: bool,
}

/// What the symbol's function is, as far as the comparison cares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// A free function, or one nested in another (`a::b::f`).
    Free,
    /// A method of an inherent impl (`<a::T>::f`).
    Inherent,
    /// A method of a trait impl, or a trait's provided method instantiated for a type
    /// (`<a::T as b::Trait>::f`): trait is the trait's last segment.
    Trait {
        /// The crate at the root of the trait's path.
        trait_crate: String,
        /// The trait's last path segment, without generic arguments.
        trait_name: String,
        /// The method.
        method: String,
    },
}

/// A demangled symbol, read.
///
/// ```
/// use beam_mcp_truth::names::demangle;
///
/// let closure = demangle("_RNCNvCsg5P03tE4okC_6sample12with_closure0B3_").unwrap();
/// assert_eq!(closure.display, "sample::with_closure");
/// assert!(closure.folded);
/// assert!(closure.crates.contains(&"sample".to_owned()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    /// The demangled path without generic arguments, closures folded away.
    pub display: String,
    /// The crates the symbol belongs to: the root of its path (of the impl's module, the self
    /// type's and the trait's for a method). The function is a crate's own when the crate is
    /// among these.
    pub crates: Vec<String>,
    /// The ways to read it as the scanner's (module, name), best first.
    pub readings: Vec<Reading>,
    /// The first reading's name with generic arguments kept (each path reduced to its last
    /// segment, lifetimes dropped: [`detail`]): what tells `<A as From<String>>::from` from
    /// `<A as From<&str>>::from` when the normalized name does not.
    pub detail: String,
    /// Whether a closure or coroutine segment (`{closure#N}`, an `async` body) was folded
    /// into the function around it.
    pub folded: bool,
    /// Whether it is a compiler shim (`{shim:vtable#0}`, `{shim:reify#0}`...): never compared.
    pub shim: bool,
    /// The kind of function.
    pub shape: Shape,
    /// The path a sink is matched by: plain paths as they are, an inherent method as
    /// `type::path::method`; `None` for trait methods.
    pub sink_path: Option<String>,
}

/// Demangles and reads a symbol; `None` when it is no Rust symbol (a C function, an LLVM
/// intrinsic) or its path cannot be read.
///
/// ```
/// use beam_mcp_truth::names::{Shape, demangle};
///
/// // <sample::Fast as sample::Engine>::provided, instantiated in `sample`.
/// let name = demangle("_RNvYNtCsg5P03tE4okC_6sample4FastNtB4_6Engine8providedB4_").unwrap();
/// assert_eq!(name.readings[0].name, "Engine::provided");
/// assert!(matches!(name.shape, Shape::Trait { .. }));
/// assert!(demangle("memcpy").is_none());
/// ```
pub fn demangle(symbol: &str) -> Option<Name> {
    let demangled = rustc_demangle::try_demangle(symbol).ok()?;
    // `{:#}`: without hashes and crate disambiguators.
    let text = format!("{demangled:#}");
    read(&text, &impl_site(symbol))
}

/// Reads a demangled path (as `{:#}` prints it); `site` is where the symbol says the
/// function's code is (v0 mangling does, see [`impl_site`]).
///
/// ```
/// use beam_mcp_truth::names::{ImplSite, read};
///
/// let site = ImplSite::Impl { krate: "weather".into(), module: Some("weather".into()) };
/// let name = read("<weather::Stations as core::default::Default>::default", &site).unwrap();
/// assert_eq!(name.readings[0].module, "weather");
/// assert_eq!(name.readings[0].name, "<Stations as Default>::default");
/// let inherent = read("weather::Stations::reading::<u8>", &ImplSite::Unknown).unwrap();
/// assert_eq!(inherent.display, "weather::Stations::reading");
/// ```
pub fn read(text: &str, site: &ImplSite) -> Option<Name> {
    let mut segments = split_path(text.trim());
    // Generic arguments after `::` (`f::<T>`) are segments of their own at depth 0.
    let head_qualified = segments.first().is_some_and(|s| s.starts_with('<'));
    let mut kept: Vec<String> = Vec::with_capacity(segments.len());
    let mut folded = false;
    let mut shim = false;
    for (position, segment) in segments.drain(..).enumerate() {
        if segment.starts_with('<') && !(position == 0 && head_qualified) {
            continue;
        }
        if segment.starts_with('{') {
            if segment.starts_with("{shim") {
                shim = true;
            } else {
                folded = true;
            }
            // A closure's own nested items belong to the closure: fold them too.
            break;
        }
        kept.push(if position == 0 && head_qualified {
            segment
        } else {
            strip_generics(&segment)
        });
    }
    if kept.is_empty() {
        return None;
    }
    let mut name = if head_qualified {
        qualified(&kept, site)?
    } else {
        free(&kept)
    };
    name.folded = folded;
    name.shim = shim;
    Some(name)
}

/// A path without a qualified head: `a::b::f`.
fn free(segments: &[String]) -> Name {
    let display = segments.join("::");
    let crates = vec![segments[0].clone()];
    let mut readings = Vec::new();
    if segments.len() >= 2 {
        let (module, last) = segments.split_at(segments.len() - 1);
        readings.push(Reading {
            module: module.join("::"),
            name: last[0].clone(),
            by_name: false,
        });
    }
    if segments.len() >= 3 {
        // `a::Trait::f` or `a::Type::f` (legacy mangling, a trait's provided method).
        let (module, last) = segments.split_at(segments.len() - 2);
        readings.push(Reading {
            module: module.join("::"),
            name: format!("{}::{}", last[0], last[1]),
            by_name: false,
        });
    }
    let detail = readings.first().map(|r| r.name.clone()).unwrap_or_default();
    Name {
        display: display.clone(),
        crates,
        readings,
        detail,
        folded: false,
        shim: false,
        shape: Shape::Free,
        sink_path: Some(display),
    }
}

/// A path with a qualified head: `<T>::f...` or `<T as Trait>::f...`.
fn qualified(segments: &[String], site: &ImplSite) -> Option<Name> {
    let head = segments[0].strip_prefix('<')?.strip_suffix('>')?;
    let rest = segments.get(1..).unwrap_or_default().join("::");
    if rest.is_empty() {
        return None;
    }
    let (self_type, trait_path) = match split_as(head) {
        Some((ty, tr)) => (ty, Some(tr)),
        None => (head, None),
    };
    let ty = TypeName::read(self_type);
    let impl_module = match site {
        ImplSite::Impl {
            module: Some(module),
            ..
        } => Some(module.as_str()),
        _ => None,
    };
    let module = impl_module
        .map(str::to_owned)
        .unwrap_or_else(|| ty.module());
    let mut crates: Vec<String> = Vec::new();
    let mut readings = Vec::new();
    let mut sink_path = None;
    let detail;
    let (display, shape) = match trait_path {
        None => {
            detail = format!("{}::{rest}", self::detail(self_type));
            match site {
                ImplSite::Impl { krate, .. } => crates.push(krate.clone()),
                _ => crates.extend(ty.path.first().cloned()),
            }
            readings.push(Reading {
                module,
                name: format!("{}::{rest}", ty.short),
                by_name: true,
            });
            if !ty.path.is_empty() {
                sink_path = Some(format!("{}::{rest}", ty.path.join("::")));
            }
            (format!("<{}>::{rest}", ty.display()), Shape::Inherent)
        }
        Some(trait_path) => {
            let tr = TypeName::read(trait_path);
            detail = match site {
                ImplSite::Provided => format!("{}::{rest}", self::detail(trait_path)),
                _ => format!(
                    "<{} as {}>::{rest}",
                    self::detail(self_type),
                    self::detail(trait_path)
                ),
            };
            let provided = Reading {
                module: tr.module(),
                name: format!("{}::{rest}", tr.short),
                by_name: true,
            };
            let implemented = Reading {
                module,
                name: format!("<{} as {}>::{rest}", ty.short, tr.short),
                by_name: true,
            };
            match site {
                // The impl's code, in the impl's crate.
                ImplSite::Impl { krate, .. } => {
                    crates.push(krate.clone());
                    readings.push(implemented);
                }
                // A trait's provided method instantiated for the type: the trait's code.
                ImplSite::Provided => {
                    crates.extend(tr.path.first().cloned());
                    readings.push(provided);
                }
                ImplSite::Unknown => {
                    crates.extend(ty.path.first().cloned());
                    crates.extend(tr.path.first().cloned());
                    readings.push(implemented);
                    readings.push(provided);
                }
            }
            (
                format!("<{} as {}>::{rest}", ty.display(), tr.display()),
                Shape::Trait {
                    trait_crate: tr.path.first().cloned().unwrap_or_default(),
                    trait_name: tr.short.clone(),
                    method: rest.clone(),
                },
            )
        }
    };
    crates.dedup();
    Some(Name {
        display,
        crates,
        readings,
        detail,
        folded: false,
        shim: false,
        shape,
        sink_path,
    })
}

/// A type or trait as written or demangled, reduced: its path segments without generic
/// arguments (empty for a type that is no path: `[u8]`, `(A, B)`, `str` is a one-segment
/// path), and its short name, the last segment.
///
/// ```
/// use beam_mcp_truth::names::TypeName;
///
/// let ty = TypeName::read("&'a mut weather::Wrapper<alloc::string::String>");
/// assert_eq!(ty.path, ["weather", "Wrapper"]);
/// assert_eq!(ty.short, "Wrapper");
/// assert_eq!(TypeName::read("[u8]").short, "[u8]");
/// assert_eq!(TypeName::read("dyn fmt::Debug + Send").short, "Debug");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeName {
    /// The path's segments, generic arguments removed.
    pub path: Vec<String>,
    /// The last segment, or the whole type compacted when it is no path.
    pub short: String,
}

impl TypeName {
    /// Reads a type or trait path.
    pub fn read(text: &str) -> TypeName {
        let mut rest = text.trim();
        loop {
            let before = rest;
            for prefix in ["&", "mut ", "*const ", "*mut ", "dyn ", "impl "] {
                if let Some(stripped) = rest.strip_prefix(prefix) {
                    rest = stripped.trim_start();
                }
            }
            // A lifetime: `'a ` or `'_ `.
            if let Some(stripped) = rest.strip_prefix('\'') {
                let end = stripped.find(' ').unwrap_or(stripped.len());
                rest = stripped[end..].trim_start();
            }
            if before == rest {
                break;
            }
        }
        // `dyn A + Send`: the first bound names it.
        let rest = split_top(rest, " + ")
            .into_iter()
            .next()
            .unwrap_or_default();
        let rest = rest.trim();
        if rest.starts_with('(') || rest.starts_with('[') || rest.is_empty() {
            let short: String = rest.chars().filter(|c| !c.is_whitespace()).collect();
            return TypeName {
                path: Vec::new(),
                short,
            };
        }
        let path: Vec<String> = split_path(rest)
            .into_iter()
            .filter(|s| !s.starts_with('<'))
            .map(|s| strip_generics(&s))
            .filter(|s| !s.is_empty())
            .collect();
        let short = path.last().cloned().unwrap_or_default();
        TypeName { path, short }
    }

    /// The module the path names (all but its last segment).
    fn module(&self) -> String {
        self.path
            .get(..self.path.len().saturating_sub(1))
            .unwrap_or_default()
            .join("::")
    }

    /// The path, or the short name of a type that is no path.
    fn display(&self) -> String {
        if self.path.is_empty() {
            self.short.clone()
        } else {
            self.path.join("::")
        }
    }
}

/// The normalized form of a function name as the scanner writes it (types and traits as
/// written): see the module's table.
///
/// ```
/// use beam_mcp_truth::names::normalize_declared;
///
/// assert_eq!(normalize_declared("<Stations as Default>::default"), "<Stations as Default>::default");
/// assert_eq!(normalize_declared("<crate::a::W<T> as std::fmt::Display>::fmt"), "<W as Display>::fmt");
/// assert_eq!(normalize_declared("Stations<T>::reading"), "Stations::reading");
/// assert_eq!(normalize_declared("lookup"), "lookup");
/// ```
pub fn normalize_declared(name: &str) -> String {
    let segments = split_path(name.trim());
    let Some(first) = segments.first() else {
        return String::new();
    };
    if let Some(head) = first.strip_prefix('<').and_then(|h| h.strip_suffix('>')) {
        let rest = segments[1..].join("::");
        return match split_as(head) {
            Some((ty, tr)) => format!(
                "<{} as {}>::{rest}",
                TypeName::read(ty).short,
                TypeName::read(tr).short
            ),
            None => format!("{}::{rest}", TypeName::read(head).short),
        };
    }
    if segments.len() >= 2 {
        let (ty, last) = segments.split_at(segments.len() - 1);
        let ty = TypeName::read(&ty.join("::"));
        return format!("{}::{}", ty.short, strip_generics(&last[0]));
    }
    strip_generics(first)
}

/// A type or trait with its generic arguments kept but every path reduced to its last
/// segment, lifetimes and whitespace dropped: `alloc::vec::Vec<&'a str>` → `Vec<&str>`.
///
/// ```
/// use beam_mcp_truth::names::detail;
///
/// assert_eq!(detail("core::convert::From<alloc::vec::Vec<&str>>"), "From<Vec<&str>>");
/// assert_eq!(detail("From<Vec<&'a str>>"), "From<Vec<&str>>");
/// assert_eq!(detail("Foo<'a, T>"), "Foo<T>");
/// assert_eq!(detail("dyn std::fmt::Debug + Send"), "dyn Debug+Send");
/// assert_eq!(detail("&'a mut [u8; 4]"), "&mut[u8;4]");
/// ```
pub fn detail(ty: &str) -> String {
    let mut out = String::with_capacity(ty.len());
    let mut chars = ty.trim().chars().peekable();
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                // A lifetime, and the `, ` after it in a list.
                while chars.peek().is_some_and(|&c| ident(c)) {
                    chars.next();
                }
                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                    chars.next();
                }
                if chars.peek() == Some(&',') {
                    chars.next();
                }
            }
            ':' if chars.peek() == Some(&':') => {
                chars.next();
                // A path's prefix: keep only what follows its last `::`.
                while out.chars().next_back().is_some_and(ident) {
                    out.pop();
                }
            }
            // A space is kept only between two words (`dyn Debug`, `mut T`).
            c if c.is_whitespace() => {
                if out.chars().next_back().is_some_and(ident) {
                    out.push(' ');
                }
            }
            c => {
                if !ident(c) && out.ends_with(' ') {
                    out.pop();
                }
                out.push(c);
            }
        }
    }
    let mut out = out.trim_end().to_owned();
    while let Some(at) = out.find("<>") {
        out.replace_range(at..at + 2, "");
    }
    out
}

/// The name as the scanner writes it, with generic arguments kept as [`detail`] writes them.
///
/// ```
/// use beam_mcp_truth::names::detailed_declared;
///
/// assert_eq!(detailed_declared("<Audience as From<Vec<&str>>>::from"), "<Audience as From<Vec<&str>>>::from");
/// assert_eq!(detailed_declared("W<T>::get"), "W<T>::get");
/// ```
pub fn detailed_declared(name: &str) -> String {
    let segments = split_path(name.trim());
    let Some(first) = segments.first() else {
        return String::new();
    };
    if let Some(head) = first.strip_prefix('<').and_then(|h| h.strip_suffix('>')) {
        let rest = segments[1..].join("::");
        return match split_as(head) {
            Some((ty, tr)) => format!("<{} as {}>::{rest}", detail(ty), detail(tr)),
            None => format!("{}::{rest}", detail(head)),
        };
    }
    if segments.len() >= 2 {
        let (ty, last) = segments.split_at(segments.len() - 1);
        return format!("{}::{}", detail(&ty.join("::")), last[0]);
    }
    first.clone()
}

/// The method's name and the trait's short name of a normalized `<T as Trait>::f`.
///
/// ```
/// assert_eq!(
///     beam_mcp_truth::names::trait_method("<Stations as Default>::default"),
///     Some(("Default".to_owned(), "default".to_owned()))
/// );
/// assert_eq!(beam_mcp_truth::names::trait_method("Stations::reading"), None);
/// ```
pub fn trait_method(normalized: &str) -> Option<(String, String)> {
    let segments = split_path(normalized);
    let head = segments.first()?.strip_prefix('<')?.strip_suffix('>')?;
    let (_, tr) = split_as(head)?;
    Some((
        TypeName::read(tr).short,
        segments.get(1..).unwrap_or_default().join("::"),
    ))
}

/// Where a symbol says its function's code is, beyond what the demangled text shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImplSite {
    /// In an `impl` (inherent or of a trait) of crate `krate`, whose parent module is
    /// `module`: v0 mangling writes it, the demangled text leaves it out (it prints only
    /// `<Type as Trait>`), and it is where the scanner puts the method. `module` is `None`
    /// when the impl sits somewhere other than a module (inside a function or another impl).
    Impl {
        /// The crate the impl is in: whose code the method is.
        krate: String,
        /// The impl's parent module path, when it is a module.
        module: Option<String>,
    },
    /// In a trait's provided method (`<T as Trait>::f` instantiated for `T`): the trait's code.
    Provided,
    /// A free function, a legacy (`_ZN`) symbol, or what cannot be read.
    Unknown,
}

/// Where a v0 symbol's function is: in an `impl` (`M` inherent, `X` of a trait) and its
/// parent module, or in a trait's provided method (`Y`).
///
/// ```
/// use beam_mcp_truth::names::{ImplSite, impl_site};
///
/// // <sample::model::Stations>::reading: the impl is in sample::model.
/// let symbol = "_RNvMNtCsg5P03tE4okC_6sample5modelNtB2_8Stations7reading";
/// assert_eq!(
///     impl_site(symbol),
///     ImplSite::Impl { krate: "sample".into(), module: Some("sample::model".into()) }
/// );
/// // <sample::Fast as sample::Engine>::provided
/// let provided = "_RNvYNtCsg5P03tE4okC_6sample4FastNtB4_6Engine8providedB4_";
/// assert_eq!(impl_site(provided), ImplSite::Provided);
/// assert_eq!(impl_site("_RNvCsg5P03tE4okC_6sample3run"), ImplSite::Unknown);
/// ```
pub fn impl_site(symbol: &str) -> ImplSite {
    impl_site_of(symbol).unwrap_or(ImplSite::Unknown)
}

fn impl_site_of(symbol: &str) -> Option<ImplSite> {
    let body = symbol.strip_prefix("_R")?;
    // An optional encoding version (decimal) precedes the path.
    let body = body.trim_start_matches(|c: char| c.is_ascii_digit());
    let v0 = V0 {
        bytes: body.as_bytes(),
    };
    let mut at = 0;
    // Walk inward through generic instances (`I`) and nested names (`N`) to the innermost
    // parent that is an impl, a trait qualification or a crate root.
    for _ in 0..64 {
        match *v0.bytes.get(at)? {
            b'I' => at += 1,
            b'N' => at += 2,
            b'B' => at = v0.backref(at + 1)?.0,
            b'M' | b'X' => {
                at += 1;
                if v0.bytes.get(at) == Some(&b's') {
                    at = v0.base62(at + 1)?.1;
                }
                return Some(ImplSite::Impl {
                    krate: v0.root_crate(at, 0)?,
                    module: v0.module_path(at, 0),
                });
            }
            b'Y' => return Some(ImplSite::Provided),
            _ => return None,
        }
    }
    None
}

/// The bytes of a v0 symbol after `_R`, read by position (backrefs count from there).
struct V0<'a> {
    bytes: &'a [u8],
}

impl V0<'_> {
    /// A base-62 number ending in `_` at `at`: its value and the position after it.
    fn base62(&self, at: usize) -> Option<(u64, usize)> {
        if self.bytes.get(at) == Some(&b'_') {
            return Some((0, at + 1));
        }
        let mut value: u64 = 0;
        let mut i = at;
        loop {
            let b = *self.bytes.get(i)?;
            let digit = match b {
                b'0'..=b'9' => b - b'0',
                b'a'..=b'z' => b - b'a' + 10,
                b'A'..=b'Z' => b - b'A' + 36,
                b'_' => return Some((value.checked_add(1)?, i + 1)),
                _ => return None,
            };
            value = value.checked_mul(62)?.checked_add(u64::from(digit))?;
            i += 1;
        }
    }

    /// A backref's target position and the position after the backref.
    fn backref(&self, at: usize) -> Option<(usize, usize)> {
        let (value, next) = self.base62(at)?;
        let target = usize::try_from(value).ok()?;
        (target < at).then_some((target, next))
    }

    /// An identifier at `at` (an optional `s` disambiguator, then `[u]len[_]bytes`): the
    /// name and the position after it.
    fn ident(&self, mut at: usize) -> Option<(String, usize)> {
        if self.bytes.get(at) == Some(&b's') {
            at = self.base62(at + 1)?.1;
        }
        let punycode = self.bytes.get(at) == Some(&b'u');
        if punycode {
            at += 1;
        }
        let start = at;
        while self.bytes.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        let len: usize = std::str::from_utf8(self.bytes.get(start..at)?)
            .ok()?
            .parse()
            .ok()?;
        if self.bytes.get(at) == Some(&b'_') {
            at += 1;
        }
        let raw = self.bytes.get(at..at.checked_add(len)?)?;
        Some((String::from_utf8_lossy(raw).into_owned(), at + len))
    }

    /// A module path (`C` crate roots, `N` nested names, `B` backrefs) at `at`, as
    /// `a::b::c`.
    fn module_path(&self, at: usize, depth: usize) -> Option<String> {
        if depth > 64 {
            return None;
        }
        match *self.bytes.get(at)? {
            b'C' => self.ident(at + 1).map(|(name, _)| name),
            b'N' => {
                let mut parent = self.module_path(at + 2, depth + 1)?;
                // The identifier follows the parent: find where the parent ends.
                let after = self.path_end(at + 2, depth + 1)?;
                let (name, _) = self.ident(after)?;
                let _ = write!(parent, "::{name}");
                Some(parent)
            }
            b'B' => {
                let (target, _) = self.backref(at + 1)?;
                self.module_path(target, depth + 1)
            }
            _ => None,
        }
    }

    /// The crate at the root of the path at `at`: its leftmost crate root, through nested
    /// names, impls, generic instances and backrefs.
    fn root_crate(&self, mut at: usize, depth: usize) -> Option<String> {
        for _ in depth..64 {
            match *self.bytes.get(at)? {
                b'C' => return self.ident(at + 1).map(|(name, _)| name),
                b'N' => at += 2,
                b'I' | b'Y' => at += 1,
                b'M' | b'X' => {
                    at += 1;
                    if self.bytes.get(at) == Some(&b's') {
                        at = self.base62(at + 1)?.1;
                    }
                }
                b'B' => at = self.backref(at + 1)?.0,
                _ => return None,
            }
        }
        None
    }

    /// Where a module path starting at `at` ends.
    fn path_end(&self, at: usize, depth: usize) -> Option<usize> {
        if depth > 64 {
            return None;
        }
        match *self.bytes.get(at)? {
            b'C' => self.ident(at + 1).map(|(_, end)| end),
            b'N' => {
                let after = self.path_end(at + 2, depth + 1)?;
                self.ident(after).map(|(_, end)| end)
            }
            b'B' => self.backref(at + 1).map(|(_, end)| end),
            _ => None,
        }
    }
}

/// Splits a path at its top-level `::` (not inside `<>`, `()`, `[]`, `{}`).
///
/// ```
/// assert_eq!(
///     beam_mcp_truth::names::split_path("<a::T<u8> as b::Tr>::f::<fn() -> u8>"),
///     ["<a::T<u8> as b::Tr>", "f", "<fn() -> u8>"]
/// );
/// ```
pub fn split_path(text: &str) -> Vec<String> {
    split_top(text, "::")
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// Splits `text` at each top-level occurrence of `separator`.
fn split_top<'a>(text: &'a str, separator: &str) -> Vec<&'a str> {
    let bytes = text.as_bytes();
    let mut parts = Vec::new();
    let mut depth: i64 = 0;
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'-' if bytes.get(i + 1) == Some(&b'>') => {
                i += 2;
                continue;
            }
            b'<' | b'(' | b'[' | b'{' => depth += 1,
            b'>' | b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
        if depth == 0 && bytes[i..].starts_with(separator.as_bytes()) {
            parts.push(&text[start..i]);
            i += separator.len();
            start = i;
            continue;
        }
        i += 1;
    }
    parts.push(&text[start..]);
    parts
}

/// `head` of a qualified path split at its top-level ` as `: (self type, trait).
fn split_as(head: &str) -> Option<(&str, &str)> {
    let parts = split_top(head, " as ");
    match parts.as_slice() {
        [ty, tr] => Some((ty.trim(), tr.trim())),
        _ => None,
    }
}

/// A segment without its generic arguments: `Vec<u8>` → `Vec`.
fn strip_generics(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    let mut depth = 0usize;
    let mut chars = segment.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '-' if depth > 0 && chars.peek() == Some(&'>') => {
                chars.next();
            }
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    // Symbols rustc 1.95 wrote for a small crate `sample` with
    // `-C symbol-mangling-version=v0`, and what `{:#}` demangles them to.
    #[test]
    fn real_v0_symbols() {
        let cases: &[(&str, &str, &str, &str)] = &[
            (
                "_RNvCsg5P03tE4okC_6sample3run",
                "sample::run",
                "sample",
                "run",
            ),
            (
                "_RINvCsg5P03tE4okC_6sample7genericNtB2_4FastEB2_",
                "sample::generic",
                "sample",
                "generic",
            ),
            (
                "_RNvMNtCsg5P03tE4okC_6sample5modelNtB2_8Stations7reading",
                "<sample::model::Stations>::reading",
                "sample::model",
                "Stations::reading",
            ),
            (
                "_RNCNvCsg5P03tE4okC_6sample5later0B3_",
                "sample::later",
                "sample",
                "later",
            ),
        ];
        for (symbol, display, module, name) in cases {
            let read = demangle(symbol).unwrap();
            assert_eq!(read.display, *display, "{symbol}");
            assert_eq!(read.readings[0].module, *module, "{symbol}");
            assert_eq!(read.readings[0].name, *name, "{symbol}");
        }
    }

    #[test]
    fn trait_impls_use_the_impl_module() {
        // <sample::Fast as core::fmt::Display>::fmt, the impl in `sample`.
        let symbol =
            "_RNvXs_Csg5P03tE4okC_6sampleNtB4_4FastNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt";
        assert_eq!(
            impl_site(symbol),
            ImplSite::Impl {
                krate: "sample".into(),
                module: Some("sample".into())
            }
        );
        let read = demangle(symbol).unwrap();
        assert_eq!(read.display, "<sample::Fast as core::fmt::Display>::fmt");
        assert_eq!(read.readings.len(), 1);
        assert_eq!(read.readings[0].name, "<Fast as Display>::fmt");
        assert_eq!(read.crates, ["sample"]);
        // <sample::model::Stations as core::default::Default>::default, impl in sample::model.
        let symbol = "_RNvXs_NtCsg5P03tE4okC_6sample5modelNtB4_8StationsNtNtCsgEmfK2I1SDS_4core7default7Default7defaultB6_";
        let read = demangle(symbol).unwrap();
        assert_eq!(read.readings[0].module, "sample::model");
        assert_eq!(read.readings[0].name, "<Stations as Default>::default");
        // <sample::W<u32>>::get, a generic inherent impl.
        let read = demangle("_RNvMs0_Csg5P03tE4okC_6sampleINtB5_1WmE3getB5_").unwrap();
        assert_eq!(read.display, "<sample::W>::get");
        assert_eq!(read.readings[0].name, "W::get");
    }

    #[test]
    fn impls_inside_functions_belong_to_their_crate() {
        // <rust_mcp_sdk::tool_param_headers::ToolParamHeader as to_vec_in::ConvertVec>::to_vec:
        // alloc's blanket impl (inside `<[T]>::to_vec_in`) instantiated for the crate's type.
        let symbol = "_RINvXNvMNtCslNYArtu3iFV_5alloc5sliceSp9to_vec_inNtNtCsla3YwKCw44Y_12rust_mcp_sdk18tool_param_headers15ToolParamHeaderNtB3_10ConvertVec6to_vecNtNtB8_5alloc6GlobalEBO_";
        assert_eq!(
            impl_site(symbol),
            ImplSite::Impl {
                krate: "alloc".into(),
                module: None
            }
        );
        assert_eq!(demangle(symbol).unwrap().crates, ["alloc"]);
    }

    #[test]
    fn provided_methods_are_the_traits() {
        // <sample::model::Stations as core::clone::Clone>::clone_from: core's code.
        let symbol = "_RNvYNtNtCsg5P03tE4okC_6sample5model8StationsNtNtCsgEmfK2I1SDS_4core5clone5Clone10clone_fromB6_";
        let read = demangle(symbol).unwrap();
        assert_eq!(read.crates, ["core"]);
        // <sample::Fast as sample::Engine>::provided: the crate's own trait.
        let symbol = "_RNvYNtCsg5P03tE4okC_6sample4FastNtB4_6Engine8providedB4_";
        let read = demangle(symbol).unwrap();
        assert_eq!(read.crates, ["sample"]);
        assert_eq!(read.readings[0].name, "Engine::provided");
        assert_eq!(read.readings[0].module, "sample");
    }

    #[test]
    fn foreign_generics_instantiated_here_are_not_ours() {
        // <alloc::vec::Vec<u8>>::push, not the crate's.
        let read = read("<alloc::vec::Vec<sample::X>>::push", &ImplSite::Unknown).unwrap();
        assert_eq!(read.crates, ["alloc"]);
        assert_eq!(read.sink_path.as_deref(), Some("alloc::vec::Vec::push"));
    }

    #[test]
    fn shims_and_closures() {
        let shim = read(
            "<sample::f::{closure#0} as core::ops::function::FnOnce<()>>::call_once::{shim:vtable#0}",
            &ImplSite::Unknown,
        )
        .unwrap();
        assert!(shim.shim);
        let nested = read(
            "sample::outer::{closure#0}::{closure#1}",
            &ImplSite::Unknown,
        )
        .unwrap();
        assert!(nested.folded);
        assert_eq!(nested.display, "sample::outer");
    }

    #[test]
    fn declared_names() {
        assert_eq!(
            normalize_declared("<&'a mut Wrapper<T> as crate::Engine<u8>>::go"),
            "<Wrapper as Engine>::go"
        );
        assert_eq!(normalize_declared("<[u8] as Ext>::go"), "<[u8] as Ext>::go");
        assert_eq!(normalize_declared("Engine::provided"), "Engine::provided");
        assert_eq!(normalize_declared(""), "");
    }

    #[test]
    fn bad_input_never_panics() {
        for text in [
            "",
            "<",
            ">",
            "<a as>",
            "::",
            "a::",
            "<a>::",
            "{closure#0}",
            "é<ü>::ß",
        ] {
            let _ = read(text, &ImplSite::Unknown);
            let _ = normalize_declared(text);
            let _ = TypeName::read(text);
        }
        for symbol in [
            "_R",
            "_RN",
            "_RNvM",
            "_RNvMB_",
            "_RNvXs",
            "_RNvMNtB0_",
            "_RIIIII",
            "_RNvMC99999999999999999999a",
        ] {
            let _ = impl_site(symbol);
            let _ = demangle(symbol);
        }
    }
}
