//! The report of one measurement: for a person (text) and for a program (`--json`).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use serde_json::{Value, json};

use crate::compare::{Metrics, NamedEdge};

/// How many examples of each list the text report prints.
const EXAMPLES: usize = 20;

/// What the scan cost: wall time, peak memory, and the size of what it read.
///
/// ```
/// let stats = beam_mcp_truth::ScanStats { lines: 20_000, wall: std::time::Duration::from_secs(1), ..Default::default() };
/// assert_eq!(stats.seconds_per_10k_lines(), Some(0.5));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScanStats {
    /// The scan's wall time.
    pub wall: Duration,
    /// The process's peak resident memory after the scan (`VmHWM`, reset just before it
    /// where the kernel allows), in KiB; `None` off Linux.
    pub peak_rss_kib: Option<u64>,
    /// Lines of the source files read.
    pub lines: usize,
    /// Source files read.
    pub files: usize,
    /// Nodes of the declared graph.
    pub nodes: usize,
    /// Edges of the declared graph.
    pub edges: usize,
}

impl ScanStats {
    /// Seconds per 10,000 lines (the acceptance target is under 2).
    pub fn seconds_per_10k_lines(&self) -> Option<f64> {
        (self.lines > 0).then(|| self.wall.as_secs_f64() * 10_000.0 / self.lines as f64)
    }

    /// The stats as JSON.
    pub fn to_json(&self) -> Value {
        json!({
            "wall_ms": self.wall.as_secs_f64() * 1000.0,
            "peak_rss_kib": self.peak_rss_kib,
            "lines": self.lines,
            "files": self.files,
            "nodes": self.nodes,
            "edges": self.edges,
            "seconds_per_10k_lines": self.seconds_per_10k_lines(),
        })
    }

    /// One line for a person.
    pub fn line(&self) -> String {
        let mut line = format!(
            "{} files, {} lines, {:.1} ms",
            self.files,
            self.lines,
            self.wall.as_secs_f64() * 1000.0
        );
        if let Some(kib) = self.peak_rss_kib {
            let _ = write!(line, ", peak RSS {:.1} MiB", kib as f64 / 1024.0);
        }
        if let Some(rate) = self.seconds_per_10k_lines() {
            let _ = write!(line, " ({rate:.3} s per 10,000 lines)");
        }
        let _ = write!(line, "; graph: {} nodes, {} edges", self.nodes, self.edges);
        line
    }
}

/// One measurement: what was built and scanned, and the comparison.
///
/// ```
/// let report = beam_mcp_truth::Report {
///     krate: "app".into(),
///     target: "lib".into(),
///     ll: "app.ll".into(),
///     features: vec![],
///     scan: Default::default(),
///     metrics: Default::default(),
/// };
/// assert!(report.text().contains("recall"));
/// assert_eq!(report.to_json()["crate"], "app");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The crate's name.
    pub krate: String,
    /// `lib`, or `bin NAME`.
    pub target: String,
    /// The `.ll` file read.
    pub ll: PathBuf,
    /// The features the build enabled (and the scan's `cfg` held).
    pub features: Vec<String>,
    /// The scan's cost.
    pub scan: ScanStats,
    /// The comparison.
    pub metrics: Metrics,
}

/// `n/d  pp.p%`, or `n/0  -`.
fn fraction(numerator: usize, denominator: usize, ratio: Option<f64>) -> String {
    match ratio {
        Some(r) => format!("{numerator}/{denominator}  {:.1}%", r * 100.0),
        None => format!("{numerator}/{denominator}  -"),
    }
}

/// Up to [`EXAMPLES`] edges, one a line, under a heading.
fn examples(out: &mut String, heading: &str, edges: &[NamedEdge]) {
    if edges.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "{heading} ({} of {}):",
        edges.len().min(EXAMPLES),
        edges.len()
    );
    for edge in edges.iter().take(EXAMPLES) {
        let _ = writeln!(out, "  {edge}");
    }
}

/// Up to [`EXAMPLES`] names, one a line, under a heading.
fn lines(out: &mut String, heading: &str, names: &[String]) {
    if names.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "{heading} ({} of {}):",
        names.len().min(EXAMPLES),
        names.len()
    );
    for name in names.iter().take(EXAMPLES) {
        let _ = writeln!(out, "  {name}");
    }
}

impl Report {
    /// The report for a person.
    pub fn text(&self) -> String {
        let m = &self.metrics;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "beam-mcp-truth: crate {} ({}), features [{}]",
            self.krate,
            self.target,
            self.features.join(", ")
        );
        let _ = writeln!(
            out,
            "IR: {}\n  {} functions defined, {} the crate's own ({} without a declared node); {} indirect calls",
            self.ll.display(),
            m.ir_functions,
            m.ir_local_functions,
            m.ir_unmapped.len(),
            m.ir_indirect_calls
        );
        let _ = writeln!(out, "scan: {}", self.scan.line());
        let _ = writeln!(
            out,
            "declared: {} functions ({} emit no code), {} function edges, {} sink edges",
            m.declared_functions, m.declared_no_code, m.declared_edges, m.declared_sinks
        );
        let _ = writeln!(out, "function -> function edges:");
        let _ = writeln!(
            out,
            "  recall     {}   (IR edges between declared functions that the declared graph has)",
            fraction(m.ir_found, m.ir_edges, m.recall())
        );
        let _ = writeln!(
            out,
            "  precision  {}   (declared edges the IR has; {} left out: an end emits no code)",
            fraction(m.declared_confirmed, m.declared_considered, m.precision()),
            m.declared_edges_no_code
        );
        let _ = writeln!(
            out,
            "  dispatch (over-approximated) edges: {}, the IR confirms {} (left out of precision); {} bound entries name no edge",
            m.dispatch_edges, m.dispatch_confirmed, m.dispatch_unmatched
        );
        let _ = writeln!(
            out,
            "  not compared: {} IR calls with an end the scan has no node for, {} calls of another function's closure or async body (`.await` polls it)",
            m.ir_edges_unmapped, m.ir_closure_calls
        );
        let _ = writeln!(
            out,
            "sinks (std::fs/process/net/env, std::thread::sleep, tokio::fs/process/net):\n  recall     {}   ({} more from functions without a declared node)",
            fraction(m.sinks_found, m.ir_sinks, m.sink_recall()),
            m.sinks_unmapped_caller
        );
        if !m.missed_shapes.is_empty() {
            let _ = writeln!(out, "missed edges by shape:");
            for (shape, count) in &m.missed_shapes {
                let _ = writeln!(out, "  {count:5}  {shape}");
            }
        }
        examples(&mut out, "missed edges", &m.missed);
        examples(&mut out, "extra edges", &m.extra);
        examples(&mut out, "missed sinks", &m.missed_sinks);
        examples(
            &mut out,
            "IR edges with an end the scan has no node for",
            &m.unmapped_edges,
        );
        lines(
            &mut out,
            "declared functions that emit no code",
            &m.declared_without_code,
        );
        let unmapped: Vec<String> = m.ir_unmapped.iter().cloned().collect();
        lines(
            &mut out,
            "crate functions without a declared node",
            &unmapped,
        );
        out
    }

    /// The report as JSON: every count, the ratios (`null` when undefined) and every list.
    pub fn to_json(&self) -> Value {
        let m = &self.metrics;
        let edges = |edges: &[NamedEdge]| -> Value {
            edges
                .iter()
                .map(|e| json!({"from": e.from, "to": e.to, "shape": e.shape}))
                .collect()
        };
        json!({
            "crate": self.krate,
            "target": self.target,
            "ll": self.ll.display().to_string(),
            "features": self.features,
            "scan": self.scan.to_json(),
            "ir": {
                "functions": m.ir_functions,
                "local_functions": m.ir_local_functions,
                "unmapped_functions": m.ir_unmapped,
                "edges": m.ir_edges,
                "edges_unmapped": m.ir_edges_unmapped,
                "closure_calls": m.ir_closure_calls,
                "indirect_calls": m.ir_indirect_calls,
                "sinks": m.ir_sinks,
            },
            "declared": {
                "functions": m.declared_functions,
                "functions_no_code": m.declared_no_code,
                "without_code": m.declared_without_code,
                "edges": m.declared_edges,
                "edges_no_code": m.declared_edges_no_code,
                "edges_considered": m.declared_considered,
                "dispatch_edges": m.dispatch_edges,
                "dispatch_confirmed": m.dispatch_confirmed,
                "dispatch_unmatched": m.dispatch_unmatched,
                "sinks": m.declared_sinks,
            },
            "recall": m.recall(),
            "precision": m.precision(),
            "sink_recall": m.sink_recall(),
            "found": m.ir_found,
            "confirmed": m.declared_confirmed,
            "sinks_found": m.sinks_found,
            "sinks_unmapped_caller": m.sinks_unmapped_caller,
            "missed_shapes": m.missed_shapes.iter().map(|(s, n)| json!({"shape": s, "count": n})).collect::<Vec<_>>(),
            "missed": edges(&m.missed),
            "extra": edges(&m.extra),
            "missed_sinks": edges(&m.missed_sinks),
            "unmapped_edges": edges(&m.unmapped_edges),
        })
    }
}
