//! Policy from the declared graph: what each tool, resource and prompt can reach (the
//! capabilities of the sinks its code calls, each with the shortest path as a witness), and
//! the checks a host's test asserts in one line: a `read_only` tool writes nothing, a tool
//! annotated non-destructive deletes nothing, an item's scopes cover what it reaches.
//!
//! Scan at [`Level::Mfa`](crate::Level::Mfa) for these checks: at `module` or `boundary` a
//! code node stands for every function in it, so an item reaches what any of them reaches.
//!
//! The graph is what the scan resolved: a sink behind a call the scan could not resolve (in
//! the [`Bound`](crate::Bound)) is not seen, so a passing check says "no path the scan sees",
//! and the bound says what it did not see.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt;

use beam_mcp_connectome::Graph;
use beam_mcp_rules::attributes::ItemKind;

use crate::items::DeclaredItem;
use crate::sinks::{Capability, Effect};

/// The shortest path from an item to a sink: node ids, the item's first, the sink's last.
///
/// ```
/// # let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/policy");
/// # let declared = beam_mcp_build::connectome("srv").manifest_dir(&dir).crate_name("policy").level(beam_mcp_build::Level::Mfa).scan()?;
/// let reach = declared.reach();
/// let save = reach.iter().find(|r| r.key == "save").unwrap();
/// let witness = &save.capabilities[&beam_mcp_build::Capability::FsWrite];
/// assert_eq!(witness.nodes.last().map(String::as_str), Some("srv/boundary/std/std::fs::write"));
/// # Ok::<(), beam_mcp_build::ScanError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Witness {
    /// Node ids along the path.
    pub nodes: Vec<String>,
}

impl fmt::Display for Witness {
    /// The path in words: `tool save → policy::save → policy::Store::put → std::fs::write`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, id) in self.nodes.iter().enumerate() {
            if i > 0 {
                f.write_str(" → ")?;
            }
            f.write_str(&readable(id))?;
        }
        Ok(())
    }
}

/// What one catalog item can reach.
///
/// ```
/// # let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/policy");
/// # let declared = beam_mcp_build::connectome("srv").manifest_dir(&dir).crate_name("policy").level(beam_mcp_build::Level::Mfa).scan()?;
/// for item in declared.reach() {
///     for (capability, witness) in &item.capabilities {
///         println!("{} {} reaches {capability}: {witness}", item.kind.as_str(), item.key);
///     }
/// }
/// # Ok::<(), beam_mcp_build::ScanError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ItemReach {
    /// Tool, resource or prompt.
    pub kind: ItemKind,
    /// Its name, or its URI or template.
    pub key: String,
    /// Each capability it reaches, with the shortest path to one sink of it.
    pub capabilities: BTreeMap<Capability, Witness>,
}

/// The checks of [`Declared::check`](crate::Declared::check): the annotation rules always,
/// and the scope rules the host maps.
///
/// ```
/// use beam_mcp_build::{Capability, Policy};
/// let policy = Policy::new()
///     .scope(Capability::FsWrite, "notes:write")
///     .scope(Capability::Net, "net");
/// # let _ = policy;
/// ```
#[derive(Debug, Clone, Default)]
pub struct Policy {
    scopes: Vec<(Capability, String)>,
}

impl Policy {
    /// The annotation rules: a tool annotated `read_only` reaches no `fs-write`, `fs-delete`
    /// or `process` sink and no host sink that writes or deletes; a tool annotated
    /// `destructive = false` reaches no `fs-delete` sink and no host sink that deletes.
    ///
    /// ```
    /// let policy = beam_mcp_build::Policy::new();
    /// # let _ = policy;
    /// ```
    pub fn new() -> Policy {
        Policy::default()
    }

    /// An item that reaches `capability` must declare `scope` among its `scopes`.
    ///
    /// ```
    /// let policy = beam_mcp_build::Policy::new().scope(beam_mcp_build::Capability::FsDelete, "files:admin");
    /// # let _ = policy;
    /// ```
    pub fn scope(mut self, capability: Capability, scope: &str) -> Policy {
        self.scopes.push((capability, scope.to_owned()));
        self
    }
}

/// The rule a violation breaks.
///
/// ```
/// assert_eq!(beam_mcp_build::Rule::ReadOnly.to_string(), "is annotated read_only");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rule {
    /// The tool is annotated `read_only`.
    ReadOnly,
    /// The tool is annotated `destructive = false`.
    NonDestructive,
    /// The item lacks the scope the host maps to the capability.
    Scope(String),
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::ReadOnly => f.write_str("is annotated read_only"),
            Rule::NonDestructive => f.write_str("is annotated destructive = false"),
            Rule::Scope(scope) => write!(f, "does not declare the scope {scope:?}"),
        }
    }
}

/// One item breaking one rule, with the path that shows it.
///
/// ```
/// # let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/policy");
/// # let declared = beam_mcp_build::connectome("srv").manifest_dir(&dir).crate_name("policy").level(beam_mcp_build::Level::Mfa).scan()?;
/// let refused = declared.check(&beam_mcp_build::Policy::new()).unwrap_err();
/// let text = refused.to_string();
/// assert!(text.contains("tool `save` is annotated read_only but reaches fs-write"));
/// # Ok::<(), beam_mcp_build::ScanError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Violation {
    /// Tool, resource or prompt.
    pub kind: ItemKind,
    /// Its name, or its URI or template.
    pub key: String,
    /// The rule broken.
    pub rule: Rule,
    /// The capability reached.
    pub capability: Capability,
    /// The shortest path to it.
    pub witness: Witness,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} `{}` {} but reaches {}: {}",
            self.kind.as_str(),
            self.key,
            self.rule,
            self.capability,
            self.witness
        )
    }
}

/// Every violation of a check, one a line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", lines(.0))]
pub struct Violations(pub Vec<Violation>);

fn lines(violations: &[Violation]) -> String {
    let lines: Vec<String> = violations.iter().map(ToString::to_string).collect();
    lines.join("\n")
}

/// What each item reaches, in catalog order.
pub(crate) fn reach(graph: &Graph, items: &[DeclaredItem], server: &str) -> Vec<ItemReach> {
    let mut next: HashMap<&str, Vec<&str>> = HashMap::new();
    for edge in graph.edges() {
        let (from, to, _, _) = edge.key();
        next.entry(from).or_default().push(to);
    }
    let sinks: HashMap<&str, Capability> = graph
        .nodes()
        .iter()
        .filter_map(|n| sink_capability(n.labels()).map(|c| (n.id(), c)))
        .collect();
    items
        .iter()
        .map(|item| {
            let start = item_id(server, item);
            let mut capabilities = BTreeMap::new();
            // Breadth first: the first path found to each sink is a shortest one.
            let mut parent: HashMap<&str, &str> = HashMap::new();
            let mut queue = VecDeque::new();
            if graph.node(&start).is_some() {
                queue.push_back(start.as_str());
            }
            let mut seen = std::collections::HashSet::new();
            seen.insert(start.as_str());
            while let Some(at) = queue.pop_front() {
                if let Some(capability) = sinks.get(at)
                    && !capabilities.contains_key(capability)
                {
                    let mut nodes = vec![at.to_owned()];
                    let mut cursor = at;
                    while let Some(p) = parent.get(cursor) {
                        nodes.push((*p).to_owned());
                        cursor = p;
                    }
                    nodes.reverse();
                    capabilities.insert(capability.clone(), Witness { nodes });
                }
                for to in next.get(at).into_iter().flatten() {
                    if seen.insert(to) {
                        parent.insert(to, at);
                        queue.push_back(to);
                    }
                }
            }
            ItemReach {
                kind: item.kind,
                key: item.key.clone(),
                capabilities,
            }
        })
        .collect()
}

/// The violations of `policy` among `reach`.
pub(crate) fn check(
    policy: &Policy,
    items: &[DeclaredItem],
    reach: &[ItemReach],
) -> Result<(), Violations> {
    let mut out = Vec::new();
    for (item, reached) in items.iter().zip(reach) {
        let hint = |name: &str| item.labels.get(name).and_then(serde_json::Value::as_bool);
        let read_only = item.kind == ItemKind::Tool && hint("read_only") == Some(true);
        let non_destructive = item.kind == ItemKind::Tool && hint("destructive") == Some(false);
        for (capability, witness) in &reached.capabilities {
            let mut violate = |rule: Rule| {
                out.push(Violation {
                    kind: item.kind,
                    key: item.key.clone(),
                    rule,
                    capability: capability.clone(),
                    witness: witness.clone(),
                });
            };
            let effect = capability.effect();
            if read_only
                && (matches!(effect, Some(Effect::Write | Effect::Delete))
                    || *capability == Capability::Process)
            {
                violate(Rule::ReadOnly);
            }
            if non_destructive && effect == Some(Effect::Delete) {
                violate(Rule::NonDestructive);
            }
            for (mapped, scope) in &policy.scopes {
                if mapped == capability && !item.scopes.contains(scope) {
                    violate(Rule::Scope(scope.clone()));
                }
            }
        }
    }
    if out.is_empty() {
        Ok(())
    } else {
        Err(Violations(out))
    }
}

/// The capability a node's labels name, if it is a sink.
fn sink_capability(labels: &beam_mcp_connectome::Labels) -> Option<Capability> {
    let name = labels.get("capability")?.as_str()?;
    let effect = match labels.get("effect").and_then(|e| e.as_str()) {
        Some("read") => Some(Effect::Read),
        Some("write") => Some(Effect::Write),
        Some("delete") => Some(Effect::Delete),
        _ => None,
    };
    match effect {
        Some(effect) => Some(Capability::host(name, effect)),
        None => Capability::builtin(name),
    }
}

fn item_id(server: &str, item: &DeclaredItem) -> String {
    let identity = match item.kind {
        ItemKind::Tool => beam_mcp_connectome::Identity::Tool {
            server: server.to_owned(),
            name: item.key.clone(),
        },
        ItemKind::Resource => beam_mcp_connectome::Identity::Resource {
            server: server.to_owned(),
            uri: item.key.clone(),
        },
        ItemKind::Prompt => beam_mcp_connectome::Identity::Prompt {
            server: server.to_owned(),
            name: item.key.clone(),
        },
    };
    identity.id()
}

/// A node id in words: `tool save`, `policy::Store::put`, `std::fs::write`.
fn readable(id: &str) -> String {
    let parts: Vec<String> = id
        .split('/')
        .map(|p| p.replace("%2F", "/").replace("%25", "%"))
        .collect();
    match parts.as_slice() {
        [_, kind, key] if matches!(kind.as_str(), "tool" | "prompt" | "resource") => {
            format!("{kind} {key}")
        }
        [_, module, path, name, _arity] if module == "module" => format!("{path}::{name}"),
        [_, module, path] if module == "module" => path.clone(),
        [_, boundary, _, name] if boundary == "boundary" => name.clone(),
        _ => id.to_owned(),
    }
}
