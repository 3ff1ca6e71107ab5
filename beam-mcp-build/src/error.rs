//! Why a scan gave no declared graph; each error names its culprit by file and line.

use std::fmt;
use std::path::PathBuf;

use beam_mcp_connectome::canonical::CanonicalError;
use beam_mcp_connectome::{GraphError, Level};
use beam_mcp_rules::attributes::ItemKind;

use crate::spell::{place, slashed};

/// Why the scan refused the crate. Files are relative to the package's manifest directory.
///
/// ```
/// use beam_mcp_build::ScanError;
///
/// let error = ScanError::Syntax {
///     file: "src/main.rs".into(),
///     line: 3,
///     column: 7,
///     message: "expected `;`".into(),
/// };
/// assert_eq!(error.to_string(), "src/main.rs:3:7: expected `;`");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ScanError {
    /// An environment variable cargo sets for build scripts is missing.
    #[error(
        "{var} is not set: call beam_mcp_build from a build script, or set it with the builder"
    )]
    MissingEnv {
        /// The variable.
        var: &'static str,
    },
    /// Neither `src/main.rs` nor `src/lib.rs`, and no root given.
    #[error("{}: neither src/main.rs nor src/lib.rs exists; name the crate root with .root(\"...\")", .dir.display())]
    NoRoot {
        /// The manifest directory.
        dir: PathBuf,
    },
    /// A file that could not be read.
    #[error("{}: cannot read: {message}", slashed(.file))]
    Read {
        /// The file.
        file: PathBuf,
        /// The reason.
        message: String,
    },
    /// A source file that does not parse.
    #[error("{}:{line}:{column}: {message}", slashed(.file))]
    Syntax {
        /// The file.
        file: PathBuf,
        /// Its line (1-based).
        line: usize,
        /// Its column (1-based).
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// A source file nested deeper than the scan reads: its parser and visitor recurse once per
    /// level, and a stack overflow would abort the build script without a word.
    #[error("{}:{line}:{column}: {what}; the scan reads at most {limit} here: split it or name a part of it", slashed(.file))]
    TooDeep {
        /// The file.
        file: PathBuf,
        /// The line where the limit is passed.
        line: usize,
        /// Its column (1-based).
        column: usize,
        /// What is too deep.
        what: String,
        /// The limit.
        limit: usize,
    },
    /// A source path cargo cannot be told about on a `cargo::rerun-if-changed=` line: not
    /// UTF-8, or holding a line break (which would end the line and start another cargo
    /// instruction). The crate root's path is checked as joined from the manifest directory;
    /// a `#[path]` with a line break is an [`Attribute`](ScanError::Attribute) error.
    #[error(
        "{path:?}: the path is not UTF-8 or holds a line break, so no cargo::rerun-if-changed line can name it"
    )]
    UnprintablePath {
        /// The path.
        path: PathBuf,
    },
    /// `mod name;` with no file for it.
    #[error("{}: no file for `mod {module};` (looked for {})", place(.file, *.line), .tried.iter().map(|t| slashed(t)).collect::<Vec<_>>().join(" and "))]
    ModuleNotFound {
        /// The file declaring the module.
        file: PathBuf,
        /// The declaration's line.
        line: usize,
        /// The module's name.
        module: String,
        /// The files looked for.
        tried: Vec<PathBuf>,
    },
    /// `mod name;` with both `name.rs` and `name/mod.rs` (rustc's E0761).
    #[error("{}: `mod {module};` has two files, {} and {}; remove one", place(.file, *.line), slashed(.first), slashed(.second))]
    ModuleAmbiguous {
        /// The file declaring the module.
        file: PathBuf,
        /// The declaration's line.
        line: usize,
        /// The module's name.
        module: String,
        /// One file.
        first: PathBuf,
        /// The other.
        second: PathBuf,
    },
    /// A module whose file is already being read further up the tree (`#[path]` in a loop).
    #[error("{}: `mod {module};` loads {}, which holds it already", place(.file, *.line), slashed(.target))]
    ModuleCycle {
        /// The file declaring the module.
        file: PathBuf,
        /// The declaration's line.
        line: usize,
        /// The module's name.
        module: String,
        /// The file it names.
        target: PathBuf,
    },
    /// A `#[path]`, `#[cfg]` or `#[cfg_attr]` the scan cannot read.
    #[error("{}: {message}", place(.file, *.line))]
    Attribute {
        /// The file.
        file: PathBuf,
        /// The attribute's line.
        line: usize,
        /// Why.
        message: String,
    },
    /// A `#[tool]`, `#[resource]` or `#[prompt]` its macro would refuse, in the macro's words.
    #[error("{}:{line}:{column}: #[{kind}]: {message}", slashed(.file), kind = .kind.as_str())]
    ItemAttribute {
        /// The file.
        file: PathBuf,
        /// The culprit's line.
        line: usize,
        /// Its column (1-based).
        column: usize,
        /// The attribute's kind.
        kind: ItemKind,
        /// The macro's message.
        message: String,
    },
    /// Two tools with one name, two prompts with one name, two resources with one URI (or two
    /// templates matching the same URIs).
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Duplicates(Vec<Duplicate>),
    /// A level code cannot sit at.
    #[error("level {level}: the declared graph's code sits at mfa, module or boundary")]
    Level {
        /// The level asked for.
        level: Level,
    },
    /// The graph was refused (a bug of the scan, named rather than hidden).
    #[error("the declared graph was refused: {0}")]
    Graph(#[from] GraphError),
    /// The graph has no canonical bytes.
    #[error("the declared graph has no canonical bytes: {0}")]
    Canonical(#[from] CanonicalError),
    /// A host's sink is named as a built-in capability, or not named at all.
    #[error(
        "the sink {path:?} is named {name:?}: a host's capability needs a name of its own (not empty, not one of fs-read, fs-write, fs-delete, process, net, env, time, random)"
    )]
    SinkName {
        /// The path given to `Connectome::sink`.
        path: String,
        /// The name given to `Capability::host`.
        name: String,
    },
    /// The scan itself failed (a bug of the scan, named rather than hidden).
    #[error("{message}")]
    Internal {
        /// What happened.
        message: String,
    },
    /// A file under `OUT_DIR` could not be written.
    #[error("{}: cannot write: {message}", .file.display())]
    Write {
        /// The file.
        file: PathBuf,
        /// The reason.
        message: String,
    },
}

/// Where an item's key was written: the file (relative to the manifest directory), the line,
/// and the key as written there.
///
/// ```
/// use beam_mcp_build::Place;
///
/// let place = Place { file: "src/main.rs".into(), line: 12, written: "get_weather".into() };
/// assert_eq!(place.to_string(), "src/main.rs:12");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The file.
    pub file: PathBuf,
    /// The line of the name (the `name = "..."` literal, else the function's name) or URI.
    pub line: usize,
    /// The name or URI, as written.
    pub written: String,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&place(&self.file, self.line))
    }
}

/// Two items with one key.
///
/// ```
/// use beam_mcp_build::{Duplicate, ItemKind, Place};
///
/// let at = |line| Place { file: "src/main.rs".into(), line, written: "echo".into() };
/// let duplicate = Duplicate { kind: ItemKind::Tool, first: at(3), second: at(9) };
/// assert_eq!(
///     duplicate.to_string(),
///     r#"tool name "echo" is declared twice, at src/main.rs:3 and at src/main.rs:9: rename one"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// The items' kind.
    pub kind: ItemKind,
    /// The first declaration, in scan order (module tree order, then file order).
    pub first: Place,
    /// The second.
    pub second: Place,
}

impl fmt::Display for Duplicate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (first, second) = (&self.first, &self.second);
        let what = match self.kind {
            ItemKind::Tool => "tool name",
            ItemKind::Prompt => "prompt name",
            ItemKind::Resource if first.written == second.written => "resource URI",
            ItemKind::Resource => {
                return write!(
                    f,
                    "resource templates {:?} at {first} and {:?} at {second} match the same URIs: change one",
                    first.written, second.written
                );
            }
        };
        write!(
            f,
            "{what} {:?} is declared twice, at {first} and at {second}: rename one",
            first.written
        )
    }
}
