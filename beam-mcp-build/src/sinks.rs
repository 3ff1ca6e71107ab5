//! Capabilities: what a call into another crate can do to the world outside the process
//! (read or write files, start a process, open a socket, read the environment, the clock,
//! randomness), by the callee's path. The table is versioned ([`SINK_TABLE_VERSION`]) and its
//! version is written on every node it labels, so a change to it changes the digest of every
//! graph it touches.

use std::fmt;

/// The version of the built-in table, written as the `sinks` label of each node it labels.
/// Raised whenever an entry is added, removed or changed.
///
/// ```
/// assert_eq!(beam_mcp_build::SINK_TABLE_VERSION, "1");
/// ```
pub const SINK_TABLE_VERSION: &str = "1";

/// What a sink can do, as the `capability` label of its node spells it.
///
/// ```
/// use beam_mcp_build::{Capability, Effect};
///
/// assert_eq!(Capability::FsWrite.as_str(), "fs-write");
/// let insert = Capability::host("db-write", Effect::Write);
/// assert_eq!(insert.as_str(), "db-write");
/// assert_eq!(insert.effect(), Some(Effect::Write));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Capability {
    /// Reads files or directories (`std::fs::read_to_string`, `File::open`, `Path::exists`).
    FsRead,
    /// Creates or changes files or directories (`std::fs::write`, `File::create`,
    /// `OpenOptions::open` whatever its mode, `create_dir_all`, `rename`, `copy`).
    FsWrite,
    /// Removes files or directories (`remove_file`, `remove_dir`, `remove_dir_all`).
    FsDelete,
    /// Starts another process (`std::process::Command`, `tokio::process`).
    Process,
    /// Opens or uses a network socket (`std::net`, `tokio::net`, `reqwest`, `hyper`'s client).
    Net,
    /// Reads or changes the process environment (`std::env::var`, `set_var`, `args`).
    Env,
    /// Reads the clock or sleeps (`SystemTime::now`, `Instant::now`, `std::thread::sleep`,
    /// `tokio::time`).
    Time,
    /// Draws randomness (`rand`, `getrandom`, `fastrand`).
    Random,
    /// A host's own sink (its database client's write methods, say), named by the host.
    Host {
        /// The label's text: not one of the built-in names.
        name: String,
        /// What it does, for the policy checks.
        effect: Effect,
    },
}

/// What a host's sink does, for [`Policy`](crate::Policy): a `read_only` tool may reach no
/// `Write` or `Delete` sink, a non-destructive one no `Delete` sink.
///
/// ```
/// use beam_mcp_build::{Capability, Effect};
/// assert_eq!(Capability::FsDelete.effect(), Some(Effect::Delete));
/// assert_eq!(Capability::Time.effect(), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Effect {
    /// Reads only.
    Read,
    /// Changes something.
    Write,
    /// Removes something.
    Delete,
}

impl Effect {
    /// `read`, `write` or `delete`.
    ///
    /// ```
    /// assert_eq!(beam_mcp_build::Effect::Delete.as_str(), "delete");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Read => "read",
            Effect::Write => "write",
            Effect::Delete => "delete",
        }
    }
}

impl Capability {
    /// A host's sink named `name` (`db-write`) doing `effect`.
    ///
    /// ```
    /// let c = beam_mcp_build::Capability::host("db-delete", beam_mcp_build::Effect::Delete);
    /// assert_eq!(c.to_string(), "db-delete");
    /// ```
    pub fn host(name: &str, effect: Effect) -> Capability {
        Capability::Host {
            name: name.to_owned(),
            effect,
        }
    }

    /// The name written as the node's `capability` label.
    ///
    /// ```
    /// assert_eq!(beam_mcp_build::Capability::Process.as_str(), "process");
    /// ```
    pub fn as_str(&self) -> &str {
        match self {
            Capability::FsRead => "fs-read",
            Capability::FsWrite => "fs-write",
            Capability::FsDelete => "fs-delete",
            Capability::Process => "process",
            Capability::Net => "net",
            Capability::Env => "env",
            Capability::Time => "time",
            Capability::Random => "random",
            Capability::Host { name, .. } => name,
        }
    }

    /// What it does to files or the host's systems, where that matters to a policy:
    /// `fs-read` reads, `fs-write` writes, `fs-delete` deletes, a host's sink as declared.
    ///
    /// ```
    /// use beam_mcp_build::{Capability, Effect};
    /// assert_eq!(Capability::FsRead.effect(), Some(Effect::Read));
    /// ```
    pub fn effect(&self) -> Option<Effect> {
        match self {
            Capability::FsRead => Some(Effect::Read),
            Capability::FsWrite => Some(Effect::Write),
            Capability::FsDelete => Some(Effect::Delete),
            Capability::Host { effect, .. } => Some(*effect),
            _ => None,
        }
    }

    /// The built-in capability spelled `name`.
    pub(crate) fn builtin(name: &str) -> Option<Capability> {
        BUILTIN.iter().find(|c| c.as_str() == name).cloned()
    }
}

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

const BUILTIN: &[Capability] = &[
    Capability::FsRead,
    Capability::FsWrite,
    Capability::FsDelete,
    Capability::Process,
    Capability::Net,
    Capability::Env,
    Capability::Time,
    Capability::Random,
];

/// The built-in table, version [`SINK_TABLE_VERSION`]: a callee's path (other crates' paths
/// as the graph names them: prelude types in full, `core::` and `alloc::` as `std::`) takes
/// the capability of the longest entry it starts with (segment by segment).
pub const SINK_TABLE: &[(&str, &str)] = &[
    ("std::fs", "fs-read"),
    ("std::fs::write", "fs-write"),
    ("std::fs::create_dir", "fs-write"),
    ("std::fs::create_dir_all", "fs-write"),
    ("std::fs::copy", "fs-write"),
    ("std::fs::rename", "fs-write"),
    ("std::fs::hard_link", "fs-write"),
    ("std::fs::soft_link", "fs-write"),
    ("std::fs::set_permissions", "fs-write"),
    ("std::fs::File::create", "fs-write"),
    ("std::fs::File::create_new", "fs-write"),
    ("std::fs::File::options", "fs-write"),
    ("std::fs::File::set_len", "fs-write"),
    ("std::fs::File::set_permissions", "fs-write"),
    ("std::fs::File::set_modified", "fs-write"),
    ("std::fs::File::set_times", "fs-write"),
    ("std::fs::File::write", "fs-write"),
    ("std::fs::File::write_all", "fs-write"),
    ("std::fs::File::write_fmt", "fs-write"),
    ("std::fs::OpenOptions", "fs-write"),
    ("std::fs::remove_file", "fs-delete"),
    ("std::fs::remove_dir", "fs-delete"),
    ("std::fs::remove_dir_all", "fs-delete"),
    ("std::os::unix::fs::symlink", "fs-write"),
    ("std::path::Path::exists", "fs-read"),
    ("std::path::Path::try_exists", "fs-read"),
    ("std::path::Path::is_file", "fs-read"),
    ("std::path::Path::is_dir", "fs-read"),
    ("std::path::Path::is_symlink", "fs-read"),
    ("std::path::Path::metadata", "fs-read"),
    ("std::path::Path::symlink_metadata", "fs-read"),
    ("std::path::Path::canonicalize", "fs-read"),
    ("std::path::Path::read_dir", "fs-read"),
    ("std::path::Path::read_link", "fs-read"),
    ("std::path::PathBuf::exists", "fs-read"),
    ("std::path::PathBuf::is_file", "fs-read"),
    ("std::path::PathBuf::is_dir", "fs-read"),
    ("std::path::PathBuf::metadata", "fs-read"),
    ("std::path::PathBuf::canonicalize", "fs-read"),
    ("std::path::PathBuf::read_dir", "fs-read"),
    ("tokio::fs", "fs-read"),
    ("tokio::fs::write", "fs-write"),
    ("tokio::fs::create_dir", "fs-write"),
    ("tokio::fs::create_dir_all", "fs-write"),
    ("tokio::fs::copy", "fs-write"),
    ("tokio::fs::rename", "fs-write"),
    ("tokio::fs::hard_link", "fs-write"),
    ("tokio::fs::symlink", "fs-write"),
    ("tokio::fs::set_permissions", "fs-write"),
    ("tokio::fs::File::create", "fs-write"),
    ("tokio::fs::File::create_new", "fs-write"),
    ("tokio::fs::File::options", "fs-write"),
    ("tokio::fs::File::set_len", "fs-write"),
    ("tokio::fs::OpenOptions", "fs-write"),
    ("tokio::fs::remove_file", "fs-delete"),
    ("tokio::fs::remove_dir", "fs-delete"),
    ("tokio::fs::remove_dir_all", "fs-delete"),
    ("std::process::Command", "process"),
    ("std::process::Child", "process"),
    ("tokio::process", "process"),
    ("std::net", "net"),
    ("tokio::net", "net"),
    ("reqwest", "net"),
    ("ureq", "net"),
    ("hyper::client", "net"),
    ("hyper_util::client", "net"),
    ("std::env", "env"),
    ("std::thread::sleep", "time"),
    ("std::time::SystemTime::now", "time"),
    ("std::time::Instant::now", "time"),
    ("tokio::time", "time"),
    ("chrono::Utc::now", "time"),
    ("chrono::Local::now", "time"),
    ("rand", "random"),
    ("getrandom", "random"),
    ("fastrand", "random"),
];

/// The built-in table with a host's entries, which win over built-in ones of the same length.
#[derive(Debug, Clone, Default)]
pub(crate) struct Sinks {
    host: Vec<(Vec<String>, Capability)>,
}

impl Sinks {
    pub(crate) fn add(&mut self, path: &str, capability: Capability) {
        self.host.push((split(path), capability));
    }

    /// Refuses a host's capability named as a built-in one (its label would read as the
    /// built-in's) or not named.
    pub(crate) fn check(&self) -> Result<(), crate::error::ScanError> {
        for (path, capability) in &self.host {
            if let Capability::Host { name, .. } = capability
                && (name.is_empty() || Capability::builtin(name).is_some())
            {
                return Err(crate::error::ScanError::SinkName {
                    path: path.join("::"),
                    name: name.clone(),
                });
            }
        }
        Ok(())
    }

    /// The capability of the longest entry `path` starts with.
    pub(crate) fn capability(&self, path: &[String]) -> Option<Capability> {
        let mut best: Option<(usize, Capability)> = None;
        let mut consider = |entry: &[String], capability: &Capability, wins_ties: bool| {
            let len = entry.len();
            if path.len() >= len && path[..len] == *entry {
                let better = match &best {
                    None => true,
                    Some((l, _)) => len > *l || (len == *l && wins_ties),
                };
                if better {
                    best = Some((len, capability.clone()));
                }
            }
        };
        for (entry, name) in SINK_TABLE {
            if let Some(capability) = Capability::builtin(name) {
                consider(&split(entry), &capability, false);
            }
        }
        for (entry, capability) in &self.host {
            consider(entry, capability, true);
        }
        best.map(|(_, c)| c)
    }
}

fn split(path: &str) -> Vec<String> {
    path.split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(p: &str) -> Vec<String> {
        split(p)
    }

    #[test]
    fn the_longest_entry_wins() {
        let sinks = Sinks::default();
        assert_eq!(
            sinks.capability(&path("std::fs::read_to_string")),
            Some(Capability::FsRead)
        );
        assert_eq!(
            sinks.capability(&path("std::fs::File::create")),
            Some(Capability::FsWrite)
        );
        assert_eq!(
            sinks.capability(&path("std::fs::remove_dir_all")),
            Some(Capability::FsDelete)
        );
        assert_eq!(
            sinks.capability(&path("std::thread::sleep")),
            Some(Capability::Time)
        );
        assert_eq!(sinks.capability(&path("std::thread::spawn")), None);
        // Segment by segment: `std::fsx` is not under `std::fs`.
        assert_eq!(sinks.capability(&path("std::fsx::write")), None);
        assert_eq!(
            sinks.capability(&path("std::process::Command::new")),
            Some(Capability::Process)
        );
    }

    #[test]
    fn a_host_entry_extends_and_overrides() {
        let mut sinks = Sinks::default();
        sinks.add(
            "mydb::Client::insert",
            Capability::host("db-write", Effect::Write),
        );
        sinks.add("std::env::args", Capability::host("argv", Effect::Read));
        assert_eq!(
            sinks.capability(&path("mydb::Client::insert")),
            Some(Capability::host("db-write", Effect::Write))
        );
        assert_eq!(sinks.capability(&path("mydb::Client::get")), None);
        assert_eq!(
            sinks.capability(&path("std::env::args")),
            Some(Capability::host("argv", Effect::Read))
        );
        assert_eq!(
            sinks.capability(&path("std::env::var")),
            Some(Capability::Env)
        );
    }

    #[test]
    fn every_table_entry_names_a_builtin_capability() {
        for (entry, name) in SINK_TABLE {
            assert!(Capability::builtin(name).is_some(), "{entry}: {name}");
        }
    }
}
