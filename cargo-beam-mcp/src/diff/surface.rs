//! A surface to compare: canonical exports by revision, read from a file, a folder, git, or a
//! running server.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::target::{Connect, Target};

/// Each revision's export.
pub(crate) type Surface = BTreeMap<String, Value>;

/// The crate a bare git revision is built from.
pub(crate) struct Crate<'a> {
    pub(crate) manifest: &'a Path,
    pub(crate) bin: Option<&'a str>,
    pub(crate) target_dir: Option<&'a Path>,
}

/// Reads `spec`: `REV:PATH` in git, a file or folder of exports, a git revision of the crate,
/// or a TARGET.
pub(crate) async fn load(spec: &str, krate: &Crate<'_>) -> Result<Surface, String> {
    if let Some((rev, path)) = spec.split_once(':')
        && !spec.starts_with("http://")
        && !spec.starts_with("https://")
        && !rev.is_empty()
        && git(&[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{rev}^{{commit}}"),
        ])
        .is_ok()
    {
        return from_git(rev, path);
    }
    let path = Path::new(spec);
    // A file is an export when it reads as JSON text; any other (a server's executable) is a
    // command to run.
    if path.is_file() {
        let bytes = std::fs::read(path).map_err(|e| format!("{spec}: {e}"))?;
        if bytes.trim_ascii_start().starts_with(b"{") {
            return one(spec, &bytes);
        }
    }
    if path.is_dir() {
        let mut surface = Surface::new();
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .map_err(|e| format!("{spec}: {e}"))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        entries.sort();
        for file in entries {
            let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            surface.extend(one(&file.display().to_string(), &bytes)?);
        }
        return non_empty(spec, surface);
    }
    if !spec.contains(['/', ' ', ':'])
        && git(&[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{spec}^{{commit}}"),
        ])
        .is_ok()
    {
        return Box::pin(from_revision(spec, krate)).await;
    }
    Box::pin(from_server(spec)).await
}

/// The crate as it was at git revision `rev`: checked out beside (a detached worktree), built
/// into the crate's `target/beam-mcp-diff` (shared by every revision, so a second build is
/// incremental), and listed at each revision it speaks.
async fn from_revision(rev: &str, krate: &Crate<'_>) -> Result<Surface, String> {
    let manifest = std::path::absolute(krate.manifest).map_err(|e| e.to_string())?;
    let dir = manifest.parent().ok_or("a manifest without a folder")?;
    let top = String::from_utf8_lossy(&git(&[
        "-C",
        &dir.display().to_string(),
        "rev-parse",
        "--show-toplevel",
    ])?)
    .trim()
    .to_owned();
    let inside = dir
        .strip_prefix(&top)
        .map_err(|_| format!("{} is outside the repository {top}", dir.display()))?;
    let checkout =
        std::env::temp_dir().join(format!("cargo-beam-mcp-diff-{}-{rev}", std::process::id()));
    let _ = std::fs::remove_dir_all(&checkout);
    git(&[
        "-C",
        &top,
        "worktree",
        "add",
        "--detach",
        "--quiet",
        &checkout.display().to_string(),
        rev,
    ])?;
    let built = crate::dev::build::build(
        &checkout.join(inside).join("Cargo.toml"),
        &krate
            .target_dir
            .map_or_else(|| dir.join("target/beam-mcp-diff"), Path::to_path_buf),
        krate.bin,
    )
    .await;
    let _ = git(&[
        "-C",
        &top,
        "worktree",
        "remove",
        "--force",
        &checkout.display().to_string(),
    ]);
    let executable = match built {
        crate::dev::build::Built::Binary(executable) => executable,
        crate::dev::build::Built::Failed(errors) => {
            return Err(format!("{rev}: the crate does not build there:\n{errors}"));
        }
    };
    let connect = Connect {
        target: Target::Command(vec![executable.display().to_string()]),
        revision: None,
        headers: Vec::new(),
    };
    surface_of(rev, &connect).await
}

/// One export's revision and listing.
fn one(name: &str, bytes: &[u8]) -> Result<Surface, String> {
    let export: Value =
        serde_json::from_slice(bytes).map_err(|e| format!("{name}: not JSON: {e}"))?;
    let revision = export
        .get("revision")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{name}: not a canonical export (no \"revision\")"))?
        .to_owned();
    for member in ["tools", "resources", "resourceTemplates", "prompts"] {
        if !export.get(member).is_some_and(Value::is_array) {
            return Err(format!(
                "{name}: not a canonical export (no {member:?} array)"
            ));
        }
    }
    Ok(Surface::from([(revision, export)]))
}

fn non_empty(spec: &str, surface: Surface) -> Result<Surface, String> {
    if surface.is_empty() {
        Err(format!("{spec}: no canonical export found"))
    } else {
        Ok(surface)
    }
}

fn git(args: &[&str]) -> Result<Vec<u8>, String> {
    let output = std::process::Command::new("git")
        .args(args)
        .output()
        .map_err(|e| format!("git: {e}"))?;
    if output.status.success() {
        Ok(output.stdout)
    } else {
        Err(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    }
}

/// The export at `rev:path`, or each `*.json` export in the folder `rev:path`.
fn from_git(rev: &str, path: &str) -> Result<Surface, String> {
    let spec = format!("{rev}:{path}");
    let kind = git(&["cat-file", "-t", &spec])?;
    if kind.trim_ascii() == b"blob" {
        return one(&spec, &git(&["show", &spec])?);
    }
    let listing = git(&["ls-tree", "--name-only", &format!("{rev}:{path}")])?;
    let mut surface = Surface::new();
    for name in String::from_utf8_lossy(&listing).lines() {
        if name.ends_with(".json") {
            let file = format!("{rev}:{}/{name}", path.trim_end_matches('/'));
            surface.extend(one(&file, &git(&["show", &file])?)?);
        }
    }
    non_empty(&spec, surface)
}

/// A running server's export at each revision it speaks.
async fn from_server(spec: &str) -> Result<Surface, String> {
    let connect = Connect {
        target: Target::parse(spec)?,
        revision: None,
        headers: Vec::new(),
    };
    surface_of(spec, &connect).await
}

/// The export at each revision the server at `connect` speaks.
async fn surface_of(spec: &str, connect: &Connect) -> Result<Surface, String> {
    let clients = crate::target::each_revision(connect).await.map_err(|e| {
        format!("{spec}: neither a file, a folder, REV:PATH, a git revision nor a server that answers ({e})")
    })?;
    let mut surface = Surface::new();
    for client in clients {
        let advertised = client
            .advertised()
            .await
            .map_err(|e| format!("{spec} at {}: {e}", client.revision()))?;
        let export =
            serde_json::from_slice(advertised.bytes()).map_err(|e| format!("{spec}: {e}"))?;
        surface.insert(client.revision().as_str().to_owned(), export);
    }
    Ok(surface)
}
