//! The declared graph at a level: the server, its catalog items, and the crate's code as
//! functions (`mfa`), modules (`module`) or the crate itself (`boundary`), joined by `invoke`
//! edges, but server → resource, which is `read` (the kinds the observed graph records). At a
//! coarser level a call inside one node is a self-loop and is dropped.

use std::collections::{BTreeMap, BTreeSet};

use beam_mcp_connectome::{Edge, EdgeKind, Graph, Identity, Labels, Level, Node, Provenance};

use crate::error::ScanError;
use crate::index::{FnId, Index};
use crate::items::Found;
use crate::sinks::{Capability, SINK_TABLE_VERSION, Sinks};

/// What the graph is made of.
pub(crate) struct Parts<'a> {
    pub(crate) server: &'a str,
    pub(crate) crate_name: &'a str,
    pub(crate) level: Level,
    pub(crate) index: &'a Index,
    pub(crate) items: &'a [Found],
    /// Each item's completers among the crate's functions, by the item's position.
    pub(crate) completers: &'a [(usize, FnId)],
    pub(crate) calls: &'a BTreeSet<(FnId, FnId)>,
    /// Calls into other crates, by callee path.
    pub(crate) external: &'a BTreeSet<(FnId, Vec<String>)>,
    pub(crate) sinks: &'a Sinks,
}

pub(crate) fn build(parts: &Parts<'_>) -> Result<Graph, ScanError> {
    let server = parts.server.to_owned();
    let mut nodes: BTreeMap<String, Node> = BTreeMap::new();
    let mut edges: BTreeSet<(String, String, EdgeKind)> = BTreeSet::new();
    let mut add = |identity: Identity, labels: Labels| -> Result<String, ScanError> {
        let node = Node::new(identity, labels)?;
        let id = node.id().to_owned();
        nodes.entry(id.clone()).or_insert(node);
        Ok(id)
    };
    let root = add(
        Identity::Server {
            server: server.clone(),
        },
        Labels::new(),
    )?;
    match parts.level {
        Level::Mfa => {
            for function in 0..parts.index.fns.len() {
                add(code(parts, function), Labels::new())?;
            }
        }
        Level::Module => {
            for module in &parts.index.tree.modules {
                add(
                    Identity::Module {
                        server: server.clone(),
                        path: module.name(),
                    },
                    Labels::new(),
                )?;
            }
        }
        _ => {
            add(code(parts, 0), Labels::new())?;
        }
    }
    let mut item_ids = Vec::with_capacity(parts.items.len());
    for found in parts.items {
        let item = &found.item;
        let (identity, kind) = match item.kind {
            beam_mcp_rules::attributes::ItemKind::Tool => (
                Identity::Tool {
                    server: server.clone(),
                    name: item.key.clone(),
                },
                EdgeKind::Invoke,
            ),
            beam_mcp_rules::attributes::ItemKind::Resource => (
                Identity::Resource {
                    server: server.clone(),
                    uri: item.key.clone(),
                },
                EdgeKind::Read,
            ),
            beam_mcp_rules::attributes::ItemKind::Prompt => (
                Identity::Prompt {
                    server: server.clone(),
                    name: item.key.clone(),
                },
                EdgeKind::Invoke,
            ),
        };
        let id = add(identity, item.labels.clone())?;
        edges.insert((root.clone(), id.clone(), kind));
        edges.insert((
            id.clone(),
            code(parts, found.function).id(),
            EdgeKind::Invoke,
        ));
        item_ids.push(id);
    }
    for (position, completer) in parts.completers {
        if let Some(item) = item_ids.get(*position) {
            edges.insert((item.clone(), code(parts, *completer).id(), EdgeKind::Invoke));
        }
    }
    for (from, to) in parts.calls {
        let (from, to) = (code(parts, *from).id(), code(parts, *to).id());
        if from != to || parts.level == Level::Mfa {
            edges.insert((from, to, EdgeKind::Invoke));
        }
    }
    for (from, path) in parts.external {
        let from = code(parts, *from).id();
        let mut labels = Labels::new();
        if let Some(capability) = parts.sinks.capability(path) {
            labels.insert("capability".to_owned(), capability.as_str().into());
            match &capability {
                Capability::Host { effect, .. } => {
                    labels.insert("effect".to_owned(), effect.as_str().into());
                }
                _ => {
                    labels.insert("sinks".to_owned(), SINK_TABLE_VERSION.into());
                }
            }
        }
        let to = add(external(parts.server, path), labels)?;
        edges.insert((from, to, EdgeKind::Invoke));
    }
    let edges = edges
        .into_iter()
        .map(|(from, to, kind)| Edge::new(from, to, kind, Provenance::Declared))
        .collect();
    Ok(Graph::new(nodes.into_values().collect(), edges)?)
}

/// A callee in another crate: a boundary node per crate and path,
/// `srv/boundary/std/std::thread::sleep`.
pub(crate) fn external(server: &str, path: &[String]) -> Identity {
    Identity::Boundary {
        server: server.to_owned(),
        group: path.first().cloned().unwrap_or_default(),
        name: path.join("::"),
    }
}

/// The code node a function sits in at the level.
fn code(parts: &Parts<'_>, function: FnId) -> Identity {
    let server = parts.server.to_owned();
    let index = parts.index;
    let module = index
        .fns
        .get(function)
        .map(|f| f.module)
        .unwrap_or_default();
    match parts.level {
        Level::Mfa => match index.fns.get(function) {
            Some(f) => Identity::Function {
                server,
                module: index.module_name(f.module),
                name: f.name.clone(),
                arity: f.arity,
            },
            None => Identity::Module {
                server,
                path: index.module_name(module),
            },
        },
        Level::Module => Identity::Module {
            server,
            path: index.module_name(module),
        },
        _ => Identity::Boundary {
            server,
            group: "crate".to_owned(),
            name: parts.crate_name.to_owned(),
        },
    }
}
