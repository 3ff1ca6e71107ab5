//! `#[cfg]` and `#[cfg_attr]`, evaluated the way rustc will for this build: features from
//! `CARGO_FEATURE_*`, everything else (`unix`, `target_os = "linux"`, ...) from `CARGO_CFG_*`.
//! `test`, `doc` and `clippy` are never set for a build script, so their items are cut.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::punctuated::Punctuated;
use syn::{Attribute, Ident, LitBool, LitStr, Meta, Token};

use crate::spell::spell;

/// The configuration `#[cfg(...)]` is evaluated against: the names that are set, the values of
/// key-value options, and the enabled features.
///
/// A build script gets it from the environment ([`Cfg::from_env`]); a test builds one.
///
/// ```
/// use beam_mcp_build::Cfg;
///
/// let cfg = Cfg::new().name("unix").value("target_os", "linux").feature("fast-path");
/// assert!(cfg.holds(r#"all(unix, target_os = "linux", feature = "fast-path")"#)?);
/// assert!(!cfg.holds(r#"any(windows, feature = "slow")"#)?);
/// # Ok::<(), syn::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cfg {
    names: BTreeSet<String>,
    values: BTreeMap<String, BTreeSet<String>>,
    /// Feature names as cargo writes them in `CARGO_FEATURE_*`: upper case, `-` as `_`.
    features: BTreeSet<String>,
}

impl Cfg {
    /// Nothing set: every `#[cfg(name)]` is false, every `#[cfg(not(name))]` true.
    ///
    /// ```
    /// assert!(!beam_mcp_build::Cfg::new().holds("unix")?);
    /// # Ok::<(), syn::Error>(())
    /// ```
    pub fn new() -> Cfg {
        Cfg::default()
    }

    /// The configuration cargo gives a build script: each `CARGO_CFG_<NAME>` (empty: a name
    /// that is set; otherwise its comma-separated values) and each `CARGO_FEATURE_<NAME>`.
    ///
    /// ```
    /// // In a build script, `unix` is set on Linux and macOS.
    /// let cfg = beam_mcp_build::Cfg::from_env();
    /// # let _ = cfg;
    /// ```
    pub fn from_env() -> Cfg {
        let mut cfg = Cfg::new();
        for (key, value) in std::env::vars_os() {
            let (Some(key), Some(value)) = (key.to_str(), value.to_str()) else {
                continue;
            };
            if let Some(feature) = key.strip_prefix("CARGO_FEATURE_") {
                cfg.features.insert(feature.to_owned());
            } else if let Some(name) = key.strip_prefix("CARGO_CFG_") {
                let name = name.to_ascii_lowercase();
                if value.is_empty() {
                    cfg.names.insert(name);
                } else {
                    let values = cfg.values.entry(name).or_default();
                    values.extend(value.split(',').map(str::to_owned));
                }
            }
        }
        cfg
    }

    /// The same configuration with `name` set (`unix`, `debug_assertions`).
    ///
    /// ```
    /// assert!(beam_mcp_build::Cfg::new().name("unix").holds("unix")?);
    /// # Ok::<(), syn::Error>(())
    /// ```
    pub fn name(mut self, name: &str) -> Cfg {
        self.names.insert(name.to_owned());
        self
    }

    /// The same configuration with `key = "value"` set (`target_os = "linux"`); a key may
    /// hold several values (`target_feature`).
    ///
    /// ```
    /// let cfg = beam_mcp_build::Cfg::new().value("target_os", "linux");
    /// assert!(cfg.holds(r#"target_os = "linux""#)?);
    /// # Ok::<(), syn::Error>(())
    /// ```
    pub fn value(mut self, key: &str, value: &str) -> Cfg {
        let values = self.values.entry(key.to_owned()).or_default();
        values.insert(value.to_owned());
        self
    }

    /// The same configuration with the feature `feature` enabled. Features are matched as
    /// cargo spells them in `CARGO_FEATURE_*` (upper case, `-` as `_`), so `a-b` and `a_b` are
    /// one feature here.
    ///
    /// ```
    /// let cfg = beam_mcp_build::Cfg::new().feature("http");
    /// assert!(cfg.holds(r#"feature = "http""#)?);
    /// # Ok::<(), syn::Error>(())
    /// ```
    pub fn feature(mut self, feature: &str) -> Cfg {
        self.features.insert(cargo_feature(feature));
        self
    }

    /// Whether the predicate written inside `#[cfg(...)]` holds, or why it is not one.
    ///
    /// ```
    /// let cfg = beam_mcp_build::Cfg::new();
    /// assert!(cfg.holds("not(any(test, doc))")?);
    /// assert!(cfg.holds(r#"version("1.80")"#).is_err());
    /// # Ok::<(), syn::Error>(())
    /// ```
    pub fn holds(&self, predicate: &str) -> syn::Result<bool> {
        let pred = syn::parse::Parser::parse_str(parse_pred_whole, predicate)?;
        Ok(self.eval(&pred))
    }

    fn eval(&self, pred: &Pred) -> bool {
        match pred {
            Pred::Bool(b) => *b,
            Pred::Name(name) => self.names.contains(name),
            Pred::KeyValue(key, value) if key == "feature" => {
                self.features.contains(&cargo_feature(value))
                    || self.values.get(key).is_some_and(|v| v.contains(value))
            }
            Pred::KeyValue(key, value) => self.values.get(key).is_some_and(|v| v.contains(value)),
            Pred::All(all) => all.iter().all(|p| self.eval(p)),
            Pred::Any(any) => any.iter().any(|p| self.eval(p)),
            Pred::Not(not) => !self.eval(not),
        }
    }

    /// Expands every `#[cfg_attr]` of `attrs` in place, then evaluates their `#[cfg]`s: `None`
    /// when the thing they are on is compiled, else the first `cfg(...)` that cuts it, spelled.
    pub(crate) fn keep(&self, attrs: &mut Vec<Attribute>) -> Result<Option<String>, CfgError> {
        let mut expanded = Vec::with_capacity(attrs.len());
        for attr in attrs.drain(..) {
            self.expand(attr, &mut expanded, 0)?;
        }
        *attrs = expanded;
        for attr in attrs.iter() {
            if attr.path().is_ident("cfg") {
                let pred = attr
                    .parse_args_with(parse_pred_whole)
                    .map_err(|e| CfgError::of(&e))?;
                if !self.eval(&pred) {
                    return Ok(Some(spell(&attr.meta)));
                }
            }
        }
        Ok(None)
    }

    /// Like [`keep`](Self::keep), without changing the attributes.
    pub(crate) fn cut_by(&self, attrs: &[Attribute]) -> Result<Option<String>, CfgError> {
        if !attrs
            .iter()
            .any(|a| a.path().is_ident("cfg") || a.path().is_ident("cfg_attr"))
        {
            return Ok(None);
        }
        self.keep(&mut attrs.to_vec())
    }

    fn expand(
        &self,
        attr: Attribute,
        out: &mut Vec<Attribute>,
        depth: usize,
    ) -> Result<(), CfgError> {
        if !attr.path().is_ident("cfg_attr") {
            out.push(attr);
            return Ok(());
        }
        if depth > 32 {
            return Err(CfgError::new(
                attr.pound_token.span,
                "cfg_attr nested too deep",
            ));
        }
        let (pred, metas) = attr
            .parse_args_with(|input: ParseStream| {
                let pred = parse_pred(input)?;
                input.parse::<Token![,]>()?;
                let metas = Punctuated::<Meta, Token![,]>::parse_terminated(input)?;
                Ok((pred, metas))
            })
            .map_err(|e| CfgError::of(&e))?;
        if self.eval(&pred) {
            for meta in metas {
                let inner = Attribute {
                    pound_token: attr.pound_token,
                    style: attr.style,
                    bracket_token: attr.bracket_token,
                    meta,
                };
                self.expand(inner, out, depth + 1)?;
            }
        }
        Ok(())
    }
}

/// `CARGO_FEATURE_<NAME>`'s spelling of a feature: upper case, `-` as `_`.
fn cargo_feature(feature: &str) -> String {
    feature.to_ascii_uppercase().replace('-', "_")
}

/// A malformed `#[cfg]` or `#[cfg_attr]`: the line it is on and why.
#[derive(Debug)]
pub(crate) struct CfgError {
    pub(crate) line: usize,
    pub(crate) message: String,
}

impl CfgError {
    fn new(span: Span, message: &str) -> CfgError {
        CfgError {
            line: crate::spell::line(span),
            message: message.to_owned(),
        }
    }

    fn of(error: &syn::Error) -> CfgError {
        CfgError::new(error.span(), &error.to_string())
    }
}

enum Pred {
    Bool(bool),
    Name(String),
    KeyValue(String, String),
    All(Vec<Pred>),
    Any(Vec<Pred>),
    Not(Box<Pred>),
}

fn parse_pred_whole(input: ParseStream) -> syn::Result<Pred> {
    let pred = parse_pred(input)?;
    if !input.is_empty() {
        return Err(
            input.error("one cfg predicate expected; join several with all(...) or any(...)")
        );
    }
    Ok(pred)
}

fn parse_pred(input: ParseStream) -> syn::Result<Pred> {
    if input.peek(LitBool) {
        return Ok(Pred::Bool(input.parse::<LitBool>()?.value));
    }
    let name = input.call(Ident::parse_any)?;
    if input.peek(Token![=]) {
        input.parse::<Token![=]>()?;
        let value: LitStr = input.parse()?;
        return Ok(Pred::KeyValue(name.to_string(), value.value()));
    }
    if !input.peek(syn::token::Paren) {
        return Ok(Pred::Name(name.to_string()));
    }
    let content;
    syn::parenthesized!(content in input);
    let mut list: Vec<Pred> =
        Punctuated::<Pred, Token![,]>::parse_terminated_with(&content, parse_pred)?
            .into_iter()
            .collect();
    match name.to_string().as_str() {
        "all" => Ok(Pred::All(list)),
        "any" => Ok(Pred::Any(list)),
        "not" if list.len() == 1 => Ok(Pred::Not(Box::new(list.remove(0)))),
        "not" => Err(syn::Error::new(
            name.span(),
            "not(...) takes exactly one predicate",
        )),
        other => Err(syn::Error::new(
            name.span(),
            format!("unknown cfg predicate `{other}(...)`: the scan reads all, any and not"),
        )),
    }
}
