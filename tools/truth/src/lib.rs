//! # beam-mcp-truth
//!
//! Measures the declared connectome (`beam-mcp-build`'s scan of a crate's sources) against the
//! call graph the compiler itself emits. A test-time tool: nothing of it ships.
//!
//! ```text
//! beam-mcp-truth measure --manifest-dir examples/weather --crate weather --bin weather
//! ```
//!
//! 1. **Ground truth.** The crate alone is compiled with `--emit=llvm-ir -C opt-level=0 -C
//!    link-dead-code -C codegen-units=1 -C symbol-mangling-version=v0` (see [`cargo`]'s
//!    module for why each), its dependencies from the ordinary build cache. Every `define` of
//!    the `.ll` is a function, every `call`/`invoke` of a symbol inside it a direct call
//!    ([`ir`]).
//! 2. **Names.** Symbols are demangled (`rustc-demangle`) and reduced ([`names`]): hashes and
//!    generic arguments dropped, `{closure#N}` segments (async bodies among them) folded into
//!    their function, shims dropped, a method named as the scanner names it (`Type::f`,
//!    `<Type as Trait>::f`, `Trait::f`) and both sides compared by a normalized name (the last
//!    segment of each type and trait), in the impl's module (v0 symbols carry it), else by the
//!    name alone when one function of the crate has it.
//! 3. **Comparison** ([`compare`]). Recall = |IR ∩ declared| / |IR| over the IR's edges between
//!    declared functions. Precision = |declared ∩ IR| / |declared considered|, leaving out a
//!    declared edge whose end emits no code and the bound's `dispatch_edges` (deliberately
//!    over-approximated: counted apart, with how many the IR confirms). Sink recall: the IR's
//!    calls from a crate function into `std::fs`, `std::process`, `std::net`, `std::env`,
//!    `std::thread::sleep`, `tokio::fs`, `tokio::process`, `tokio::net` that the declared
//!    graph has as an edge to a boundary node of the same path ([`sinks`]).
//!
//! ## Blind spots
//!
//! The IR is a lower bound of what runs, and not every source function is in it:
//!
//! * **Uninstantiated generics emit nothing.** A generic function or method no code of the
//!   crate instantiates has no `define`; its declared edges are left out of precision
//!   (counted as "an end emits no code"). A generic instantiated only by another crate is
//!   the same.
//! * **Dynamic dispatch is invisible.** Calls through `dyn Trait` vtables and function
//!   pointers are indirect `call`s, never edges; a callback passed to a foreign generic
//!   (`iter.map(Self::f)`, `thread::spawn(f)`) is called from the foreign function's
//!   instantiation, which is not the crate's: that edge is not in the IR either.
//! * **Async bodies are closures.** An `async fn`'s body is its `{closure#0}` coroutine, and
//!   `.await` polls it from the caller's own coroutine; both are folded into their functions,
//!   so `outer → inner` shows as the call that builds `inner`'s future. A call of *another*
//!   function's closure (one passed in) is counted apart, not compared.
//! * **`#[inline]` and `const fn`.** At `opt-level=0` nothing is inlined but
//!   `#[inline(always)]` (LLVM's always-inliner still runs): a call to such a function has no
//!   `call` left. An unused `#[inline]` function may be emitted nowhere. A `const fn` called
//!   in a constant runs at compile time: no call.
//! * **Functions nested in bodies** (`fn inner()` inside `fn outer`) are named
//!   `outer::inner` by the compiler and have no declared node (the scanner lists them as
//!   `nested_items`): their edges are counted as "an end the scan has no node for".
//! * **Macro-generated functions** (derives, `macro_rules!` items, attribute macros like
//!   `#[tool]` or `#[async_trait]`) are in the IR but not in the declared graph; the same
//!   count. An `#[async_trait]` method's body is a closure of the method, so its calls fold
//!   into it.
//! * **Implicit calls are real calls**: `?` (`From::from`), operators, `for` loops
//!   (`IntoIterator`, `next`), auto-deref, `Drop` (from the crate's own `drop_in_place` glue
//!   only when the drop glue is the crate's; usually it is `core`'s, so drops are missed by
//!   both). The missed-edge shapes name them.
//! * **Foreign traits on foreign types** with a local type argument (`impl From<Local> for
//!   String`) are recognized by the impl's module in the v0 symbol; under legacy mangling they
//!   would not be.
//! * **Sinks** are matched for free functions and inherent methods (`File::open`); a trait
//!   method of a sink type (`<File as Write>::write_all`) is not counted. `std::net` types
//!   that moved to `core::net` (`IpAddr`) are not sinks.
//! * The IR is of one build: one target, one feature set, the host's `cfg`. The scan is given
//!   the same `cfg` (the host's `rustc --print cfg`, `debug_assertions`, the build's features
//!   and its build script's `cfg`s).

pub mod cargo;
pub mod compare;
pub mod declared;
mod error;
pub mod ir;
pub mod names;
mod report;
pub mod shapes;
pub mod sinks;

use std::path::Path;
use std::time::Instant;

pub use cargo::{Target, scan_cfg};
pub use compare::{Metrics, NamedEdge};
pub use error::TruthError;
pub use report::{Report, ScanStats};

/// The server name the scan is run with (it appears only in node ids).
const SERVER: &str = "srv";

/// Builds the target's IR, scans its sources and compares the two.
///
/// ```no_run
/// let target = beam_mcp_truth::Target::new("examples/weather").bin("weather");
/// let report = beam_mcp_truth::measure(&target)?;
/// println!("{}", report.text());
/// # Ok::<(), beam_mcp_truth::TruthError>(())
/// ```
pub fn measure(target: &Target) -> Result<Report, TruthError> {
    let resolved = cargo::resolve(target)?;
    let krate = crate_name(target, &resolved)?;
    let built = cargo::build_ir(target, &resolved)?;
    let mut cfgs = cargo::host_cfg(&resolved.manifest_dir)?;
    cfgs.extend(built.script_cfgs.iter().cloned());
    let cfg = scan_cfg(&cfgs, &built.features);
    let root = target.root.clone().unwrap_or_else(|| resolved.root.clone());
    // The scan first, so that the peak memory read after it is the scan's, not the IR's.
    let (declared, scan) = timed_scan(&resolved.manifest_dir, &krate, &root, cfg)?;
    let text = std::fs::read_to_string(&built.ll).map_err(|e| TruthError::Read {
        path: built.ll.clone(),
        message: e.to_string(),
    })?;
    let module = ir::parse(&text);
    drop(text);
    let side = declared::DeclaredSide::read(&declared);
    let metrics = compare::compare(&module, &krate, &side);
    Ok(Report {
        krate,
        target: if resolved.is_bin {
            format!("bin {}", resolved.target_name)
        } else {
            "lib".to_owned()
        },
        ll: built.ll,
        features: built.features,
        scan,
        metrics,
    })
}

/// Scans the target's sources only (no build), with the host's `cfg` and the package's
/// default and requested features: what the scan costs, for timing it alone.
///
/// ```no_run
/// let stats = beam_mcp_truth::scan_only(&beam_mcp_truth::Target::new("examples/weather"))?;
/// println!("{}", stats.line());
/// # Ok::<(), beam_mcp_truth::TruthError>(())
/// ```
pub fn scan_only(target: &Target) -> Result<ScanStats, TruthError> {
    let resolved = cargo::resolve(target)?;
    let krate = crate_name(target, &resolved)?;
    let cfgs = cargo::host_cfg(&resolved.manifest_dir)?;
    let cfg = scan_cfg(&cfgs, &resolved.declared_features);
    let root = target.root.clone().unwrap_or_else(|| resolved.root.clone());
    Ok(timed_scan(&resolved.manifest_dir, &krate, &root, cfg)?.1)
}

/// The crate's name: the one given, which must be the target's, or the target's.
fn crate_name(target: &Target, resolved: &cargo::Resolved) -> Result<String, TruthError> {
    match &target.crate_name {
        Some(name) if name.replace('-', "_") != resolved.crate_name => {
            Err(TruthError::Usage(format!(
                "--crate {name}: the target's crate is named {}",
                resolved.crate_name
            )))
        }
        _ => Ok(resolved.crate_name.clone()),
    }
}

/// Runs the scan at level `mfa`, timing it and reading the peak memory after it.
fn timed_scan(
    dir: &Path,
    krate: &str,
    root: &Path,
    cfg: beam_mcp_build::Cfg,
) -> Result<(beam_mcp_build::Declared, ScanStats), TruthError> {
    // Linux resets the peak (VmHWM) to the current RSS on "5"; elsewhere this fails quietly.
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let start = Instant::now();
    let declared = beam_mcp_build::connectome(SERVER)
        .manifest_dir(dir)
        .crate_name(krate)
        .root(root)
        .cfg(cfg)
        .level(beam_mcp_build::Level::Mfa)
        .scan()?;
    let wall = start.elapsed();
    let peak_rss_kib = peak_rss_kib();
    let lines = declared
        .sources
        .iter()
        .filter_map(|file| std::fs::read_to_string(file).ok())
        .map(|text| text.lines().count())
        .sum();
    let stats = ScanStats {
        wall,
        peak_rss_kib,
        lines,
        files: declared.sources.len(),
        nodes: declared.graph.nodes().len(),
        edges: declared.graph.edges().len(),
    };
    Ok((declared, stats))
}

/// The process's peak resident memory in KiB (`VmHWM` in `/proc/self/status`).
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
