//! The compiler's side: the package's metadata, the one build that emits the crate's LLVM IR,
//! and the configuration (`cfg`, features) that build used, for the scan to use the same.
//!
//! The IR build is `cargo rustc` on the measured crate alone, so its dependencies come from
//! the normal build cache:
//!
//! ```text
//! cargo rustc --manifest-path DIR/Cargo.toml (--lib | --bin NAME) --profile dev [--features ..]
//!   --message-format=json-render-diagnostics --
//!   --emit=llvm-ir -C opt-level=0 -C link-dead-code -C codegen-units=1 -C symbol-mangling-version=v0
//! ```
//!
//! * `opt-level=0`: no inlining (but `#[inline(always)]`, which LLVM's always-inliner still
//!   applies), so a call in the source is a `call` in the IR;
//! * `link-dead-code`: functions nothing calls are still emitted, so they count as having code;
//! * `codegen-units=1`: one `.ll` file holds every function of the crate;
//! * `symbol-mangling-version=v0`: v0 symbols name an `impl`'s own module (legacy ones name
//!   only the self type, with a hash), which is where the scanner puts a method, and demangle
//!   inherent methods as `<a::Type>::f` rather than `a::Type::f`, so a type is never taken for
//!   a module; closures demangle as `{closure#N}` with the function around them.
//!
//! cargo gives this build an artifact of its own (the extra flags change its hash), so it and
//! the ordinary build of the crate never invalidate each other; only an uplifted binary
//! (`target/debug/NAME`) is whichever was linked last, and an ordinary `cargo build` links
//! its own back.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::error::TruthError;

/// What to build and scan.
///
/// ```
/// let target = beam_mcp_truth::Target::new("examples/weather").bin("weather");
/// assert_eq!(target.bin.as_deref(), Some("weather"));
/// ```
#[derive(Debug, Clone, Default)]
pub struct Target {
    /// The package's directory (holding its `Cargo.toml`).
    pub manifest_dir: PathBuf,
    /// The crate's name as its paths start (`-` as `_`); default: the target's name.
    pub crate_name: Option<String>,
    /// The crate root to scan, relative to the manifest directory; default: the target's.
    pub root: Option<PathBuf>,
    /// The binary target to measure; default: the library, else the only binary.
    pub bin: Option<String>,
    /// Features to enable (besides the defaults, unless `no_default_features`).
    pub features: Vec<String>,
    /// Whether the package's default features are left off.
    pub no_default_features: bool,
    /// Where to run cargo from (a workspace holding the package); default: the package's
    /// directory.
    pub workspace_dir: Option<PathBuf>,
}

impl Target {
    /// The package in `manifest_dir`, everything else by default.
    pub fn new(manifest_dir: impl Into<PathBuf>) -> Target {
        Target {
            manifest_dir: manifest_dir.into(),
            ..Target::default()
        }
    }

    /// The same target, measuring the binary `name`.
    pub fn bin(mut self, name: &str) -> Target {
        self.bin = Some(name.to_owned());
        self
    }

    /// The same target, its crate's name given.
    pub fn crate_name(mut self, name: &str) -> Target {
        self.crate_name = Some(name.to_owned());
        self
    }
}

/// The package's target as `cargo metadata` describes it.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    /// The package id, as cargo's messages name it.
    pub(crate) package_id: String,
    /// The target's name as cargo knows it (`conformance-harness`).
    pub(crate) target_name: String,
    /// Whether it is a binary.
    pub(crate) is_bin: bool,
    /// The crate's name (`conformance_harness`).
    pub(crate) crate_name: String,
    /// The crate root, relative to the manifest directory.
    pub(crate) root: PathBuf,
    /// The package's directory, absolute.
    pub(crate) manifest_dir: PathBuf,
    /// cargo's target directory.
    pub(crate) target_dir: PathBuf,
    /// The features the package enables by default and with `features`, expanded within the
    /// package (for a scan without a build).
    pub(crate) declared_features: Vec<String>,
}

/// What the IR build produced and used.
#[derive(Debug, Clone)]
pub(crate) struct IrBuild {
    /// The `.ll` file.
    pub(crate) ll: PathBuf,
    /// The features the build enabled, as cargo reported them.
    pub(crate) features: Vec<String>,
    /// The `cfg`s the package's build script set (`name` or `key="value"`).
    pub(crate) script_cfgs: Vec<String>,
}

/// The program to run for cargo: `$CARGO` (set when run by cargo), else `cargo`.
fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())
}

/// Runs a command and returns its standard output, or why it failed.
fn run(mut command: Command) -> Result<String, TruthError> {
    let shown = format!("{command:?}");
    let program = command.get_program().to_string_lossy().into_owned();
    let output = command.output().map_err(|e| TruthError::Spawn {
        program,
        message: e.to_string(),
    })?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let lines: Vec<&str> = stderr.lines().collect();
        let tail = lines[lines.len().saturating_sub(40)..].join("\n");
        return Err(TruthError::Command {
            command: shown,
            status: output.status.to_string(),
            stderr: tail,
        });
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Reads the package's metadata and picks the target to measure.
pub(crate) fn resolve(target: &Target) -> Result<Resolved, TruthError> {
    let manifest = target.manifest_dir.join("Cargo.toml");
    let mut command = Command::new(cargo());
    command
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--manifest-path",
        ])
        .arg(&manifest);
    if let Some(dir) = &target.workspace_dir {
        command.current_dir(dir);
    }
    let text = run(command)?;
    let metadata: Value =
        serde_json::from_str(&text).map_err(|e| TruthError::Metadata(format!("not JSON: {e}")))?;
    let wanted = canonical(&manifest);
    let packages = metadata["packages"].as_array().cloned().unwrap_or_default();
    let package = packages
        .iter()
        .find(|p| {
            p["manifest_path"]
                .as_str()
                .is_some_and(|m| canonical(Path::new(m)) == wanted)
        })
        .ok_or_else(|| {
            TruthError::Metadata(format!("no package with manifest {}", manifest.display()))
        })?;
    let manifest_dir = wanted
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| target.manifest_dir.clone());
    let targets = package["targets"].as_array().cloned().unwrap_or_default();
    let kinds = |t: &Value| -> Vec<String> {
        t["kind"]
            .as_array()
            .map(|k| {
                k.iter()
                    .filter_map(|s| s.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    let is_lib = |t: &Value| {
        kinds(t)
            .iter()
            .any(|k| matches!(k.as_str(), "lib" | "rlib" | "dylib" | "proc-macro"))
    };
    let is_bin = |t: &Value| kinds(t).iter().any(|k| k == "bin");
    let chosen = match &target.bin {
        Some(bin) => targets
            .iter()
            .find(|t| is_bin(t) && t["name"].as_str() == Some(bin.as_str())),
        None => targets.iter().find(|t| is_lib(t)).or_else(|| {
            let bins: Vec<&Value> = targets.iter().filter(|t| is_bin(t)).collect();
            match bins.as_slice() {
                [only] => Some(*only),
                _ => None,
            }
        }),
    }
    .ok_or_else(|| {
        TruthError::Metadata(match &target.bin {
            Some(bin) => format!("the package has no binary `{bin}`"),
            None => "the package has no library and not exactly one binary: name one with --bin"
                .to_owned(),
        })
    })?;
    let target_name = chosen["name"].as_str().unwrap_or_default().to_owned();
    let src_path = PathBuf::from(chosen["src_path"].as_str().unwrap_or_default());
    let root = src_path
        .strip_prefix(&manifest_dir)
        .map(Path::to_path_buf)
        .unwrap_or(src_path);
    let target_dir = metadata["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .ok_or_else(|| TruthError::Metadata("no target_directory".to_owned()))?;
    Ok(Resolved {
        package_id: package["id"].as_str().unwrap_or_default().to_owned(),
        crate_name: target_name.replace('-', "_"),
        target_name,
        is_bin: !is_lib(chosen),
        root,
        manifest_dir,
        target_dir,
        declared_features: expand_features(
            &package["features"],
            &target.features,
            !target.no_default_features,
        ),
    })
}

/// The package's own features that `requested` (and `default`, when `defaults`) turn on,
/// transitively (`dep:x` and `x/y` entries name dependencies and are left out).
fn expand_features(table: &Value, requested: &[String], defaults: bool) -> Vec<String> {
    let mut on: Vec<String> = Vec::new();
    let mut pending: Vec<String> = requested.to_vec();
    if defaults && table.get("default").is_some() {
        pending.push("default".to_owned());
    }
    while let Some(feature) = pending.pop() {
        if on.contains(&feature) {
            continue;
        }
        if let Some(implied) = table.get(&feature).and_then(Value::as_array) {
            pending.extend(
                implied
                    .iter()
                    .filter_map(Value::as_str)
                    .filter(|f| !f.starts_with("dep:") && !f.contains('/'))
                    .map(str::to_owned),
            );
        }
        on.push(feature);
    }
    on.sort();
    on
}

/// A path made absolute and canonical when it exists.
fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// Runs the IR build of the target and finds its `.ll` file.
pub(crate) fn build_ir(target: &Target, resolved: &Resolved) -> Result<IrBuild, TruthError> {
    let mut command = Command::new(cargo());
    command
        .arg("rustc")
        .arg("--manifest-path")
        .arg(resolved.manifest_dir.join("Cargo.toml"));
    if resolved.is_bin {
        command.args(["--bin", &resolved.target_name]);
    } else {
        command.arg("--lib");
    }
    command.args([
        "--profile",
        "dev",
        "--message-format=json-render-diagnostics",
    ]);
    if !target.features.is_empty() {
        command.arg("--features").arg(target.features.join(","));
    }
    if target.no_default_features {
        command.arg("--no-default-features");
    }
    command.args([
        "--",
        "--emit=llvm-ir",
        "-C",
        "opt-level=0",
        "-C",
        "link-dead-code",
        "-C",
        "codegen-units=1",
        "-C",
        "symbol-mangling-version=v0",
    ]);
    if let Some(dir) = &target.workspace_dir {
        command.current_dir(dir);
    }
    let stdout = run(command)?;
    let mut features = Vec::new();
    let mut script_cfgs = Vec::new();
    let mut filenames = Vec::new();
    for line in stdout.lines() {
        let Ok(message) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if message["package_id"].as_str() != Some(resolved.package_id.as_str()) {
            continue;
        }
        let strings = |v: &Value| -> Vec<String> {
            v.as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default()
        };
        match message["reason"].as_str() {
            Some("compiler-artifact")
                if message["target"]["name"].as_str() == Some(resolved.target_name.as_str()) =>
            {
                features = strings(&message["features"]);
                filenames = strings(&message["filenames"]);
            }
            Some("build-script-executed") => script_cfgs = strings(&message["cfgs"]),
            _ => {}
        }
    }
    let deps = resolved.target_dir.join("debug").join("deps");
    let ll = find_ll(&deps, &resolved.crate_name, &filenames).ok_or_else(|| TruthError::NoIr {
        krate: resolved.crate_name.clone(),
        dir: deps.clone(),
    })?;
    Ok(IrBuild {
        ll,
        features,
        script_cfgs,
    })
}

/// The crate's `.ll` in `deps`: the one named after an artifact's hash when cargo reported
/// one (`libNAME-HASH.rlib`, `NAME-HASH`), else the newest `NAME-*.ll`.
fn find_ll(deps: &Path, crate_name: &str, filenames: &[String]) -> Option<PathBuf> {
    for file in filenames {
        let stem = Path::new(file).file_stem()?.to_string_lossy().into_owned();
        let stem = stem.strip_prefix("lib").unwrap_or(&stem);
        if let Some(hash) = stem
            .strip_prefix(crate_name)
            .and_then(|s| s.strip_prefix('-'))
        {
            let ll = deps.join(format!("{crate_name}-{hash}.ll"));
            if ll.is_file() {
                return Some(ll);
            }
        }
    }
    let prefix = format!("{crate_name}-");
    std::fs::read_dir(deps)
        .ok()?
        .filter_map(Result::ok)
        .filter(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            name.starts_with(&prefix)
                && name.ends_with(".ll")
                // `NAME-HASH.ll`, not another crate whose name starts with NAME-.
                && !name[prefix.len()..name.len() - 3].contains(['-', '.'])
        })
        .filter_map(|entry| Some((entry.metadata().ok()?.modified().ok()?, entry.path())))
        .max()
        .map(|(_, path)| path)
}

/// The `cfg` the compiler sets for the host (`rustc --print cfg`), with `debug_assertions`
/// (the dev profile's), as `name` or `key="value"` lines.
pub(crate) fn host_cfg(dir: &Path) -> Result<Vec<String>, TruthError> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let mut command = Command::new(rustc);
    command.args(["--print", "cfg"]).current_dir(dir);
    let mut cfgs: Vec<String> = run(command)?.lines().map(str::to_owned).collect();
    cfgs.push("debug_assertions".to_owned());
    Ok(cfgs)
}

/// The scanner's configuration from `cfg` lines (`name`, `key="value"`) and features.
///
/// ```
/// let cfg = beam_mcp_truth::scan_cfg(&["unix".into(), "target_os=\"linux\"".into()], &["std".into()]);
/// assert!(cfg.holds(r#"all(unix, target_os = "linux", feature = "std")"#)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn scan_cfg(cfgs: &[String], features: &[String]) -> beam_mcp_build::Cfg {
    let mut cfg = beam_mcp_build::Cfg::new();
    for line in cfgs {
        match line.split_once('=') {
            Some((key, value)) => {
                cfg = cfg.value(key.trim(), value.trim().trim_matches('"'));
            }
            None if !line.trim().is_empty() => cfg = cfg.name(line.trim()),
            None => {}
        }
    }
    for feature in features {
        cfg = cfg.feature(feature);
    }
    cfg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_expand_within_the_package() {
        let table = serde_json::json!({
            "default": ["std"],
            "std": ["alloc", "dep:memchr", "serde?/std"],
            "alloc": [],
            "extra": ["std"],
        });
        assert_eq!(
            expand_features(&table, &[], true),
            ["alloc", "default", "std"]
        );
        assert_eq!(
            expand_features(&table, &["extra".into()], true),
            ["alloc", "default", "extra", "std"]
        );
        assert_eq!(expand_features(&table, &["alloc".into()], false), ["alloc"]);
        assert!(expand_features(&Value::Null, &[], true).is_empty());
    }
}
