//! What a node is, and the one derivation of its id.
//!
//! An id is its components joined with `/`, each escaped `%` → `%25` first, then `/` → `%2F`:
//! the server first, then the identity's tag, then the rest. Ids are never parsed back.

use crate::vocab::{Level, NodeKind};

/// What a node stands for, with everything its id is made of.
///
/// ```
/// use beam_mcp_connectome::Identity;
///
/// let tool = Identity::Tool { server: "srv".into(), name: "écho".into() };
/// assert_eq!(tool.id(), "srv/tool/écho");
/// let resource = Identity::Resource { server: "srv".into(), uri: "r://a".into() };
/// assert_eq!(resource.id(), "srv/resource/r:%2F%2Fa");
/// let function = Identity::Function {
///     server: "srv".into(),
///     module: "weather::forecast".into(),
///     name: "lookup".into(),
///     arity: 2,
/// };
/// assert_eq!(function.id(), "srv/module/weather::forecast/lookup/2");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Identity {
    /// The server, by its name: `srv/server`.
    Server {
        /// The server's name (`serverInfo.name`).
        server: String,
    },
    /// A tool, by its name: `srv/tool/<name>`.
    Tool {
        /// The server's name.
        server: String,
        /// The tool's name.
        name: String,
    },
    /// A resource by its URI, or a resource template by its template: `srv/resource/<uri>`.
    Resource {
        /// The server's name.
        server: String,
        /// The URI or URI template, as written.
        uri: String,
    },
    /// A prompt, by its name: `srv/prompt/<name>`.
    Prompt {
        /// The server's name.
        server: String,
        /// The prompt's name.
        name: String,
    },
    /// A named long-lived task or thread: `srv/process/<name>`.
    Process {
        /// The server's name.
        server: String,
        /// The name the host gives it.
        name: String,
    },
    /// A module, by its path from the crate's name: `srv/module/weather::forecast`.
    Module {
        /// The server's name.
        server: String,
        /// The module path, `::`-separated, starting with the crate's name.
        path: String,
    },
    /// A function: `srv/module/<module path>/<name>/<arity>` (the seed's `mfa`).
    Function {
        /// The server's name.
        server: String,
        /// The path of the module the function is in.
        module: String,
        /// The function's name (for a method, `Type::method`).
        name: String,
        /// How many parameters it takes, `self` included.
        arity: u32,
    },
    /// A boundary grouping modules: `srv/boundary/<group>/<name>`; beam-mcp groups by crate
    /// (`group` = `crate`, `name` = the crate's name).
    Boundary {
        /// The server's name.
        server: String,
        /// The kind of grouping (`crate`).
        group: String,
        /// The group's name.
        name: String,
    },
}

impl Identity {
    /// The node id this identity derives.
    pub fn id(&self) -> String {
        let server = self.server();
        let parts: Vec<&str> = match self {
            Identity::Server { .. } => vec![server, "server"],
            Identity::Tool { name, .. } => vec![server, "tool", name],
            Identity::Resource { uri, .. } => vec![server, "resource", uri],
            Identity::Prompt { name, .. } => vec![server, "prompt", name],
            Identity::Process { name, .. } => vec![server, "process", name],
            Identity::Module { path, .. } => vec![server, "module", path],
            Identity::Function {
                module,
                name,
                arity,
                ..
            } => {
                return join(&[server, "module", module, name, &arity.to_string()]);
            }
            Identity::Boundary { group, name, .. } => vec![server, "boundary", group, name],
        };
        join(&parts)
    }

    /// The server this identity belongs to.
    pub fn server(&self) -> &str {
        match self {
            Identity::Server { server }
            | Identity::Tool { server, .. }
            | Identity::Resource { server, .. }
            | Identity::Prompt { server, .. }
            | Identity::Process { server, .. }
            | Identity::Module { server, .. }
            | Identity::Function { server, .. }
            | Identity::Boundary { server, .. } => server,
        }
    }

    /// The kind of node it makes: a function, a module and a boundary are all `module`.
    pub fn kind(&self) -> NodeKind {
        match self {
            Identity::Server { .. } => NodeKind::Server,
            Identity::Tool { .. } => NodeKind::Tool,
            Identity::Resource { .. } => NodeKind::Resource,
            Identity::Prompt { .. } => NodeKind::Prompt,
            Identity::Process { .. } => NodeKind::Process,
            Identity::Module { .. } | Identity::Function { .. } | Identity::Boundary { .. } => {
                NodeKind::Module
            }
        }
    }

    /// The level it sits at: code at its own level, everything else at `server`.
    pub fn level(&self) -> Level {
        match self {
            Identity::Function { .. } => Level::Mfa,
            Identity::Module { .. } => Level::Module,
            Identity::Boundary { .. } => Level::Boundary,
            _ => Level::Server,
        }
    }
}

/// Joins components into an id, escaping each.
fn join(parts: &[&str]) -> String {
    let mut id = String::new();
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            id.push('/');
        }
        for c in part.chars() {
            match c {
                '%' => id.push_str("%25"),
                '/' => id.push_str("%2F"),
                c => id.push(c),
            }
        }
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_escape_percent_before_slash() {
        let prompt = Identity::Prompt {
            server: "a/b".into(),
            name: "p%".into(),
        };
        assert_eq!(prompt.id(), "a%2Fb/prompt/p%25");
        let tricky = Identity::Tool {
            server: "s".into(),
            name: "%2F".into(),
        };
        assert_eq!(tricky.id(), "s/tool/%252F");
        assert_eq!(
            Identity::Server {
                server: "srv".into()
            }
            .id(),
            "srv/server"
        );
        let boundary = Identity::Boundary {
            server: "srv".into(),
            group: "crate".into(),
            name: "beam_mcp".into(),
        };
        assert_eq!(boundary.id(), "srv/boundary/crate/beam_mcp");
        assert_eq!(boundary.kind(), NodeKind::Module);
        assert_eq!(boundary.level(), Level::Boundary);
    }
}
