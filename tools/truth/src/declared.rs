//! The declared side: the scanner's function nodes, its function → function edges, the
//! edges it over-approximated on purpose (the bound's `dispatch_edges`) and its sink edges
//! (function → boundary node), read from a [`beam_mcp_build::Declared`].

use std::collections::{BTreeMap, BTreeSet};

use crate::names::{detailed_declared, normalize_declared};
use crate::sinks;

/// A function node of the declared graph (`SERVER/module/<module>/<name>/<arity>`).
///
/// ```
/// let f = beam_mcp_truth::declared::DeclaredFn::from_id("srv/module/weather/<Stations as Default>::default/0").unwrap();
/// assert_eq!(f.module, "weather");
/// assert_eq!(f.name, "<Stations as Default>::default");
/// assert_eq!(f.key, "<Stations as Default>::default");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclaredFn {
    /// The node's id.
    pub id: String,
    /// The module path, from the crate's name.
    pub module: String,
    /// The name as the scanner wrote it.
    pub name: String,
    /// The normalized name ([`normalize_declared`]).
    pub key: String,
    /// The name with generic arguments kept ([`detailed_declared`]).
    pub detail: String,
}

impl DeclaredFn {
    /// Reads a function node's id: `None` when it is not `SERVER/module/<module>/<name>/<arity>`
    /// with a numeric arity, or a component holds an escape other than `%25` and `%2F`.
    pub fn from_id(id: &str) -> Option<DeclaredFn> {
        let parts: Vec<String> = id.split('/').map(unescape).collect::<Option<_>>()?;
        let [_, tag, module, name, arity] = parts.as_slice() else {
            return None;
        };
        if tag != "module" || arity.parse::<u32>().is_err() {
            return None;
        }
        Some(DeclaredFn {
            id: id.to_owned(),
            module: module.clone(),
            name: name.clone(),
            key: normalize_declared(name),
            detail: detailed_declared(name),
        })
    }

    /// `module::name`, as the bound's entries name a function.
    pub fn path(&self) -> String {
        format!("{}::{}", self.module, self.name)
    }
}

/// The declared graph, read for the comparison: functions by index, edges as index pairs.
///
/// ```no_run
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let declared = beam_mcp_build::connectome("srv")
///     .manifest_dir("examples/weather")
///     .crate_name("weather")
///     .cfg(beam_mcp_build::Cfg::new())
///     .level(beam_mcp_build::Level::Mfa)
///     .scan()?;
/// let side = beam_mcp_truth::declared::DeclaredSide::read(&declared);
/// println!("{} functions, {} edges", side.fns.len(), side.edges.len());
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Default)]
pub struct DeclaredSide {
    /// Every function node.
    pub fns: Vec<DeclaredFn>,
    /// Function → function edges, by index into `fns`.
    pub edges: BTreeSet<(usize, usize)>,
    /// The edges among `edges` the bound lists as `dispatch_edges` (over-approximated on
    /// purpose for `dyn Trait` and generic receivers).
    pub dispatch: BTreeSet<(usize, usize)>,
    /// Entries of `dispatch_edges` naming no edge of the graph.
    pub dispatch_unmatched: Vec<String>,
    /// Function → sink edges: the caller's index and the sink's key ([`sinks::key`]).
    pub sinks: BTreeSet<(usize, String)>,
    /// Every function → boundary node edge (sinks or not): the caller's index and the
    /// boundary's path (`std::fmt::Display::fmt`).
    pub boundary_calls: BTreeSet<(usize, String)>,
    /// Every bound category, by name: what the scan could not turn into an edge.
    pub bound: BTreeMap<String, BTreeSet<String>>,
}

impl DeclaredSide {
    /// Reads the graph and the bound of a scan.
    pub fn read(declared: &beam_mcp_build::Declared) -> DeclaredSide {
        let mut side = DeclaredSide::default();
        let mut by_id: BTreeMap<&str, usize> = BTreeMap::new();
        for node in declared.graph.nodes() {
            if let Some(function) = DeclaredFn::from_id(node.id()) {
                by_id.insert(node.id(), side.fns.len());
                side.fns.push(function);
            }
        }
        let boundary: BTreeMap<&str, String> = declared
            .graph
            .nodes()
            .iter()
            .filter_map(|node| Some((node.id(), boundary_path(node.id())?)))
            .collect();
        for edge in declared.graph.edges() {
            let (from, to, _, _) = edge.key();
            let Some(&caller) = by_id.get(from) else {
                continue;
            };
            if let Some(&callee) = by_id.get(to) {
                side.edges.insert((caller, callee));
            } else if let Some(path) = boundary.get(to) {
                side.boundary_calls.insert((caller, path.clone()));
                if let Some(key) = sinks::key(path) {
                    side.sinks.insert((caller, key));
                }
            }
        }
        for (category, entries) in declared.bound.categories() {
            side.bound.insert(category.to_owned(), entries.clone());
        }
        let by_path: BTreeMap<String, usize> = side
            .fns
            .iter()
            .enumerate()
            .map(|(i, f)| (f.path(), i))
            .collect();
        let dispatch = side
            .bound
            .get("dispatch_edges")
            .cloned()
            .unwrap_or_default();
        for entry in dispatch {
            let found = entry.split_once(" -> ").and_then(|(from, to)| {
                Some((*by_path.get(from.trim())?, *by_path.get(to.trim())?))
            });
            match found {
                Some(edge) if side.edges.contains(&edge) => {
                    side.dispatch.insert(edge);
                }
                _ => side.dispatch_unmatched.push(entry),
            }
        }
        side
    }
}

/// The path of a boundary node (`SERVER/boundary/<crate>/<path>`), e.g.
/// `std::thread::sleep`; `None` for any other id.
///
/// ```
/// use beam_mcp_truth::declared::boundary_path;
///
/// assert_eq!(boundary_path("srv/boundary/std/std::thread::sleep").as_deref(), Some("std::thread::sleep"));
/// assert_eq!(boundary_path("srv/module/weather/run/0"), None);
/// ```
pub fn boundary_path(id: &str) -> Option<String> {
    let parts: Vec<String> = id.split('/').map(unescape).collect::<Option<_>>()?;
    match parts.as_slice() {
        [_, tag, _, path] if tag == "boundary" => Some(path.clone()),
        _ => None,
    }
}

/// An id component's escapes undone: `%2F` → `/`, `%25` → `%`; any other `%` is refused.
fn unescape(component: &str) -> Option<String> {
    let mut out = String::with_capacity(component.len());
    let mut rest = component;
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at]);
        let escape = rest.get(at..at + 3)?;
        out.push(match escape {
            "%2F" | "%2f" => '/',
            "%25" => '%',
            _ => return None,
        });
        rest = &rest[at + 3..];
    }
    out.push_str(rest);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids() {
        let f = DeclaredFn::from_id("srv/module/a::b/%3C/1");
        assert!(f.is_none());
        let f = DeclaredFn::from_id("srv/module/a::b/x%2Fy%25z/1").unwrap();
        assert_eq!(f.name, "x/y%z");
        assert!(DeclaredFn::from_id("srv/module/a::b").is_none());
        assert!(DeclaredFn::from_id("srv/module/a/f/x").is_none());
        assert!(DeclaredFn::from_id("srv/tool/a/f/1").is_none());
        assert_eq!(
            boundary_path("srv/boundary/tokio/tokio::fs::read").as_deref(),
            Some("tokio::fs::read")
        );
        assert_eq!(boundary_path("srv/boundary/%"), None);
    }
}
