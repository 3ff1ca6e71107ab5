//! The options of the reach queries, one struct per family, so an option a query cannot use
//! cannot be passed to it: `max_hops` exists only on [`PathOptions`], `entries` only on
//! [`DominatorOptions`].

use std::collections::BTreeSet;

use crate::vocab::EdgeKind;

use super::error::ReachError;

/// The default cap on the edges of a graph a query accepts.
///
/// ```
/// use beam_mcp_connectome::{DEFAULT_MAX_EDGES, PathOptions};
///
/// assert_eq!(DEFAULT_MAX_EDGES, 1_000_000);
/// assert_eq!(PathOptions::new().edge_cap(), DEFAULT_MAX_EDGES);
/// ```
pub const DEFAULT_MAX_EDGES: usize = 1_000_000;

/// Which edge kinds a query walks: all of them unless narrowed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Kinds(Option<BTreeSet<EdgeKind>>);

impl Kinds {
    fn narrow(kinds: impl IntoIterator<Item = EdgeKind>) -> Kinds {
        Kinds(Some(kinds.into_iter().collect()))
    }

    /// Whether an edge of this kind is walked.
    pub(crate) fn admits(&self, kind: EdgeKind) -> bool {
        self.0.as_ref().is_none_or(|kinds| kinds.contains(&kind))
    }

    /// An empty list walks nothing, which is never what a caller meant: refused.
    fn check(&self) -> Result<(), ReachError> {
        match &self.0 {
            Some(kinds) if kinds.is_empty() => Err(ReachError::EmptyOption { option: "kinds" }),
            _ => Ok(()),
        }
    }
}

/// Options of [`reachable`](crate::reachable) and [`reachable_without`](crate::reachable_without):
/// `kinds`, `max_hops`, `max_edges`. There is no `entries` here: these queries start at the
/// node they are given.
///
/// ```
/// use beam_mcp_connectome::{EdgeKind, PathOptions};
///
/// let options = PathOptions::new().kinds([EdgeKind::Invoke]).max_hops(3).max_edges(10_000);
/// assert_eq!(options.hop_limit(), Some(3));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathOptions {
    pub(crate) kinds: Kinds,
    pub(crate) max_hops: Option<usize>,
    pub(crate) max_edges: usize,
}

impl Default for PathOptions {
    fn default() -> Self {
        PathOptions {
            kinds: Kinds::default(),
            max_hops: None,
            max_edges: DEFAULT_MAX_EDGES,
        }
    }
}

impl PathOptions {
    /// Every kind, no hop limit, at most [`DEFAULT_MAX_EDGES`] edges.
    ///
    /// ```
    /// use beam_mcp_connectome::{PathOptions, DEFAULT_MAX_EDGES};
    ///
    /// assert_eq!(PathOptions::new().edge_cap(), DEFAULT_MAX_EDGES);
    /// ```
    pub fn new() -> PathOptions {
        PathOptions::default()
    }

    /// Walk only edges of these kinds (an empty list is refused when the query runs).
    ///
    /// ```
    /// use beam_mcp_connectome::{EdgeKind, PathOptions};
    ///
    /// let options = PathOptions::new().kinds([EdgeKind::Invoke, EdgeKind::Message]);
    /// # let _ = options;
    /// ```
    pub fn kinds(mut self, kinds: impl IntoIterator<Item = EdgeKind>) -> PathOptions {
        self.kinds = Kinds::narrow(kinds);
        self
    }

    /// Take at most this many edges (a node reaches itself in zero).
    ///
    /// ```
    /// use beam_mcp_connectome::PathOptions;
    ///
    /// assert_eq!(PathOptions::new().max_hops(0).hop_limit(), Some(0));
    /// ```
    pub fn max_hops(mut self, hops: usize) -> PathOptions {
        self.max_hops = Some(hops);
        self
    }

    /// Refuse a graph of more than this many edges.
    ///
    /// ```
    /// use beam_mcp_connectome::PathOptions;
    ///
    /// assert_eq!(PathOptions::new().max_edges(5).edge_cap(), 5);
    /// ```
    pub fn max_edges(mut self, edges: usize) -> PathOptions {
        self.max_edges = edges;
        self
    }

    /// The hop limit, if any.
    ///
    /// ```
    /// use beam_mcp_connectome::PathOptions;
    ///
    /// assert_eq!(PathOptions::new().hop_limit(), None);
    /// ```
    pub fn hop_limit(&self) -> Option<usize> {
        self.max_hops
    }

    /// The edge cap.
    ///
    /// ```
    /// use beam_mcp_connectome::PathOptions;
    ///
    /// assert_eq!(PathOptions::new().max_edges(7).edge_cap(), 7);
    /// ```
    pub fn edge_cap(&self) -> usize {
        self.max_edges
    }

    pub(crate) fn check(&self) -> Result<(), ReachError> {
        self.kinds.check()
    }
}

/// Options of [`dominates`](crate::dominates) and [`mandatory_pass`](crate::mandatory_pass):
/// `kinds`, `entries`, `max_edges`. There is no `max_hops` here: a hop limit has no meaning
/// for dominance.
///
/// Without `entries`, every `server` node of the graph is an entry; entries are joined under
/// one virtual root, which no answer ever names.
///
/// ```
/// use beam_mcp_connectome::DominatorOptions;
///
/// let options = DominatorOptions::new().entries(["srv/server"]);
/// assert_eq!(options.entry_ids(), Some(&["srv/server".to_owned()][..]));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DominatorOptions {
    pub(crate) kinds: Kinds,
    pub(crate) entries: Option<Vec<String>>,
    pub(crate) max_edges: usize,
}

impl Default for DominatorOptions {
    fn default() -> Self {
        DominatorOptions {
            kinds: Kinds::default(),
            entries: None,
            max_edges: DEFAULT_MAX_EDGES,
        }
    }
}

impl DominatorOptions {
    /// Every kind, the server nodes as entries, at most [`DEFAULT_MAX_EDGES`] edges.
    ///
    /// ```
    /// use beam_mcp_connectome::DominatorOptions;
    ///
    /// assert_eq!(DominatorOptions::new().entry_ids(), None);
    /// ```
    pub fn new() -> DominatorOptions {
        DominatorOptions::default()
    }

    /// Walk only edges of these kinds (an empty list is refused when the query runs).
    ///
    /// ```
    /// use beam_mcp_connectome::{DominatorOptions, EdgeKind};
    ///
    /// let options = DominatorOptions::new().kinds([EdgeKind::Supervise]);
    /// # let _ = options;
    /// ```
    pub fn kinds(mut self, kinds: impl IntoIterator<Item = EdgeKind>) -> DominatorOptions {
        self.kinds = Kinds::narrow(kinds);
        self
    }

    /// Enter the graph at these node ids instead of its server nodes (an empty list is
    /// refused when the query runs).
    ///
    /// ```
    /// use beam_mcp_connectome::DominatorOptions;
    ///
    /// let options = DominatorOptions::new().entries(["srv/tool/a", "srv/tool/b"]);
    /// assert_eq!(options.entry_ids().map(<[String]>::len), Some(2));
    /// ```
    pub fn entries<S: Into<String>>(
        mut self,
        entries: impl IntoIterator<Item = S>,
    ) -> DominatorOptions {
        self.entries = Some(entries.into_iter().map(Into::into).collect());
        self
    }

    /// Refuse a graph of more than this many edges.
    ///
    /// ```
    /// use beam_mcp_connectome::DominatorOptions;
    ///
    /// assert_eq!(DominatorOptions::new().max_edges(5).edge_cap(), 5);
    /// ```
    pub fn max_edges(mut self, edges: usize) -> DominatorOptions {
        self.max_edges = edges;
        self
    }

    /// The entries given, if any.
    ///
    /// ```
    /// use beam_mcp_connectome::DominatorOptions;
    ///
    /// assert!(DominatorOptions::new().entries(Vec::<String>::new()).entry_ids().is_some());
    /// ```
    pub fn entry_ids(&self) -> Option<&[String]> {
        self.entries.as_deref()
    }

    /// The edge cap.
    ///
    /// ```
    /// use beam_mcp_connectome::{DominatorOptions, DEFAULT_MAX_EDGES};
    ///
    /// assert_eq!(DominatorOptions::new().edge_cap(), DEFAULT_MAX_EDGES);
    /// ```
    pub fn edge_cap(&self) -> usize {
        self.max_edges
    }

    pub(crate) fn check(&self) -> Result<(), ReachError> {
        self.kinds.check()?;
        match &self.entries {
            Some(entries) if entries.is_empty() => {
                Err(ReachError::EmptyOption { option: "entries" })
            }
            _ => Ok(()),
        }
    }
}
