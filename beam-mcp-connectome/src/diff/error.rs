//! Why a diff was refused.

use std::fmt;

use crate::canonical::CanonicalError;
use crate::vocab::{EdgeKind, Provenance};

/// Which graph of a diff an error is about.
///
/// ```
/// use beam_mcp_connectome::Side;
///
/// assert_eq!(Side::Observed.to_string(), "observed");
/// assert_eq!(Side::Declared.provenance().as_str(), "declared");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// The declared graph (the first argument).
    Declared,
    /// The observed graph (the second argument).
    Observed,
}

impl Side {
    /// The provenance every edge of this side's graph must have.
    ///
    /// ```
    /// use beam_mcp_connectome::{Provenance, Side};
    ///
    /// assert_eq!(Side::Observed.provenance(), Provenance::Observed);
    /// ```
    pub fn provenance(self) -> Provenance {
        match self {
            Side::Declared => Provenance::Declared,
            Side::Observed => Provenance::Observed,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.provenance().as_str())
    }
}

/// Why a diff was refused, in the order the checks run: the declared graph, the observed
/// graph, the window. Each names the culprit.
///
/// ```
/// use beam_mcp_connectome::{diff, DiffError, Graph};
///
/// let empty = Graph::new(vec![], vec![])?;
/// assert_eq!(diff(&empty, &empty, &serde_json::Value::Null), Err(DiffError::MissingWindow));
/// # Ok::<(), beam_mcp_connectome::GraphError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DiffError {
    /// An edge of one side's graph has the other side's provenance.
    #[error(
        "{side} graph: edge {from:?} -> {to:?} ({kind}) has provenance {found}; every edge of the {side} graph must be {side}"
    )]
    WrongProvenance {
        /// The graph holding the edge.
        side: Side,
        /// The edge's caller id, as written.
        from: String,
        /// The edge's callee id, as written.
        to: String,
        /// The edge's kind.
        kind: EdgeKind,
        /// The provenance it has.
        found: Provenance,
    },
    /// One side's graph has no canonical bytes (two node ids are one id after NFC).
    #[error("{side} graph: {source}")]
    Uncanonical {
        /// The graph at fault.
        side: Side,
        /// Why it has no canonical bytes.
        source: CanonicalError,
    },
    /// No window was given (`null`): a diff always says over which window it was observed.
    #[error("a window is required: pass the object saying when the observed graph was seen")]
    MissingWindow,
    /// The window is not a JSON object.
    #[error("the window must be a JSON object, not {found}")]
    WindowNotObject {
        /// What it is instead (`a string`, `an array`, …).
        found: &'static str,
    },
    /// The window has no canonical bytes (a float, keys that collide after NFC, …).
    #[error("the window has no canonical bytes: {source}")]
    Window {
        /// Why.
        source: CanonicalError,
    },
    /// The window nests deeper than the record can hold and still be read back (the record
    /// itself is one level above it).
    #[error(
        "the window nests {depth} levels of arrays and objects; at most {max}, so the record reads back"
    )]
    WindowTooDeep {
        /// How deeply it nests.
        depth: usize,
        /// The most it may.
        max: usize,
    },
}
