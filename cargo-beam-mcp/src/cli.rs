//! The command line read into what each subcommand needs; a wrong one is a [`Usage`] error
//! naming what is wrong.

use std::path::PathBuf;

use beam_mcp::protocol::Revision;
use serde_json::Value;

use crate::install::{Host, Scope};
use crate::target::{Connect, Target};

pub(crate) const USAGE: &str = "\
usage: cargo beam-mcp <command> [options]

commands:
  dev [--manifest-path PATH] [--bin NAME] [--target-dir DIR] [--watch PATH]..
                                             serve the crate over stdio, rebuilt on each save
  new NAME [--http | --both] [--path DIR] [--beam-mcp PATH]
                                             a crate that builds and answers (stdio by default)
  inspect [--json] [CONNECT] TARGET          what a server advertises (--json: its canonical export)
  call [CONNECT] TARGET TOOL [JSON]          call a tool; exits 1 when the call fails
  install HOST --name NAME [--env K=V].. [--scope user|project] [--project DIR] [--home DIR]
          [--print] -- COMMAND ARGS..
                                             HOST: claude-desktop, vscode, cursor, claude-code
  diff [--deny breaking] [--manifest-path PATH] [--bin NAME] [--target-dir DIR] OLD NEW
                                             classify the changes between two surfaces: each a
                                             canonical export (a file or a folder of them), REV:PATH
                                             of one in git, a git REV of the crate (built), or a TARGET
  card [CONNECT] [--name NS/NAME] [--url URL] [--description TEXT] TARGET
                                             a Server Card (SEP-2127) for a running server

CONNECT: --revision 2026-07-28|2025-11-25 (auto when absent), --header 'Name: value'
TARGET: an http:// or https:// URL, a command line as one argument (\"python3 server.py\"), or
        `-- COMMAND ARGS..` at the end";

/// Why the command line is not run.
pub(crate) enum Usage {
    /// `--help`: the text to print.
    Help(&'static str),
    /// What is wrong with it.
    Wrong(String),
}

/// A subcommand and its options.
pub(crate) enum Command {
    Dev(crate::dev::Options),
    New(crate::new::Options),
    Inspect(crate::inspect::Options),
    Call(crate::call::Options),
    Install(crate::install::Options),
    Diff(crate::diff::Options),
    Card(crate::card::Options),
}

/// The arguments of one subcommand: flags and their values, positionals, and what follows
/// `--`.
struct Args {
    flags: Vec<(String, Option<String>)>,
    positionals: Vec<String>,
    rest: Option<Vec<String>>,
}

impl Args {
    /// Splits `args`; `valued` names the flags that take a value.
    fn split(args: &[String], valued: &[&str], bare: &[&str]) -> Result<Args, Usage> {
        let mut split = Args {
            flags: Vec::new(),
            positionals: Vec::new(),
            rest: None,
        };
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            if arg == "--" {
                split.rest = Some(args.cloned().collect());
                break;
            }
            if arg == "--help" || arg == "-h" {
                return Err(Usage::Help(USAGE));
            }
            if let Some(flag) = arg.strip_prefix("--") {
                let (flag, inline) = match flag.split_once('=') {
                    Some((flag, value)) => (flag, Some(value.to_owned())),
                    None => (flag, None),
                };
                if valued.contains(&flag) {
                    let value = match inline {
                        Some(value) => value,
                        None => args
                            .next()
                            .cloned()
                            .ok_or_else(|| wrong(format!("--{flag} takes a value")))?,
                    };
                    split.flags.push((flag.to_owned(), Some(value)));
                } else if bare.contains(&flag) && inline.is_none() {
                    split.flags.push((flag.to_owned(), None));
                } else {
                    return Err(wrong(format!("no option --{flag} here")));
                }
            } else {
                split.positionals.push(arg.clone());
            }
        }
        Ok(split)
    }

    fn has(&self, flag: &str) -> bool {
        self.flags.iter().any(|(f, _)| f == flag)
    }

    fn values(&self, flag: &str) -> impl Iterator<Item = &str> {
        self.flags
            .iter()
            .filter(move |(f, _)| f == flag)
            .filter_map(|(_, v)| v.as_deref())
    }

    fn value(&self, flag: &str) -> Result<Option<String>, Usage> {
        let mut values = self.values(flag);
        let first = values.next().map(str::to_owned);
        if values.next().is_some() {
            return Err(wrong(format!("--{flag} is given twice")));
        }
        Ok(first)
    }

    /// The connection options, the target taken from `--` or the first positional.
    fn connect(&mut self) -> Result<Connect, Usage> {
        let revision = match self.value("revision")?.as_deref() {
            None => None,
            Some("2026-07-28") => Some(Revision::V2026_07_28),
            Some("2025-11-25") => Some(Revision::V2025_11_25),
            Some(other) => {
                return Err(wrong(format!(
                    "--revision {other:?}: 2026-07-28 or 2025-11-25"
                )));
            }
        };
        let headers = self
            .values("header")
            .map(|h| {
                let (name, value) = h
                    .split_once(':')
                    .ok_or_else(|| wrong(format!("--header {h:?}: write 'Name: value'")))?;
                Ok((name.trim().to_owned(), value.trim().to_owned()))
            })
            .collect::<Result<_, Usage>>()?;
        let target = match self.rest.take() {
            Some(command) if command.is_empty() => {
                return Err(wrong(
                    "nothing after `--`: name the server's command".into(),
                ));
            }
            Some(command) => Target::Command(command),
            None if self.positionals.is_empty() => return Err(wrong("no TARGET given".into())),
            None => Target::parse(&self.positionals.remove(0)).map_err(wrong)?,
        };
        Ok(Connect {
            target,
            revision,
            headers,
        })
    }

    /// Refuses positionals left over.
    fn done(&self) -> Result<(), Usage> {
        match self.positionals.first() {
            Some(extra) => Err(wrong(format!("unexpected argument {extra:?}"))),
            None => Ok(()),
        }
    }
}

fn wrong(why: String) -> Usage {
    Usage::Wrong(why)
}

const CONNECT: [&str; 2] = ["revision", "header"];

/// Reads the command line (without the program's name and `beam-mcp`).
pub(crate) fn parse(args: &[String]) -> Result<Command, Usage> {
    let Some((name, args)) = args.split_first() else {
        return Err(wrong("no command given".into()));
    };
    match name.as_str() {
        "--help" | "-h" | "help" => Err(Usage::Help(USAGE)),
        "dev" => {
            let args = Args::split(args, &["manifest-path", "bin", "target-dir", "watch"], &[])?;
            args.done()?;
            Ok(Command::Dev(crate::dev::Options {
                manifest: PathBuf::from(
                    args.value("manifest-path")?
                        .unwrap_or_else(|| "Cargo.toml".into()),
                ),
                bin: args.value("bin")?,
                target_dir: args.value("target-dir")?.map(PathBuf::from),
                watch: args.values("watch").map(PathBuf::from).collect(),
            }))
        }
        "new" => {
            let args = Args::split(args, &["path", "beam-mcp"], &["http", "both"])?;
            let [name] = args.positionals.as_slice() else {
                return Err(wrong("new takes one NAME".into()));
            };
            let flavor = match (args.has("http"), args.has("both")) {
                (false, false) => crate::new::Flavor::Stdio,
                (true, false) => crate::new::Flavor::Http,
                (false, true) => crate::new::Flavor::Both,
                (true, true) => return Err(wrong("--http or --both, not both".into())),
            };
            Ok(Command::New(crate::new::Options {
                name: name.clone(),
                flavor,
                path: args.value("path")?.map(PathBuf::from),
                beam_mcp: args
                    .value("beam-mcp")?
                    .unwrap_or_else(|| "../beam-mcp/beam-mcp".into()),
            }))
        }
        "inspect" => {
            let mut args = Args::split(args, &CONNECT, &["json"])?;
            let connect = args.connect()?;
            args.done()?;
            Ok(Command::Inspect(crate::inspect::Options {
                connect,
                json: args.has("json"),
            }))
        }
        "call" => {
            let mut args = Args::split(args, &CONNECT, &[])?;
            let connect = args.connect()?;
            if args.positionals.is_empty() {
                return Err(wrong("no TOOL given".into()));
            }
            let tool = args.positionals.remove(0);
            let arguments = match args.positionals.first() {
                None => Value::Object(Default::default()),
                Some(text) => serde_json::from_str(text)
                    .map_err(|e| wrong(format!("the arguments are not JSON: {e}")))?,
            };
            if !arguments.is_object() {
                return Err(wrong("the arguments are a JSON object".into()));
            }
            if args.positionals.len() > 1 {
                return Err(wrong(format!(
                    "unexpected argument {:?}",
                    args.positionals[1]
                )));
            }
            Ok(Command::Call(crate::call::Options {
                connect,
                tool,
                arguments,
            }))
        }
        "install" => {
            let args = Args::split(
                args,
                &["name", "env", "scope", "project", "home"],
                &["print"],
            )?;
            let [host] = args.positionals.as_slice() else {
                return Err(wrong("install takes one HOST".into()));
            };
            let host = Host::parse(host).map_err(wrong)?;
            let name = args
                .value("name")?
                .ok_or_else(|| wrong("--name NAME: the server's name in the host".into()))?;
            let command = args.rest.clone().filter(|c| !c.is_empty()).ok_or_else(|| {
                wrong("`-- COMMAND ARGS..`: how the host starts the server".into())
            })?;
            let env = args
                .values("env")
                .map(|e| {
                    e.split_once('=')
                        .map(|(k, v)| (k.to_owned(), v.to_owned()))
                        .ok_or_else(|| wrong(format!("--env {e:?}: write KEY=VALUE")))
                })
                .collect::<Result<_, Usage>>()?;
            let scope = match args.value("scope")?.as_deref() {
                None => host.default_scope(),
                Some(scope) => Scope::parse(scope).map_err(wrong)?,
            };
            let home = args.value("home")?.map(PathBuf::from);
            let project = match args.value("project")? {
                Some(project) => PathBuf::from(project),
                None => std::env::current_dir()
                    .map_err(|e| wrong(format!("the current folder: {e}")))?,
            };
            Ok(Command::Install(crate::install::Options {
                host,
                name,
                command,
                env,
                scope,
                print: args.has("print"),
                home,
                project,
            }))
        }
        "diff" => {
            let args = Args::split(args, &["deny", "manifest-path", "bin", "target-dir"], &[])?;
            let deny_breaking = match args.value("deny")?.as_deref() {
                None => false,
                Some("breaking") => true,
                Some(other) => return Err(wrong(format!("--deny {other:?}: only `breaking`"))),
            };
            let [old, new] = args.positionals.as_slice() else {
                return Err(wrong("diff takes OLD and NEW".into()));
            };
            Ok(Command::Diff(crate::diff::Options {
                old: old.clone(),
                new: new.clone(),
                deny_breaking,
                manifest: PathBuf::from(
                    args.value("manifest-path")?
                        .unwrap_or_else(|| "Cargo.toml".into()),
                ),
                bin: args.value("bin")?,
                target_dir: args.value("target-dir")?.map(PathBuf::from),
            }))
        }
        "card" => {
            let mut args = Args::split(
                args,
                &["revision", "header", "name", "url", "description"],
                &[],
            )?;
            let connect = args.connect()?;
            args.done()?;
            Ok(Command::Card(crate::card::Options {
                connect,
                name: args.value("name")?,
                url: args.value("url")?,
                description: args.value("description")?,
            }))
        }
        other => Err(wrong(format!("no command {other:?}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split(' ').map(str::to_owned).collect()
    }

    fn refusal(line: &str) -> String {
        match parse(&args(line)) {
            Err(Usage::Wrong(why)) => why,
            Err(Usage::Help(_)) => "help".into(),
            Ok(_) => "accepted".into(),
        }
    }

    #[test]
    fn a_target_is_a_url_a_command_line_or_what_follows_the_separator() {
        let Ok(Command::Call(call)) = parse(&args(r#"call http://127.0.0.1:9/mcp hello {"a":1}"#))
        else {
            panic!("not a call")
        };
        assert!(matches!(call.connect.target, Target::Url(ref u) if u == "http://127.0.0.1:9/mcp"));
        assert_eq!(
            (call.tool.as_str(), call.arguments["a"].as_i64()),
            ("hello", Some(1))
        );
        let Ok(Command::Inspect(inspect)) = parse(&args(
            "inspect --json --revision 2025-11-25 -- ./server --stdio",
        )) else {
            panic!("not an inspect")
        };
        assert!(inspect.json);
        assert_eq!(inspect.connect.revision, Some(Revision::V2025_11_25));
        assert!(
            matches!(inspect.connect.target, Target::Command(ref c) if c == &["./server", "--stdio"])
        );
    }

    #[test]
    fn a_wrong_command_line_names_what_is_wrong() {
        assert_eq!(refusal("inspect"), "no TARGET given");
        assert_eq!(refusal("inspect --jsn x"), "no option --jsn here");
        assert_eq!(refusal("call x"), "no TOOL given");
        assert!(refusal("call x t [1]").contains("a JSON object"));
        assert!(refusal("call x t {").contains("not JSON"));
        assert!(refusal("inspect --revision 2024-01-01 x").contains("2026-07-28 or 2025-11-25"));
        assert!(refusal("install cursor --name n").contains("COMMAND"));
        assert!(refusal("install emacs --name n -- x").contains("emacs"));
        assert_eq!(refusal("diff a"), "diff takes OLD and NEW");
        assert!(refusal("diff --deny all a b").contains("only `breaking`"));
        assert_eq!(refusal("frobnicate"), "no command \"frobnicate\"");
        assert_eq!(refusal("inspect --help"), "help");
    }
}
