//! `install HOST`: the server's entry written into the configuration a host reads, at the
//! path the host documents, the rest of the file kept byte for byte (comments too), a backup
//! beside it; `--print` shows the change without writing it. A second run that would change
//! nothing writes nothing.

mod diff;
mod jsonc;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::{Value, json};

use jsonc::Node;

/// What `install` was asked.
pub(crate) struct Options {
    pub(crate) host: Host,
    pub(crate) name: String,
    pub(crate) command: Vec<String>,
    pub(crate) env: Vec<(String, String)>,
    pub(crate) scope: Scope,
    /// Show the change without writing it.
    pub(crate) print: bool,
    /// The user's home when given (`--home`; `$HOME` otherwise), where user-scope files live.
    pub(crate) home: Option<PathBuf>,
    /// The project folder, where project-scope files live.
    pub(crate) project: PathBuf,
}

/// The hosts whose configuration `install` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Host {
    ClaudeDesktop,
    VsCode,
    Cursor,
    ClaudeCode,
}

/// Whose configuration: the user's (every project) or the project's (checked in with it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    User,
    Project,
}

impl Scope {
    pub(crate) fn parse(text: &str) -> Result<Scope, String> {
        match text {
            "user" => Ok(Scope::User),
            "project" => Ok(Scope::Project),
            other => Err(format!("--scope {other:?}: user or project")),
        }
    }
}

impl Host {
    pub(crate) fn parse(text: &str) -> Result<Host, String> {
        match text {
            "claude-desktop" => Ok(Host::ClaudeDesktop),
            "vscode" | "code" => Ok(Host::VsCode),
            "cursor" => Ok(Host::Cursor),
            "claude-code" | "claude" => Ok(Host::ClaudeCode),
            other => Err(format!(
                "no host {other:?}: claude-desktop, vscode, cursor or claude-code"
            )),
        }
    }

    /// Where an entry goes when `--scope` is not given: Claude Desktop has only the user's
    /// file; VS Code and Claude Code keep a server with the project that builds it; Cursor's
    /// user file is where its users keep servers.
    pub(crate) fn default_scope(self) -> Scope {
        match self {
            Host::ClaudeDesktop | Host::Cursor => Scope::User,
            Host::VsCode | Host::ClaudeCode => Scope::Project,
        }
    }

    /// The member holding the servers: VS Code's `servers`, everyone else's `mcpServers`.
    fn container(self) -> &'static str {
        match self {
            Host::VsCode => "servers",
            _ => "mcpServers",
        }
    }

    /// The file this host reads at `scope`.
    fn path(
        self,
        scope: Scope,
        home: &Path,
        project: &Path,
        config: &Path,
    ) -> Result<PathBuf, String> {
        Ok(match (self, scope) {
            (Host::ClaudeDesktop, Scope::User) => config.join("Claude/claude_desktop_config.json"),
            (Host::ClaudeDesktop, Scope::Project) => {
                return Err("Claude Desktop has no project configuration: --scope user".into());
            }
            (Host::VsCode, Scope::User) => config.join("Code/User/mcp.json"),
            (Host::VsCode, Scope::Project) => project.join(".vscode/mcp.json"),
            (Host::Cursor, Scope::User) => home.join(".cursor/mcp.json"),
            (Host::Cursor, Scope::Project) => project.join(".cursor/mcp.json"),
            (Host::ClaudeCode, Scope::User) => home.join(".claude.json"),
            (Host::ClaudeCode, Scope::Project) => project.join(".mcp.json"),
        })
    }

    /// The entry as this host reads it (VS Code and Claude Code name the transport), its
    /// members in the order the hosts' documentation writes them.
    fn entry(self, command: &str, args: &[String], env: &[(String, String)]) -> Node {
        let mut entry = Vec::new();
        if matches!(self, Host::VsCode | Host::ClaudeCode) {
            entry.push(("type".to_owned(), Node::Plain(json!("stdio"))));
        }
        entry.push(("command".to_owned(), Node::Plain(json!(command))));
        entry.push(("args".to_owned(), Node::Plain(json!(args))));
        if !env.is_empty() {
            let env = env
                .iter()
                .map(|(k, v)| (k.clone(), Node::Plain(Value::from(v.as_str()))))
                .collect();
            entry.push(("env".to_owned(), Node::Object(env)));
        }
        Node::Object(entry)
    }
}

/// The folder of the user's application settings: `~/Library/Application Support` on macOS,
/// `%APPDATA%` on Windows, `$XDG_CONFIG_HOME` or `~/.config` elsewhere. Under an explicit
/// `--home`, always the one under it (so a test's home is all that is touched).
fn config_dir(home: &Path, explicit_home: bool) -> PathBuf {
    if cfg!(target_os = "macos") {
        return home.join("Library/Application Support");
    }
    if cfg!(windows) {
        if !explicit_home && let Some(appdata) = std::env::var_os("APPDATA") {
            return PathBuf::from(appdata);
        }
        return home.join("AppData/Roaming");
    }
    match std::env::var_os("XDG_CONFIG_HOME") {
        Some(xdg) if !explicit_home && !xdg.is_empty() => PathBuf::from(xdg),
        _ => home.join(".config"),
    }
}

/// A command named by a relative path is made absolute: a host starts it from a folder of
/// its own.
fn absolute_command(command: &str) -> String {
    let path = Path::new(command);
    if path.is_relative()
        && command.contains(std::path::MAIN_SEPARATOR)
        && let Ok(absolute) = std::path::absolute(path)
    {
        return absolute.to_string_lossy().into_owned();
    }
    command.to_owned()
}

pub(crate) fn run(options: Options) -> Result<ExitCode, String> {
    let explicit_home = options.home.is_some();
    let home = match options.home {
        Some(home) => home,
        None => std::env::var_os("HOME")
            .or_else(|| std::env::var_os("USERPROFILE"))
            .map(PathBuf::from)
            .ok_or("no $HOME: give --home DIR")?,
    };
    let config = config_dir(&home, explicit_home);
    let path = options
        .host
        .path(options.scope, &home, &options.project, &config)?;
    let command = absolute_command(&options.command[0]);
    let entry = options
        .host
        .entry(&command, &options.command[1..], &options.env);
    let before = match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let edit = jsonc::upsert(
        before.as_deref().unwrap_or(""),
        options.host.container(),
        &options.name,
        &entry,
    )
    .map_err(|why| format!("{}: {why}", path.display()))?;
    let jsonc::Edit::Changed(after) = edit else {
        println!(
            "{}: {:?} is there already, as it would be written; nothing changed",
            path.display(),
            options.name
        );
        return Ok(ExitCode::SUCCESS);
    };
    if options.print {
        print!(
            "{}",
            diff::unified(
                &path.display().to_string(),
                before.as_deref().unwrap_or(""),
                &after
            )
        );
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    if let Some(before) = &before {
        let backup = backup_path(&path);
        std::fs::write(&backup, before).map_err(|e| format!("{}: {e}", backup.display()))?;
        println!("backup: {}", backup.display());
    }
    // Written beside and renamed over, so a host reading it never sees half a file.
    let partial = path.with_extension("json.beam-mcp-partial");
    std::fs::write(&partial, &after).map_err(|e| format!("{}: {e}", partial.display()))?;
    std::fs::rename(&partial, &path).map_err(|e| format!("{}: {e}", path.display()))?;
    println!(
        "{}: {:?} {}",
        path.display(),
        options.name,
        if before.is_some() {
            "written"
        } else {
            "written (a new file)"
        }
    );
    Ok(ExitCode::SUCCESS)
}

/// `mcp.json` → `mcp.json.bak`.
fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".bak");
    path.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_host_reads_its_own_file_and_shape() {
        let (home, project, config) = (Path::new("/h"), Path::new("/p"), Path::new("/h/.config"));
        let path = |host: Host, scope| host.path(scope, home, project, config).unwrap();
        assert_eq!(
            path(Host::ClaudeDesktop, Scope::User),
            Path::new("/h/.config/Claude/claude_desktop_config.json")
        );
        assert_eq!(
            path(Host::VsCode, Scope::Project),
            Path::new("/p/.vscode/mcp.json")
        );
        assert_eq!(
            path(Host::VsCode, Scope::User),
            Path::new("/h/.config/Code/User/mcp.json")
        );
        assert_eq!(
            path(Host::Cursor, Scope::User),
            Path::new("/h/.cursor/mcp.json")
        );
        assert_eq!(
            path(Host::ClaudeCode, Scope::Project),
            Path::new("/p/.mcp.json")
        );
        assert_eq!(
            path(Host::ClaudeCode, Scope::User),
            Path::new("/h/.claude.json")
        );
        assert!(
            Host::ClaudeDesktop
                .path(Scope::Project, home, project, config)
                .is_err()
        );
        let args = ["--stdio".to_owned()];
        let keys = |node: &Node| -> Vec<String> {
            match node {
                Node::Object(members) => members.iter().map(|(k, _)| k.clone()).collect(),
                Node::Plain(_) => Vec::new(),
            }
        };
        let entry = Host::VsCode.entry("w", &args, &[("K".into(), "V".into())]);
        assert_eq!(keys(&entry), ["type", "command", "args", "env"]);
        assert_eq!(
            entry.value(),
            json!({ "type": "stdio", "command": "w", "args": ["--stdio"], "env": { "K": "V" } })
        );
        let entry = Host::Cursor.entry("w", &[], &[]);
        assert_eq!(keys(&entry), ["command", "args"]);
    }
}
