//! The declared connectome a scan answers: the graph, what it cannot show, the catalog, the
//! files read, and the questions a host's test asks of them (keys, canonical bytes, reach and
//! the policy checks).

use std::collections::BTreeSet;
use std::path::PathBuf;

use beam_mcp_connectome::{Algorithm, Graph};
use beam_mcp_rules::attributes::ItemKind;

use crate::bound::Bound;
use crate::error::ScanError;
use crate::items::DeclaredItem;
use crate::policy::{self, ItemReach, Policy, Violations};

/// The declared connectome: the graph, what it cannot show, the catalog and the files read.
///
/// ```
/// use beam_mcp_build::{ItemKind, connectome};
///
/// let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tree");
/// let declared = connectome("srv").manifest_dir(&dir).crate_name("tree").scan()?;
/// assert!(declared.graph.node("srv/tool/root_tool").is_some());
/// assert!(declared.bound.sources.contains("src/lib.rs"));
/// # Ok::<(), beam_mcp_build::ScanError>(())
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Declared {
    /// The graph: provenance `declared`, signs `unset`.
    pub graph: Graph,
    /// What the graph cannot show, by name.
    pub bound: Bound,
    /// The catalog items, in module-tree order.
    pub items: Vec<DeclaredItem>,
    /// Every file read, absolute.
    pub sources: Vec<PathBuf>,
    /// The server's name, which the items' node ids start with.
    pub(crate) server: String,
}

impl Declared {
    /// The keys of the items of one kind: tool names, resource URIs and templates as
    /// written, prompt names.
    ///
    /// ```
    /// # let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tree");
    /// # let declared = beam_mcp_build::connectome("srv").manifest_dir(&dir).crate_name("tree").scan()?;
    /// assert!(declared.keys(beam_mcp_build::ItemKind::Prompt).is_empty());
    /// # Ok::<(), beam_mcp_build::ScanError>(())
    /// ```
    pub fn keys(&self, kind: ItemKind) -> BTreeSet<&str> {
        self.items
            .iter()
            .filter(|i| i.kind == kind)
            .map(|i| i.key.as_str())
            .collect()
    }

    /// What each catalog item can reach through the graph: every capability of a sink on a
    /// path from it, with the shortest such path. In catalog order.
    ///
    /// ```
    /// use beam_mcp_build::{Capability, connectome};
    /// let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/policy");
    /// let declared = connectome("srv").manifest_dir(&dir).crate_name("policy").level(beam_mcp_build::Level::Mfa).scan()?;
    /// let save = declared.reach().into_iter().find(|r| r.key == "save").unwrap();
    /// assert!(save.capabilities.contains_key(&Capability::FsWrite));
    /// # Ok::<(), beam_mcp_build::ScanError>(())
    /// ```
    pub fn reach(&self) -> Vec<ItemReach> {
        policy::reach(&self.graph, &self.items, &self.server)
    }

    /// Checks the items against `policy` (the annotation rules, and the scopes the host
    /// maps): every violation, each naming the item, the rule, the capability and the path.
    /// A host's test asserts it in one line:
    ///
    /// ```
    /// use beam_mcp_build::{Policy, connectome};
    /// let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/policy");
    /// let declared = connectome("srv").manifest_dir(&dir).crate_name("policy").level(beam_mcp_build::Level::Mfa).scan()?;
    /// // In a host's test: `declared.check(&Policy::new()).unwrap();` (the error says why).
    /// let refused = declared.check(&Policy::new()).unwrap_err();
    /// assert_eq!(refused.0.len(), 1);
    /// # Ok::<(), beam_mcp_build::ScanError>(())
    /// ```
    pub fn check(&self, policy: &Policy) -> Result<(), Violations> {
        policy::check(policy, &self.items, &self.reach())
    }

    /// The graph's canonical bytes, naming `algorithm`.
    ///
    /// ```
    /// # let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tree");
    /// # let declared = beam_mcp_build::connectome("srv").manifest_dir(&dir).crate_name("tree").scan()?;
    /// let bytes = declared.canonical(beam_mcp_build::Algorithm::Sha256)?;
    /// assert!(bytes.starts_with(br#"{"schema_version":3,"algorithm":"sha256""#));
    /// # Ok::<(), beam_mcp_build::ScanError>(())
    /// ```
    pub fn canonical(&self, algorithm: Algorithm) -> Result<Vec<u8>, ScanError> {
        Ok(beam_mcp_connectome::canonical::encode(
            &self.graph,
            algorithm,
        )?)
    }
}
