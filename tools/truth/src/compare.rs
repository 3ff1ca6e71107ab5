//! The comparison: the IR's crate-local call edges and sink calls mapped onto the declared
//! functions, then recall, precision and sink recall.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::declared::DeclaredSide;
use crate::ir;
use crate::names::{self, Name, Shape};
use crate::shapes;
use crate::sinks;

/// An edge between two declared functions, by their `module::name`, with what kind of call
/// the scan would have had to resolve to find it.
///
/// ```
/// let edge = beam_mcp_truth::NamedEdge { from: "a::f".into(), to: "a::g".into(), shape: "not in the bound".into() };
/// assert_eq!(edge.to_string(), "a::f -> a::g  [not in the bound]");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct NamedEdge {
    /// The caller, `module::name`.
    pub from: String,
    /// The callee, `module::name` (a sink's key for a sink edge).
    pub to: String,
    /// The kind of call (for a missed edge), or empty.
    pub shape: String,
}

impl std::fmt::Display for NamedEdge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} -> {}", self.from, self.to)?;
        if !self.shape.is_empty() {
            write!(f, "  [{}]", self.shape)?;
        }
        Ok(())
    }
}

/// Counts and examples of one comparison.
///
/// ```
/// let metrics = beam_mcp_truth::Metrics::default();
/// assert_eq!(metrics.recall(), None); // nothing to recall
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metrics {
    /// Functions the `.ll` defines.
    pub ir_functions: usize,
    /// Of those, the crate's own (closures folded into their function, shims left out),
    /// distinct.
    pub ir_local_functions: usize,
    /// Crate-local functions with no declared node (derived impls, functions made by macros,
    /// functions nested in bodies...), by demangled name.
    pub ir_unmapped: BTreeSet<String>,
    /// Direct calls between crate-local functions whose one end has no declared node: not
    /// compared.
    pub ir_edges_unmapped: usize,
    /// Direct calls of another function's closure (a closure passed in, then called): not
    /// compared (the scanner counts a closure's calls as its function's).
    pub ir_closure_calls: usize,
    /// Calls through a vtable or a function pointer in the IR: never edges.
    pub ir_indirect_calls: usize,
    /// Distinct function → function edges of the IR between declared functions.
    pub ir_edges: usize,
    /// Declared functions.
    pub declared_functions: usize,
    /// Declared functions that emit no code in the IR (uninstantiated generics, unused
    /// `#[inline]` functions, functions cut by a `cfg` the scan did not cut).
    pub declared_no_code: usize,
    /// Their names, `module::name`.
    pub declared_without_code: Vec<String>,
    /// Declared function → function edges.
    pub declared_edges: usize,
    /// Declared edges left out of precision because an end emits no code.
    pub declared_edges_no_code: usize,
    /// Declared edges the bound lists as deliberately over-approximated (`dispatch_edges`).
    pub dispatch_edges: usize,
    /// Of those, the ones the IR has.
    pub dispatch_confirmed: usize,
    /// `dispatch_edges` entries naming no edge of the graph.
    pub dispatch_unmatched: usize,
    /// Declared edges in precision's denominator.
    pub declared_considered: usize,
    /// IR edges the declared graph has (recall's numerator).
    pub ir_found: usize,
    /// Considered declared edges the IR has (precision's numerator).
    pub declared_confirmed: usize,
    /// Distinct (function, sink) calls in the IR from a declared function.
    pub ir_sinks: usize,
    /// Of those, the ones the declared graph has as an edge to a boundary node.
    pub sinks_found: usize,
    /// Sink calls from a crate-local function with no declared node.
    pub sinks_unmapped_caller: usize,
    /// Declared sink edges.
    pub declared_sinks: usize,
    /// IR edges the declared graph lacks, each with its shape.
    pub missed: Vec<NamedEdge>,
    /// Considered declared edges the IR lacks.
    pub extra: Vec<NamedEdge>,
    /// Sink calls of the IR the declared graph lacks.
    pub missed_sinks: Vec<NamedEdge>,
    /// Missed edges counted by shape, most first.
    pub missed_shapes: Vec<(String, usize)>,
    /// Examples of IR edges with an unmapped end (demangled names).
    pub unmapped_edges: Vec<NamedEdge>,
}

/// A ratio, `None` when the denominator is zero.
fn ratio(numerator: usize, denominator: usize) -> Option<f64> {
    // Counts of edges are far below 2^52: the conversion is exact.
    (denominator > 0).then(|| numerator as f64 / denominator as f64)
}

impl Metrics {
    /// |IR ∩ declared| / |IR|.
    pub fn recall(&self) -> Option<f64> {
        ratio(self.ir_found, self.ir_edges)
    }

    /// |declared considered ∩ IR| / |declared considered|.
    pub fn precision(&self) -> Option<f64> {
        ratio(self.declared_confirmed, self.declared_considered)
    }

    /// The IR's sink calls the declared graph has, as a fraction.
    pub fn sink_recall(&self) -> Option<f64> {
        ratio(self.sinks_found, self.ir_sinks)
    }
}

/// The declared functions indexed for the lookups of [`Mapper::resolve`].
struct Mapper<'a> {
    krate: &'a str,
    side: &'a DeclaredSide,
    /// Normalized name → functions.
    by_key: HashMap<&'a str, Vec<usize>>,
    /// (module, trait, method) → functions named `<_ as trait>::method` there.
    by_trait: HashMap<(&'a str, String, String), Vec<usize>>,
}

impl<'a> Mapper<'a> {
    fn new(krate: &'a str, side: &'a DeclaredSide) -> Mapper<'a> {
        let mut by_key: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut by_trait: HashMap<(&str, String, String), Vec<usize>> = HashMap::new();
        for (i, f) in side.fns.iter().enumerate() {
            by_key.entry(f.key.as_str()).or_default().push(i);
            if let Some((tr, method)) = names::trait_method(&f.key) {
                by_trait
                    .entry((f.module.as_str(), tr, method))
                    .or_default()
                    .push(i);
            }
        }
        Mapper {
            krate,
            side,
            by_key,
            by_trait,
        }
    }

    /// Whether the name is the crate's own.
    fn local(&self, name: &Name) -> bool {
        !name.shim && name.crates.iter().any(|c| c == self.krate)
    }

    /// The declared function a crate-local name stands for: the reading whose module and name
    /// match, else a method's name when one function of the crate has it, else, for a trait
    /// of the crate, a trait impl's method in the impl's module when one impl of that trait
    /// there has it (the blanket `impl<T: X> Tr for T`, written `<T as Tr>`, instantiated
    /// `<Foo as Tr>`).
    fn resolve(&self, name: &Name) -> Option<usize> {
        for reading in &name.readings {
            let candidates: Vec<usize> = self
                .by_key
                .get(reading.name.as_str())
                .map(|c| {
                    c.iter()
                        .copied()
                        .filter(|&i| self.side.fns[i].module == reading.module)
                        .collect()
                })
                .unwrap_or_default();
            if let Some(found) = self.pick(&candidates, name) {
                return Some(found);
            }
        }
        for reading in name.readings.iter().filter(|r| r.by_name) {
            if let Some(candidates) = self.by_key.get(reading.name.as_str())
                && let Some(found) = self.pick(candidates, name)
            {
                return Some(found);
            }
        }
        // Only the crate's own traits: a blanket `impl<T: X> Tr for T` is possible only for
        // them (orphan rules), while a foreign trait's impl with no node of its own is
        // usually derived (`#[derive(Default)]`), and must not be taken for another type's.
        if let (
            Shape::Trait {
                trait_crate,
                trait_name,
                method,
            },
            Some(first),
        ) = (&name.shape, name.readings.first())
            && trait_crate == self.krate
        {
            let key = (first.module.as_str(), trait_name.clone(), method.clone());
            if let Some(candidates) = self.by_trait.get(&key) {
                return self.pick(candidates, name);
            }
        }
        None
    }

    /// The one candidate, or the one whose name with generic arguments is the symbol's
    /// (`<A as From<String>>::from` among `A`'s `From` impls); `None` when that does not
    /// decide.
    fn pick(&self, candidates: &[usize], name: &Name) -> Option<usize> {
        match candidates {
            [] => None,
            [only] => Some(*only),
            many => {
                let mut same = many
                    .iter()
                    .filter(|&&i| self.side.fns[i].detail == name.detail);
                match (same.next(), same.next()) {
                    (Some(found), None) => Some(*found),
                    _ => None,
                }
            }
        }
    }
}

/// Compares the IR module of crate `krate` with the declared side.
///
/// ```
/// use beam_mcp_truth::{compare, declared::DeclaredSide, ir};
///
/// let module = ir::parse("define void @_RNvCs1_3app4main() {\n  call void @_RNvCs1_3app6helper()\n}\n");
/// let metrics = compare::compare(&module, "app", &DeclaredSide::default());
/// assert_eq!(metrics.ir_local_functions, 1);
/// assert_eq!(metrics.ir_edges, 0); // no declared function to map onto
/// ```
pub fn compare(module: &ir::Module, krate: &str, side: &DeclaredSide) -> Metrics {
    let mapper = Mapper::new(krate, side);
    let mut cache: HashMap<&str, Option<Name>> = HashMap::new();
    let mut metrics = Metrics {
        ir_functions: module.functions.len(),
        ir_indirect_calls: module.indirect_calls,
        declared_functions: side.fns.len(),
        declared_edges: side.edges.len(),
        declared_sinks: side.sinks.len(),
        dispatch_unmatched: side.dispatch_unmatched.len(),
        ..Metrics::default()
    };
    let mut local_names: BTreeSet<String> = BTreeSet::new();
    let mut emitting: BTreeSet<usize> = BTreeSet::new();
    let mut ir_edges: BTreeSet<(usize, usize)> = BTreeSet::new();
    let mut ir_sinks: BTreeSet<(usize, String)> = BTreeSet::new();
    let mut unmapped_edges: BTreeSet<NamedEdge> = BTreeSet::new();
    for function in &module.functions {
        let caller_name = cache
            .entry(function.symbol.as_str())
            .or_insert_with(|| names::demangle(&function.symbol))
            .clone();
        let Some(caller_name) = caller_name else {
            continue;
        };
        if !mapper.local(&caller_name) {
            continue;
        }
        local_names.insert(caller_name.display.clone());
        let caller = mapper.resolve(&caller_name);
        match caller {
            Some(i) => {
                emitting.insert(i);
            }
            None => {
                metrics.ir_unmapped.insert(caller_name.display.clone());
            }
        }
        for callee_symbol in &function.callees {
            let callee_name = cache
                .entry(callee_symbol.as_str())
                .or_insert_with(|| names::demangle(callee_symbol))
                .clone();
            let Some(callee_name) = callee_name else {
                continue;
            };
            if callee_name.shim {
                continue;
            }
            if mapper.local(&callee_name) {
                if callee_name.folded {
                    // A function calling its own closure (or a closure its sibling) folds
                    // into a self-call that is no call; another function's closure is a value
                    // passed in.
                    if callee_name.display != caller_name.display {
                        metrics.ir_closure_calls += 1;
                    }
                    continue;
                }
                match (caller, mapper.resolve(&callee_name)) {
                    (Some(from), Some(to)) => {
                        ir_edges.insert((from, to));
                    }
                    _ => {
                        metrics.ir_edges_unmapped += 1;
                        unmapped_edges.insert(NamedEdge {
                            from: caller_name.display.clone(),
                            to: callee_name.display.clone(),
                            shape: String::new(),
                        });
                    }
                }
            } else if let Some(key) = callee_name.sink_path.as_deref().and_then(sinks::key) {
                match caller {
                    Some(from) => {
                        ir_sinks.insert((from, key));
                    }
                    None => metrics.sinks_unmapped_caller += 1,
                }
            }
        }
    }
    metrics.ir_local_functions = local_names.len();
    metrics.ir_edges = ir_edges.len();
    metrics.declared_without_code = (0..side.fns.len())
        .filter(|i| !emitting.contains(i))
        .map(|i| side.fns[i].path())
        .collect();
    metrics.declared_no_code = metrics.declared_without_code.len();
    let path = |i: usize| side.fns[i].path();
    let named = |(from, to): (usize, usize), shape: String| NamedEdge {
        from: path(from),
        to: path(to),
        shape,
    };
    for &edge in &side.edges {
        let in_ir = ir_edges.contains(&edge);
        if side.dispatch.contains(&edge) {
            metrics.dispatch_edges += 1;
            metrics.dispatch_confirmed += usize::from(in_ir);
            continue;
        }
        if !emitting.contains(&edge.0) || !emitting.contains(&edge.1) {
            metrics.declared_edges_no_code += 1;
            continue;
        }
        metrics.declared_considered += 1;
        if in_ir {
            metrics.declared_confirmed += 1;
        } else {
            metrics.extra.push(named(edge, String::new()));
        }
    }
    let mut shape_counts: BTreeMap<String, usize> = BTreeMap::new();
    for &edge in &ir_edges {
        if side.edges.contains(&edge) {
            metrics.ir_found += 1;
        } else {
            let shape = shapes::classify(side, edge.0, edge.1);
            *shape_counts.entry(shape.clone()).or_default() += 1;
            metrics.missed.push(named(edge, shape));
        }
    }
    let mut shapes: Vec<(String, usize)> = shape_counts.into_iter().collect();
    shapes.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    metrics.missed_shapes = shapes;
    metrics.ir_sinks = ir_sinks.len();
    for (from, key) in &ir_sinks {
        if side.sinks.contains(&(*from, key.clone())) {
            metrics.sinks_found += 1;
        } else {
            metrics.missed_sinks.push(NamedEdge {
                from: path(*from),
                to: key.clone(),
                shape: String::new(),
            });
        }
    }
    metrics.unmapped_edges = unmapped_edges.into_iter().collect();
    metrics
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declared::DeclaredFn;

    fn side(ids: &[&str], edges: &[(usize, usize)]) -> DeclaredSide {
        let mut side = DeclaredSide {
            fns: ids
                .iter()
                .map(|id| DeclaredFn::from_id(id).unwrap())
                .collect(),
            ..DeclaredSide::default()
        };
        side.edges.extend(edges.iter().copied());
        side
    }

    // Symbols rustc 1.95 wrote (v0) for a crate `sample`:
    // sample::run, sample::generic::<sample::Fast>, <sample::model::Stations>::reading,
    // sample::model::helper, sample::with_closure::{closure#0}, sample::io,
    // std::fs::read_to_string::<&str>.
    const RUN: &str = "_RNvCsg5P03tE4okC_6sample3run";
    const GENERIC: &str = "_RINvCsg5P03tE4okC_6sample7genericNtB2_4FastEB2_";
    const READING: &str = "_RNvMNtCsg5P03tE4okC_6sample5modelNtB2_8Stations7reading";
    const HELPER: &str = "_RNvNtCsg5P03tE4okC_6sample5model6helper";
    const CLOSURE: &str = "_RNCNvCsg5P03tE4okC_6sample12with_closure0B3_";
    const IO: &str = "_RNvCsg5P03tE4okC_6sample2io";
    const READ_TO_STRING: &str =
        "_RINvNtCsjrHSEGnQ3l9_3std2fs14read_to_stringReECsg5P03tE4okC_6sample";

    fn module(functions: &[(&str, &[&str])]) -> ir::Module {
        ir::Module {
            functions: functions
                .iter()
                .map(|(symbol, callees)| ir::Defined {
                    symbol: (*symbol).to_owned(),
                    callees: callees.iter().map(|c| (*c).to_owned()).collect(),
                })
                .collect(),
            indirect_calls: 0,
        }
    }

    #[test]
    fn recall_precision_and_exclusions() {
        let side = side(
            &[
                "srv/module/sample/run/1",
                "srv/module/sample/generic/1",
                "srv/module/sample::model/Stations::reading/2",
                "srv/module/sample::model/helper/1",
                "srv/module/sample/uninst/0",
                "srv/module/sample/with_closure/1",
            ],
            &[(0, 1), (0, 4), (5, 3), (1, 2)],
        );
        let module = module(&[
            (RUN, &[GENERIC, READING]),
            (GENERIC, &[]),
            (READING, &[HELPER]),
            (HELPER, &[]),
            (CLOSURE, &[HELPER]),
            ("_RNvCsg5P03tE4okC_6sample12with_closure", &[]),
        ]);
        let metrics = compare(&module, "sample", &side);
        // IR: run→generic, run→reading, reading→helper, with_closure→helper.
        assert_eq!(metrics.ir_edges, 4);
        assert_eq!(metrics.ir_found, 2);
        assert_eq!(metrics.recall(), Some(0.5));
        // Declared: run→uninst has no code; generic→reading is extra.
        assert_eq!(metrics.declared_edges_no_code, 1);
        assert_eq!(metrics.declared_considered, 3);
        assert_eq!(metrics.declared_confirmed, 2);
        assert_eq!(metrics.extra[0].to, "sample::model::Stations::reading");
        assert_eq!(metrics.missed.len(), 2);
    }

    #[test]
    fn impls_of_one_trait_with_other_arguments_are_told_apart() {
        // <rust_mcp_sdk::auth::spec::audience::Audience as core::convert::From<&str>>::from and
        // <.. as core::convert::From<alloc::string::String>>::from, as rustc 1.95 wrote them.
        let from_str = "_RNvXs4_NtNtNtCsla3YwKCw44Y_12rust_mcp_sdk4auth4spec8audienceNtB5_8AudienceINtNtCsgEmfK2I1SDS_4core7convert4FromReE4from";
        let from_string = "_RNvXs5_NtNtNtCsla3YwKCw44Y_12rust_mcp_sdk4auth4spec8audienceNtB5_8AudienceINtNtCsgEmfK2I1SDS_4core7convert4FromNtNtCslNYArtu3iFV_5alloc6string6StringE4from";
        let side = side(
            &[
                "srv/module/rust_mcp_sdk::auth::spec::audience/<Audience as From<String>>::from/1",
                "srv/module/rust_mcp_sdk::auth::spec::audience/<Audience as From<&str>>::from/1",
            ],
            &[(1, 0)],
        );
        let module = module(&[(from_str, &[from_string]), (from_string, &[])]);
        let metrics = compare(&module, "rust_mcp_sdk", &side);
        assert_eq!(metrics.declared_no_code, 0);
        assert_eq!((metrics.ir_edges, metrics.ir_found), (1, 1));
    }

    #[test]
    fn a_derived_impl_is_not_taken_for_another_types() {
        // <semver::Prerelease as core::default::Default>::default is derived: no node; the
        // declared <VersionReq as Default>::default in the same module is another function.
        let name = names::read(
            "<semver::Prerelease as core::default::Default>::default",
            &names::ImplSite::Impl {
                krate: "semver".into(),
                module: Some("semver".into()),
            },
        )
        .unwrap();
        let semver = side(
            &["srv/module/semver/<VersionReq as Default>::default/0"],
            &[],
        );
        assert_eq!(Mapper::new("semver", &semver).resolve(&name), None);
        // A blanket impl of the crate's own trait is found by the trait.
        let name = names::read(
            "<sample::Fast as sample::Ext>::go",
            &names::ImplSite::Impl {
                krate: "sample".into(),
                module: Some("sample".into()),
            },
        )
        .unwrap();
        let sample = side(&["srv/module/sample/<T as Ext>::go/1"], &[]);
        assert_eq!(Mapper::new("sample", &sample).resolve(&name), Some(0));
    }

    #[test]
    fn sinks_are_matched_by_key() {
        let mut declared = side(&["srv/module/sample/io/0"], &[]);
        let module = module(&[(IO, &[READ_TO_STRING])]);
        let metrics = compare(&module, "sample", &declared);
        assert_eq!((metrics.ir_sinks, metrics.sinks_found), (1, 0));
        declared
            .sinks
            .insert((0, "std::fs::read_to_string".to_owned()));
        let metrics = compare(&module, "sample", &declared);
        assert_eq!(metrics.sink_recall(), Some(1.0));
    }
}
