//! Diff: the declared graph against the observed one, as a set difference over edge labels
//! `(from, to, kind)` after NFC (never an isomorphism test), sorted into four classes that
//! partition the union of labels, with ten coverage counts and a canonical record.
//!
//! The consumer divides the counts: declared-observed = `declared_and_observed /
//! declared_edges`; observed-declared = `declared_and_observed / observed_edges`;
//! completeness = `observed_endpoint_declared / observed_edges`; endpoint coverage =
//! `declared_endpoint_covered / declared_edges`.

mod error;
mod order;
mod record;
mod rows;
mod side;

use std::cmp::Ordering;

use serde_json::Value;

use crate::canonical::text::nfc;
use crate::canonical::{Canonical, CanonicalError, encode_value};
use crate::graph::Graph;
use crate::vocab::{Algorithm, EdgeKind, Sign};

pub use error::{DiffError, Side};

use rows::{Row, Table};
use side::Checked;

/// An edge label, after NFC: `(from, to, kind)`. (Not a node's [`Labels`](crate::Labels).)
///
/// ```
/// use beam_mcp_connectome::{EdgeKind, EdgeLabel};
///
/// let label = EdgeLabel::new("s/tool/e\u{301}", "s/tool/t", EdgeKind::Invoke);
/// assert_eq!(label.from, "s/tool/\u{e9}");
/// assert_eq!(label.kind.as_str(), "invoke");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct EdgeLabel {
    /// The caller's id, NFC.
    pub from: String,
    /// The callee's id, NFC.
    pub to: String,
    /// The edge's kind.
    pub kind: EdgeKind,
}

impl EdgeLabel {
    /// The label of an edge from `from` to `to` of `kind`, both ids NFC-normalised.
    pub fn new(from: &str, to: &str, kind: EdgeKind) -> EdgeLabel {
        EdgeLabel {
            from: nfc(from).into_owned(),
            to: nfc(to).into_owned(),
            kind,
        }
    }
}

/// A label both graphs hold, signed on both sides (neither `unset`) and differently.
///
/// ```
/// use beam_mcp_connectome::{EdgeKind, EdgeLabel, Sign, SignChange};
///
/// let label = EdgeLabel::new("a", "b", EdgeKind::Invoke);
/// let change = SignChange::new(label, Sign::Ungoverned, Sign::Deny);
/// assert_eq!((change.from.as_str(), change.to.as_str()), ("a", "b"));
/// assert_ne!(change.declared_sign, change.observed_sign);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct SignChange {
    /// The caller's id, NFC.
    pub from: String,
    /// The callee's id, NFC.
    pub to: String,
    /// The edge's kind.
    pub kind: EdgeKind,
    /// The sign on the declared edge.
    pub declared_sign: Sign,
    /// The sign on the observed edge.
    pub observed_sign: Sign,
}

impl SignChange {
    /// The change of `label`'s sign from `declared_sign` to `observed_sign`.
    pub fn new(label: EdgeLabel, declared_sign: Sign, observed_sign: Sign) -> SignChange {
        let EdgeLabel { from, to, kind } = label;
        SignChange {
            from,
            to,
            kind,
            declared_sign,
            observed_sign,
        }
    }

    /// The label whose sign changed.
    ///
    /// ```
    /// use beam_mcp_connectome::{EdgeKind, EdgeLabel, Sign, SignChange};
    ///
    /// let label = EdgeLabel::new("a", "b", EdgeKind::Read);
    /// assert_eq!(SignChange::new(label.clone(), Sign::Allow, Sign::Deny).label(), label);
    /// ```
    pub fn label(&self) -> EdgeLabel {
        EdgeLabel {
            from: self.from.clone(),
            to: self.to.clone(),
            kind: self.kind,
        }
    }
}

/// The four classes: every label of either graph is in exactly one. Each list is sorted by
/// `from`, `to`, `kind`, comparing UTF-16 code units (the record's order).
///
/// ```
/// use beam_mcp_connectome::Classes;
///
/// let none = Classes::default();
/// assert!(none.declared_and_observed.is_empty() && none.changed_sign.is_empty());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Classes {
    /// In both graphs, and not a sign change.
    pub declared_and_observed: Vec<EdgeLabel>,
    /// Declared and never observed: dead authority.
    pub declared_never_observed: Vec<EdgeLabel>,
    /// Observed and not declared: drift.
    pub observed_but_undeclared: Vec<EdgeLabel>,
    /// In both graphs, with both signs supplied and different.
    pub changed_sign: Vec<SignChange>,
}

/// The ten coverage counts, named as in the record.
///
/// ```
/// use beam_mcp_connectome::Coverage;
///
/// let mut coverage = Coverage::default();
/// (coverage.declared_edges, coverage.declared_and_observed) = (4, 3);
/// assert_eq!(coverage.declared_and_observed * 4, coverage.declared_edges * 3);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Coverage {
    /// Labels of the declared graph.
    pub declared_edges: u64,
    /// Labels of the observed graph.
    pub observed_edges: u64,
    /// Labels in both (sign changes included).
    pub declared_and_observed: u64,
    /// Declared labels with both ends among the observed graph's node ids.
    pub declared_endpoint_covered: u64,
    /// Observed labels with both ends among the declared graph's node ids.
    pub observed_endpoint_declared: u64,
    /// Nodes of the declared graph.
    pub declared_nodes: u64,
    /// Nodes of the observed graph.
    pub observed_nodes: u64,
    /// Node ids (after NFC) in both graphs.
    pub nodes_in_both: u64,
    /// Labels in both, signed on the declared side and `unset` on the observed side.
    pub declared_sign_only: u64,
    /// Labels in both, signed on the observed side and `unset` on the declared side.
    pub observed_sign_only: u64,
}

/// A diff of a declared graph against an observed one, over a window.
///
/// ```
/// use beam_mcp_connectome::{diff, Algorithm, Graph, Identity, Node};
///
/// let server = Node::new(Identity::Server { server: "s".into() }, Default::default())?;
/// let graph = Graph::new(vec![server], vec![])?;
/// let window = serde_json::json!({"started_at": "2026-09-14T00:00:00Z"});
/// let diff = diff(&graph, &graph, &window)?;
/// assert_eq!(diff.coverage().nodes_in_both, 1);
/// assert_eq!(diff.window(), &window);
/// let bytes = diff.to_canonical_bytes(Algorithm::Sha256)?;
/// assert!(bytes.starts_with(br#"{"algorithm":"sha256","classes":{"changed_sign":[]"#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diff {
    classes: Classes,
    coverage: Coverage,
    window: Value,
}

impl Diff {
    /// The four classes.
    ///
    /// ```
    /// use beam_mcp_connectome::{diff, Graph};
    ///
    /// let empty = Graph::new(vec![], vec![])?;
    /// let diff = diff(&empty, &empty, &serde_json::json!({}))?;
    /// assert!(diff.classes().observed_but_undeclared.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn classes(&self) -> &Classes {
        &self.classes
    }

    /// The ten coverage counts.
    ///
    /// ```
    /// use beam_mcp_connectome::{diff, Coverage, Graph};
    ///
    /// let empty = Graph::new(vec![], vec![])?;
    /// let diff = diff(&empty, &empty, &serde_json::json!({}))?;
    /// assert_eq!(diff.coverage(), &Coverage::default());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn coverage(&self) -> &Coverage {
        &self.coverage
    }

    /// The window, as given.
    ///
    /// ```
    /// use beam_mcp_connectome::{diff, Graph};
    ///
    /// let empty = Graph::new(vec![], vec![])?;
    /// let window = serde_json::json!({"ended_at": "2026-09-14T01:00:00Z"});
    /// assert_eq!(diff(&empty, &empty, &window)?.window(), &window);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn window(&self) -> &Value {
        &self.window
    }

    /// The record as a JSON value: `{algorithm, classes, coverage, schema_version: 3,
    /// window}`, class arrays in label order. Its canonical bytes are
    /// [`to_canonical_bytes`](Diff::to_canonical_bytes).
    ///
    /// ```
    /// use beam_mcp_connectome::{diff, Algorithm, Graph};
    ///
    /// let empty = Graph::new(vec![], vec![])?;
    /// let record = diff(&empty, &empty, &serde_json::json!({}))?.to_value(Algorithm::Sha384);
    /// assert_eq!(record["algorithm"], "sha384");
    /// assert_eq!(record["schema_version"], 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_value(&self, algorithm: Algorithm) -> Value {
        record::record(self, algorithm)
    }

    /// The record's bytes: the labels-object rules ([`encode_value`]) over
    /// [`to_value`](Diff::to_value). The window was checked when the diff was made, so this
    /// fails only if that check and the encoder disagree.
    ///
    /// ```
    /// use beam_mcp_connectome::{diff, Algorithm, Graph};
    ///
    /// let empty = Graph::new(vec![], vec![])?;
    /// let bytes = diff(&empty, &empty, &serde_json::json!({}))?.to_canonical_bytes(Algorithm::Sha256)?;
    /// assert!(bytes.ends_with(br#""schema_version":3,"window":{}}"#));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_canonical_bytes(&self, algorithm: Algorithm) -> Result<Vec<u8>, CanonicalError> {
        encode_value(&self.to_value(algorithm))
    }

    /// The record's bytes with their digest under `algorithm` (the algorithm the record
    /// names).
    ///
    /// ```
    /// use beam_mcp_connectome::{diff, Algorithm, Graph};
    ///
    /// let empty = Graph::new(vec![], vec![])?;
    /// let record = diff(&empty, &empty, &serde_json::json!({}))?.canonical(Algorithm::Sha512)?;
    /// assert_eq!(record.digest_hex().len(), 128);
    /// assert!(record.bytes().starts_with(br#"{"algorithm":"sha512""#));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn canonical(&self, algorithm: Algorithm) -> Result<Canonical, CanonicalError> {
        Canonical::of_value(&self.to_value(algorithm), algorithm)
    }
}

/// Diffs `declared` against `observed` over `window`.
///
/// Refusals, in this order: the declared graph, checked completely first (two of its node
/// ids that are one after NFC, then an edge that is not `declared`); then the observed graph
/// the same way (ids, then an edge that is not `observed`); then a `null` window (missing: it
/// is required); a window that is not an object; a window without canonical bytes (a float,
/// keys that collide after NFC). Each graph error names its [`Side`].
///
/// A label is in `changed_sign` only when both signs are supplied (neither `unset`) and
/// differ; `unset` against anything is no change, and the label stays in
/// `declared_and_observed`.
///
/// ```
/// use beam_mcp_connectome::{diff, DiffError, Edge, EdgeKind, Graph, Identity, Node, Provenance, Side, Sign};
///
/// let nodes = || -> Result<Vec<Node>, beam_mcp_connectome::GraphError> {
///     Ok(vec![
///         Node::new(Identity::Server { server: "s".into() }, Default::default())?,
///         Node::new(Identity::Tool { server: "s".into(), name: "t".into() }, Default::default())?,
///     ])
/// };
/// let mut seen = Edge::new("s/server", "s/tool/t", EdgeKind::Invoke, Provenance::Observed);
/// seen.sign = Sign::Deny; // a consumer's verdict
/// let declared = Graph::new(nodes()?, vec![])?;
/// let observed = Graph::new(nodes()?, vec![seen])?;
/// let window = serde_json::json!({"started_at": "2026-09-14T00:00:00Z"});
///
/// let diff = diff(&declared, &observed, &window)?;
/// assert_eq!(diff.classes().observed_but_undeclared.len(), 1);
/// assert_eq!(diff.coverage().observed_endpoint_declared, 1);
///
/// let refused = beam_mcp_connectome::diff(&observed, &declared, &window);
/// assert!(matches!(refused, Err(DiffError::WrongProvenance { side: Side::Declared, .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn diff(declared: &Graph, observed: &Graph, window: &Value) -> Result<Diff, DiffError> {
    let declared_side = Checked::new(declared, Side::Declared)?;
    let observed_side = Checked::new(observed, Side::Observed)?;
    check_window(window)?;

    let table = Table::new(&declared_side, &observed_side);
    let (ours, theirs) = (&table.declared, &table.observed);
    let label = |row: &Row| EdgeLabel {
        from: table.name(row.from).to_owned(),
        to: table.name(row.to).to_owned(),
        kind: row.kind,
    };
    let mut classes = Classes::default();
    let mut coverage = Coverage {
        declared_edges: count(ours.rows.len()),
        observed_edges: count(theirs.rows.len()),
        declared_endpoint_covered: count(
            ours.rows
                .iter()
                .filter(|row| theirs.holds_ends(row))
                .count(),
        ),
        observed_endpoint_declared: count(
            theirs
                .rows
                .iter()
                .filter(|row| ours.holds_ends(row))
                .count(),
        ),
        declared_nodes: count(declared.nodes().len()),
        observed_nodes: count(observed.nodes().len()),
        nodes_in_both: count(
            ours.holds
                .iter()
                .zip(&theirs.holds)
                .filter(|(a, b)| **a && **b)
                .count(),
        ),
        ..Coverage::default()
    };

    // Both row lists are sorted in record order, so one merge walk fills every class in order.
    let (mut d, mut o) = (ours.rows.iter().peekable(), theirs.rows.iter().peekable());
    loop {
        let order = match (d.peek(), o.peek()) {
            (None, None) => break,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some(a), Some(b)) => a.key().cmp(&b.key()),
        };
        match order {
            Ordering::Less => classes.declared_never_observed.extend(d.next().map(label)),
            Ordering::Greater => classes.observed_but_undeclared.extend(o.next().map(label)),
            Ordering::Equal => {
                let (Some(a), Some(b)) = (d.next(), o.next()) else {
                    break;
                };
                coverage.declared_and_observed += 1;
                match (a.sign, b.sign) {
                    (Sign::Unset, Sign::Unset) => {}
                    (_, Sign::Unset) => coverage.declared_sign_only += 1,
                    (Sign::Unset, _) => coverage.observed_sign_only += 1,
                    (declared_sign, observed_sign) if declared_sign != observed_sign => {
                        classes.changed_sign.push(SignChange::new(
                            label(a),
                            declared_sign,
                            observed_sign,
                        ));
                        continue;
                    }
                    _ => {}
                }
                classes.declared_and_observed.push(label(a));
            }
        }
    }
    Ok(Diff {
        classes,
        coverage,
        window: window.clone(),
    })
}

/// The window is required, an object, and must have canonical bytes.
fn check_window(window: &Value) -> Result<(), DiffError> {
    let found = match window {
        Value::Null => return Err(DiffError::MissingWindow),
        Value::Object(_) => {
            // The record holds the window one level down; a reader takes READ_DEPTH levels.
            let max = crate::canonical::value::READ_DEPTH - 1;
            let depth = crate::graph::depth(window);
            if depth > max {
                return Err(DiffError::WindowTooDeep { depth, max });
            }
            return encode_value(window)
                .map(drop)
                .map_err(|source| DiffError::Window { source });
        }
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
    };
    Err(DiffError::WindowNotObject { found })
}

/// Counts are `u64` on the wire; a `usize` always fits.
fn count(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}
