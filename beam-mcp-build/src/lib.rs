//! # beam-mcp-build
//!
//! The declared connectome of a beam-mcp server, read from the crate's sources at build time.
//! Add it as a build-dependency and call it from `build.rs` in one line, with the server's
//! name:
//!
//! ```no_run
//! // build.rs: fn main() { ... }
//! beam_mcp_build::connectome("weather").emit();
//! ```
//!
//! The scan follows the module tree from the crate root (`src/main.rs`, else `src/lib.rs`),
//! honouring `#[cfg]` for this build (`CARGO_CFG_*`, `CARGO_FEATURE_*`), and prints
//! `cargo::rerun-if-changed` for every file it reads. It finds every `#[tool]`,
//! `#[resource]` and `#[prompt]` (reading each attribute with the macros' own parser) and the
//! static calls between the crate's functions: a call by path that resolves, through the
//! module tree and `use` items, to one of the crate's functions is an edge; so is a method call
//! whose receiver's type the syntax tells (`self`, a parameter's or a `let`'s type, a field, a
//! return type), and a call through a trait, to every impl of the crate that may run (listed as
//! dispatch). A call into another crate is a boundary node, labelled with its capability
//! (`fs-write`, `net`, `time`, ...) from a versioned table the host can extend
//! ([`Connectome::sink`]). Everything else a body does (receivers it cannot type, function
//! pointers, macros, `include!`, items made by macros or cut by `cfg`) is listed by name in
//! the [`Bound`], never guessed at. [`Declared::reach`] and [`Declared::check`] answer what
//! each tool can reach and whether its annotations hold.
//!
//! It writes to `OUT_DIR`:
//!
//! * `connectome.json`: the graph's canonical bytes (serve them with
//!   `include_bytes!(concat!(env!("OUT_DIR"), "/connectome.json"))`);
//! * `connectome.json.sha256` (or the algorithm chosen): their digest, in hex;
//! * `connectome-bound.json`: the bound, as canonical JSON.
//!
//! A tool name, prompt name or resource URI declared twice is a `cargo::error=` naming both
//! places, and nothing is written.
//!
//! ## Ids and levels
//!
//! | level | code node | id |
//! |---|---|---|
//! | `mfa` | a function with a body: `module::path` + name + arity (parameters, `self` included) | `srv/module/weather::resources/station/2` |
//! | `module` (default) | a module, by its path from the crate's name | `srv/module/weather::resources` |
//! | `boundary` | the crate | `srv/boundary/crate/weather` |
//!
//! A method is named `Type::f` in an inherent impl, `<Type as Trait>::f` in a trait impl
//! (types and traits as written), `Trait::f` for a trait's provided method. Edges: `invoke`
//! server → each item; item → the code node of its function and of each completer it names;
//! caller → callee for each resolved call. At `module` and `boundary` a call within one node
//! is a self-loop and is dropped (at `mfa` recursion stays). A call into another crate goes to
//! a boundary node per crate and path at every level, `srv/boundary/std/std::thread::sleep`.
#![forbid(unsafe_code)]

mod body;
mod bound;
mod calls;
mod cfg;
mod declared;
mod error;
mod graph;
mod index;
mod items;
mod loader;
mod names;
mod nesting;
mod policy;
mod resolve;
mod scan;
mod sinks;
mod spell;
mod types;

use std::io::Write;
use std::path::{Path, PathBuf};

pub use beam_mcp_connectome::{Algorithm, Graph, Level};
pub use beam_mcp_rules::attributes::ItemKind;
pub use bound::Bound;
pub use cfg::Cfg;
pub use declared::Declared;
pub use error::{Duplicate, Place, ScanError};
pub use items::DeclaredItem;
pub use policy::{ItemReach, Policy, Rule, Violation, Violations, Witness};
pub use sinks::{Capability, Effect, SINK_TABLE, SINK_TABLE_VERSION};

/// The stack the scan runs on: the parser and the visitor recurse once per nesting level of
/// the source, which `nesting` bounds before a file is parsed.
const SCAN_STACK: usize = 64 * 1024 * 1024;

/// The file the canonical graph is written to under `OUT_DIR`; its digest is beside it, named
/// `connectome.json.<algorithm>`.
///
/// ```
/// // In the server: the bytes the build script wrote.
/// // static DECLARED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/connectome.json"));
/// assert_eq!(beam_mcp_build::GRAPH_FILE, "connectome.json");
/// ```
pub const GRAPH_FILE: &str = "connectome.json";
/// The file the bound is written to under `OUT_DIR`.
///
/// ```
/// assert_eq!(beam_mcp_build::BOUND_FILE, "connectome-bound.json");
/// ```
pub const BOUND_FILE: &str = "connectome-bound.json";

/// A scan of the crate being built, for the server named `server` (its `serverInfo.name`,
/// which the runtime checks against the running server's).
///
/// ```no_run
/// // build.rs: fn main() { ... }
/// beam_mcp_build::connectome("weather").emit();
/// ```
pub fn connectome(server: &str) -> Connectome {
    Connectome::new(server)
}

/// What to scan and how; every setting has a default a build script need not change.
///
/// ```
/// use beam_mcp_build::{Cfg, ItemKind, Level, connectome};
///
/// let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tree");
/// let declared = connectome("srv")
///     .manifest_dir(&dir)
///     .crate_name("tree")
///     .cfg(Cfg::new())
///     .level(Level::Mfa)
///     .scan()?;
/// assert!(declared.keys(ItemKind::Tool).contains("root_tool"));
/// # Ok::<(), beam_mcp_build::ScanError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Connectome {
    server: String,
    level: Level,
    algorithm: Algorithm,
    root: Option<PathBuf>,
    crate_name: Option<String>,
    manifest_dir: Option<PathBuf>,
    cfg: Option<Cfg>,
    sinks: sinks::Sinks,
}

impl Connectome {
    /// The same as [`connectome`].
    ///
    /// ```
    /// let scan = beam_mcp_build::Connectome::new("weather");
    /// # let _ = scan;
    /// ```
    pub fn new(server: &str) -> Connectome {
        Connectome {
            server: server.to_owned(),
            level: Level::Module,
            algorithm: Algorithm::default(),
            root: None,
            crate_name: None,
            manifest_dir: None,
            cfg: None,
            sinks: sinks::Sinks::default(),
        }
    }

    /// The level of the code nodes: [`Level::Mfa`], [`Level::Module`] (the default) or
    /// [`Level::Boundary`].
    ///
    /// ```
    /// let scan = beam_mcp_build::connectome("weather").level(beam_mcp_build::Level::Mfa);
    /// # let _ = scan;
    /// ```
    pub fn level(mut self, level: Level) -> Connectome {
        self.level = level;
        self
    }

    /// The digest named in the canonical bytes and written beside them (default SHA-256).
    ///
    /// ```
    /// use beam_mcp_build::{Algorithm, connectome};
    /// // Writes OUT_DIR/connectome.json.sha384.
    /// let scan = connectome("weather").algorithm(Algorithm::Sha384);
    /// # let _ = scan;
    /// ```
    pub fn algorithm(mut self, algorithm: Algorithm) -> Connectome {
        self.algorithm = algorithm;
        self
    }

    /// The crate root, relative to the manifest directory. Default: `src/main.rs`, else
    /// `src/lib.rs`. A package with both is scanned from `src/main.rs`, the binary that
    /// serves; when the items live in the library, name `src/lib.rs` here (one crate is
    /// scanned: calls from the binary into the library are calls into another crate). A
    /// `[[bin]]` or `[lib]` with another path is named here too.
    ///
    /// ```
    /// let scan = beam_mcp_build::connectome("weather").root("src/bin/server.rs");
    /// # let _ = scan;
    /// ```
    pub fn root(mut self, root: impl Into<PathBuf>) -> Connectome {
        self.root = Some(root.into());
        self
    }

    /// The crate's name, which module paths start with. Default: `CARGO_PKG_NAME` with `-`
    /// as `_`.
    ///
    /// ```
    /// let scan = beam_mcp_build::connectome("weather").crate_name("weather_server");
    /// # let _ = scan;
    /// ```
    pub fn crate_name(mut self, name: impl Into<String>) -> Connectome {
        self.crate_name = Some(name.into());
        self
    }

    /// The package's directory. Default: `CARGO_MANIFEST_DIR`.
    ///
    /// ```
    /// let scan = beam_mcp_build::connectome("weather").manifest_dir("examples/weather");
    /// # let _ = scan;
    /// ```
    pub fn manifest_dir(mut self, dir: impl Into<PathBuf>) -> Connectome {
        self.manifest_dir = Some(dir.into());
        self
    }

    /// The configuration `#[cfg]` is evaluated against. Default: [`Cfg::from_env`].
    ///
    /// ```
    /// use beam_mcp_build::{Cfg, connectome};
    /// let scan = connectome("weather").cfg(Cfg::new().name("unix").feature("http"));
    /// # let _ = scan;
    /// ```
    pub fn cfg(mut self, cfg: Cfg) -> Connectome {
        self.cfg = Some(cfg);
        self
    }

    /// Adds an entry to the capability table: a call whose callee's path starts with `path`
    /// (segment by segment; the longest entry wins, a host's over a built-in one as long)
    /// reaches `capability`. A host's own crates' sinks (its database client's writes) are
    /// declared here, and so are corrections to the built-in [`SINK_TABLE`].
    ///
    /// ```
    /// use beam_mcp_build::{Capability, Effect, connectome};
    /// let scan = connectome("notes").sink("sqlx::query::Query::execute", Capability::host("db-write", Effect::Write));
    /// # let _ = scan;
    /// ```
    pub fn sink(mut self, path: &str, capability: Capability) -> Connectome {
        self.sinks.add(path, capability);
        self
    }

    /// Scans the crate without printing or writing anything.
    ///
    /// ```
    /// use beam_mcp_build::{Cfg, ScanError, connectome};
    ///
    /// let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dups");
    /// let refused = connectome("srv").manifest_dir(dir).crate_name("dups").cfg(Cfg::new()).scan();
    /// assert!(matches!(refused, Err(ScanError::Duplicates(_))));
    /// ```
    pub fn scan(&self) -> Result<Declared, ScanError> {
        self.run().1
    }

    /// The build script's call: scans, prints `cargo::rerun-if-changed` for every file read,
    /// and writes the graph, its digest and the bound to `OUT_DIR`; a failure is a
    /// `cargo::error=` (one per duplicate), and nothing is written. Never panics.
    ///
    /// ```no_run
    /// // build.rs: fn main() { ... }
    /// beam_mcp_build::connectome("weather").level(beam_mcp_build::Level::Mfa).emit();
    /// ```
    pub fn emit(&self) {
        let mut stdout = std::io::stdout().lock();
        match std::env::var_os("OUT_DIR") {
            Some(out_dir) => {
                let _ = self.emit_into(Path::new(&out_dir), &mut stdout);
            }
            None => {
                let error = ScanError::MissingEnv { var: "OUT_DIR" };
                let _ = writeln!(stdout, "cargo::error={}", one_line(&error.to_string()));
            }
        }
    }

    /// [`emit`](Self::emit) into `out_dir`, printing to `out`: `Ok(true)` when the files
    /// were written, `Ok(false)` when the scan failed (and said why on `out`).
    ///
    /// ```
    /// let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tree");
    /// let out_dir = std::env::temp_dir().join(format!("beam-mcp-build-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&out_dir)?;
    /// let mut printed = Vec::new();
    /// let written = beam_mcp_build::connectome("srv")
    ///     .manifest_dir(&dir)
    ///     .crate_name("tree")
    ///     .emit_into(&out_dir, &mut printed)?;
    /// assert!(written);
    /// assert!(String::from_utf8(printed)?.contains("cargo::rerun-if-changed="));
    /// assert!(out_dir.join("connectome.json.sha256").is_file());
    /// # std::fs::remove_dir_all(&out_dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn emit_into(&self, out_dir: &Path, out: &mut dyn Write) -> std::io::Result<bool> {
        let (sources, result) = self.run();
        // The loader refuses such paths before reading them; this keeps any that slipped
        // through from ending the line and starting another cargo instruction.
        let (sources, result) = match sources.iter().find(|s| !loader::printable(s)) {
            Some(bad) => {
                let error = ScanError::UnprintablePath { path: bad.clone() };
                (Vec::new(), Err(error))
            }
            None => (sources, result),
        };
        for source in &sources {
            writeln!(out, "cargo::rerun-if-changed={}", source.display())?;
        }
        let written = result.and_then(|declared| self.write(&declared, out_dir));
        match written {
            Ok(()) => Ok(true),
            Err(error) => {
                // A failed scan leaves no graph behind from an earlier one.
                for file in self.files(out_dir) {
                    let _ = std::fs::remove_file(file);
                }
                match error {
                    ScanError::Duplicates(duplicates) => {
                        for duplicate in duplicates {
                            writeln!(out, "cargo::error={}", one_line(&duplicate.to_string()))?;
                        }
                    }
                    other => writeln!(out, "cargo::error={}", one_line(&other.to_string()))?,
                }
                Ok(false)
            }
        }
    }

    fn files(&self, out_dir: &Path) -> [PathBuf; 3] {
        [
            out_dir.join(GRAPH_FILE),
            out_dir.join(format!("{GRAPH_FILE}.{}", self.algorithm.as_str())),
            out_dir.join(BOUND_FILE),
        ]
    }

    fn write(&self, declared: &Declared, out_dir: &Path) -> Result<(), ScanError> {
        let graph = declared.canonical(self.algorithm)?;
        let digest = beam_mcp_connectome::canonical::hash_hex(&graph, self.algorithm);
        let bound = beam_mcp_connectome::canonical::encode_value(&declared.bound.to_json())?;
        let [graph_file, digest_file, bound_file] = self.files(out_dir);
        for (file, bytes) in [
            (graph_file, graph),
            (digest_file, digest.into_bytes()),
            (bound_file, bound),
        ] {
            std::fs::write(&file, bytes).map_err(|e| ScanError::Write {
                file,
                message: e.to_string(),
            })?;
        }
        Ok(())
    }

    fn run(&self) -> (Vec<PathBuf>, Result<Declared, ScanError>) {
        let manifest_dir = match &self.manifest_dir {
            Some(dir) => dir.clone(),
            None => match std::env::var_os("CARGO_MANIFEST_DIR") {
                Some(dir) => PathBuf::from(dir),
                None => {
                    return (
                        Vec::new(),
                        Err(ScanError::MissingEnv {
                            var: "CARGO_MANIFEST_DIR",
                        }),
                    );
                }
            },
        };
        let crate_name = match &self.crate_name {
            Some(name) => name.clone(),
            None => match std::env::var("CARGO_PKG_NAME") {
                Ok(name) => name.replace('-', "_"),
                Err(_) => {
                    return (
                        Vec::new(),
                        Err(ScanError::MissingEnv {
                            var: "CARGO_PKG_NAME",
                        }),
                    );
                }
            },
        };
        let root = match &self.root {
            Some(root) => root.clone(),
            None => {
                let candidates = [Path::new("src/main.rs"), Path::new("src/lib.rs")];
                match candidates
                    .into_iter()
                    .find(|c| manifest_dir.join(c).is_file())
                {
                    Some(root) => root.to_path_buf(),
                    None => return (Vec::new(), Err(ScanError::NoRoot { dir: manifest_dir })),
                }
            }
        };
        let cfg = self.cfg.clone().unwrap_or_else(Cfg::from_env);
        let server = self.server.clone();
        let level = self.level;
        let sinks = self.sinks.clone();
        let scan = move || {
            scan::run(&scan::Settings {
                server: &server,
                crate_name: &crate_name,
                manifest_dir: &manifest_dir,
                root: &root,
                level,
                cfg: &cfg,
                sinks: &sinks,
            })
        };
        // Deeply nested source recurses deeply in the parser: a thread with room for it, whose
        // failure (never expected) is reported rather than propagated.
        let spawned = std::thread::Builder::new()
            .name("beam-mcp-build scan".to_owned())
            .stack_size(SCAN_STACK)
            .spawn(scan);
        match spawned {
            Ok(handle) => handle.join().unwrap_or_else(|_| {
                let error = ScanError::Internal {
                    message: "the scan stopped on an internal error; please report it with the source that caused it".to_owned(),
                };
                (Vec::new(), Err(error))
            }),
            Err(e) => (Vec::new(), Err(ScanError::Internal { message: format!("cannot start the scan: {e}") })),
        }
    }
}

/// A message on one line, as `cargo::error=` takes it.
fn one_line(message: &str) -> String {
    message.replace(['\r', '\n'], " ")
}
