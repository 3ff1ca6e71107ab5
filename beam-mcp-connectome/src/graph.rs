//! Nodes, edges and the graph: constructors that refuse a malformed graph by name.

use std::collections::{BTreeMap, HashSet};

use serde_json::Value;

use crate::canonical::MAX_LABEL_DEPTH;
use crate::id::Identity;
use crate::vocab::{EdgeKind, Level, NodeKind, Provenance, Sign};

/// A node's labels: names to JSON values without floats (integers, strings, booleans, null,
/// arrays and objects of those).
pub type Labels = BTreeMap<String, Value>;

/// A node: its id, kind, level and labels.
///
/// ```
/// use beam_mcp_connectome::{Identity, Level, Node, NodeKind};
///
/// let node = Node::new(Identity::Server { server: "srv".into() }, Default::default())?;
/// assert_eq!(node.id(), "srv/server");
/// assert_eq!((node.kind(), node.level()), (NodeKind::Server, Level::Server));
/// # Ok::<(), beam_mcp_connectome::GraphError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    id: String,
    kind: NodeKind,
    level: Level,
    labels: Labels,
}

impl Node {
    /// The node an identity makes, at the identity's level; labels with a float are refused.
    pub fn new(identity: Identity, labels: Labels) -> Result<Node, GraphError> {
        Node::from_parts(identity.id(), identity.kind(), identity.level(), labels)
    }

    /// A node from its parts, as read from a file: the id is taken as written (ids are never
    /// parsed back); a `module` node must sit at a code level (`mfa`, `module`, `boundary`)
    /// while every other kind sits at `server`; a label whose value nests more than
    /// [`MAX_LABEL_DEPTH`](crate::canonical::MAX_LABEL_DEPTH) arrays and objects is refused
    /// ([`GraphError::LabelTooDeep`]: deeper, the envelope holding it would be more than a
    /// reader takes, so what [`encode`](crate::canonical::encode) writes would not
    /// [`parse`](crate::canonical::parse) back), and then a label holding a float
    /// ([`GraphError::FloatLabel`]).
    ///
    /// ```
    /// use beam_mcp_connectome::{GraphError, Level, Node, NodeKind, canonical::MAX_LABEL_DEPTH};
    ///
    /// let nest = |depth: usize| (0..depth).fold(serde_json::json!(0), |v, _| serde_json::json!([v]));
    /// let labels = |depth| [("deep".to_owned(), nest(depth))].into();
    /// let node = |depth| Node::from_parts("s/tool/t".into(), NodeKind::Tool, Level::Server, labels(depth));
    /// assert!(node(MAX_LABEL_DEPTH).is_ok());
    /// assert_eq!(
    ///     node(MAX_LABEL_DEPTH + 1),
    ///     Err(GraphError::LabelTooDeep {
    ///         node: "s/tool/t".into(),
    ///         label: "deep".into(),
    ///         depth: MAX_LABEL_DEPTH + 1,
    ///         max: MAX_LABEL_DEPTH,
    ///     })
    /// );
    /// ```
    pub fn from_parts(
        id: String,
        kind: NodeKind,
        level: Level,
        labels: Labels,
    ) -> Result<Node, GraphError> {
        let fits = match kind {
            NodeKind::Module => level != Level::Server,
            _ => level == Level::Server,
        };
        if !fits {
            return Err(GraphError::LevelMismatch { id, kind, level });
        }
        for (label, value) in &labels {
            let depth = depth(value);
            if depth > MAX_LABEL_DEPTH {
                return Err(GraphError::LabelTooDeep {
                    node: id,
                    label: label.clone(),
                    depth,
                    max: MAX_LABEL_DEPTH,
                });
            }
            // Bounded recursion: the depth is checked first.
            check_label_value(&id, label, value, value)?;
        }
        Ok(Node {
            id,
            kind,
            level,
            labels,
        })
    }

    /// The node's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// What the node stands for.
    pub fn kind(&self) -> NodeKind {
        self.kind
    }

    /// How coarse it is.
    pub fn level(&self) -> Level {
        self.level
    }

    /// Its labels.
    pub fn labels(&self) -> &Labels {
        &self.labels
    }
}

/// How many arrays and objects nest in `value` along its deepest path (a scalar: 0, `[]`: 1),
/// found without recursion, so a value built in code nested arbitrarily deep is measured
/// without exhausting the stack.
pub(crate) fn depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut pending = vec![(value, 0)];
    while let Some((value, above)) = pending.pop() {
        let here = above + 1;
        match value {
            Value::Array(items) => pending.extend(items.iter().map(|item| (item, here))),
            Value::Object(members) => pending.extend(members.values().map(|member| (member, here))),
            _ => continue,
        }
        deepest = deepest.max(here);
    }
    deepest
}

fn check_label_value(
    node: &str,
    label: &str,
    whole: &Value,
    value: &Value,
) -> Result<(), GraphError> {
    match value {
        Value::Number(n) if n.is_f64() => Err(GraphError::FloatLabel {
            node: node.to_owned(),
            label: label.to_owned(),
            value: whole.to_string(),
        }),
        Value::Array(items) => items
            .iter()
            .try_for_each(|v| check_label_value(node, label, whole, v)),
        Value::Object(members) => members
            .values()
            .try_for_each(|v| check_label_value(node, label, whole, v)),
        _ => Ok(()),
    }
}

/// An edge between two node ids. Its identity is `(from, to, kind, provenance)`; the weight
/// (a count) and the sign are not part of it.
///
/// A new edge is always [`Sign::Unset`]: this library never computes a sign. A consumer that
/// gives verdicts writes the `sign` field and rebuilds the graph with [`Graph::new`].
///
/// ```
/// use beam_mcp_connectome::{Edge, EdgeKind, Provenance, Sign};
///
/// let mut edge = Edge::new("srv/server", "srv/tool/t", EdgeKind::Invoke, Provenance::Declared);
/// assert_eq!(edge.sign, Sign::Unset);
/// edge.sign = Sign::Allow; // the consumer's verdict, not the library's
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Edge {
    /// The caller's node id.
    pub from: String,
    /// The callee's node id.
    pub to: String,
    /// What the edge means.
    pub kind: EdgeKind,
    /// Where it comes from.
    pub provenance: Provenance,
    /// How often it was seen (observed edges); never hashed.
    pub weight: Option<u64>,
    /// The consumer's verdict; `Unset` unless a consumer wrote one.
    pub sign: Sign,
}

impl Edge {
    /// An unweighted, unsigned edge.
    pub fn new(
        from: impl Into<String>,
        to: impl Into<String>,
        kind: EdgeKind,
        provenance: Provenance,
    ) -> Edge {
        Edge {
            from: from.into(),
            to: to.into(),
            kind,
            provenance,
            weight: None,
            sign: Sign::Unset,
        }
    }

    /// The same edge with a weight.
    pub fn with_weight(mut self, weight: u64) -> Edge {
        self.weight = Some(weight);
        self
    }

    /// The edge's identity: `(from, to, kind, provenance)`.
    pub fn key(&self) -> (&str, &str, EdgeKind, Provenance) {
        (&self.from, &self.to, self.kind, self.provenance)
    }
}

/// A checked graph (envelope version 3): every node id once, every edge key once, every edge
/// between nodes of the graph. Nodes and edges keep the order they were given in; canonical
/// bytes sort them.
///
/// ```
/// use beam_mcp_connectome::{Edge, EdgeKind, Graph, GraphError, Identity, Node, Provenance};
///
/// let server = Node::new(Identity::Server { server: "s".into() }, Default::default())?;
/// let tool = Node::new(Identity::Tool { server: "s".into(), name: "t".into() }, Default::default())?;
/// let call = Edge::new("s/server", "s/tool/t", EdgeKind::Invoke, Provenance::Declared);
/// let graph = Graph::new(vec![server, tool], vec![call.clone()])?;
/// assert_eq!(graph.edges().len(), 1);
///
/// let dangling = Edge::new("s/server", "s/tool/missing", EdgeKind::Invoke, Provenance::Declared);
/// let refused = Graph::new(graph.nodes().to_vec(), vec![dangling]);
/// assert!(matches!(refused, Err(GraphError::DanglingEdge { .. })));
/// # Ok::<(), GraphError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graph {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
}

impl Graph {
    /// The graph of these nodes and edges, or the first defect by name: a repeated node id, a
    /// repeated edge key, an edge whose end is not a node.
    pub fn new(nodes: Vec<Node>, edges: Vec<Edge>) -> Result<Graph, GraphError> {
        let mut ids = HashSet::with_capacity(nodes.len());
        for node in &nodes {
            if !ids.insert(node.id.as_str()) {
                return Err(GraphError::DuplicateNode {
                    id: node.id.clone(),
                });
            }
        }
        let mut keys = HashSet::with_capacity(edges.len());
        for edge in &edges {
            for end in [&edge.from, &edge.to] {
                if !ids.contains(end.as_str()) {
                    return Err(GraphError::DanglingEdge {
                        from: edge.from.clone(),
                        to: edge.to.clone(),
                        kind: edge.kind,
                        missing: end.clone(),
                    });
                }
            }
            if !keys.insert(edge.key()) {
                return Err(GraphError::DuplicateEdge {
                    from: edge.from.clone(),
                    to: edge.to.clone(),
                    kind: edge.kind,
                    provenance: edge.provenance,
                });
            }
        }
        Ok(Graph { nodes, edges })
    }

    /// The envelope version of the graph: always [`SCHEMA_VERSION`](crate::SCHEMA_VERSION).
    pub fn schema_version(&self) -> u64 {
        crate::vocab::SCHEMA_VERSION
    }

    /// Its nodes, in the order given.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// Its edges, in the order given.
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }

    /// The node with this id.
    pub fn node(&self, id: &str) -> Option<&Node> {
        self.nodes.iter().find(|n| n.id == id)
    }

    /// Its nodes and edges, to change and rebuild with [`Graph::new`].
    pub fn into_parts(self) -> (Vec<Node>, Vec<Edge>) {
        (self.nodes, self.edges)
    }
}

/// Why a graph, or a file holding one, was refused. Each names the culprit; a refusal of the
/// file's structure (`UnknownKey`, `MissingKey`, `BadWord`, `WrongType`) also says where in
/// the file, as a JSON Pointer (RFC 6901).
///
/// ```
/// use beam_mcp_connectome::{CanonicalError, GraphError, canonical::parse};
///
/// let bytes = br#"{"schema_version":3,"algorithm":"sha256","nodes":[{"id":"s/server","kind":"server","labels":{},"level":"app"}],"edges":[]}"#;
/// let Err(CanonicalError::Graph(refused)) = parse(bytes) else { panic!("refused") };
/// assert_eq!(
///     refused,
///     GraphError::BadWord { what: "level", word: "app".into(), path: "/nodes/0/level".into() }
/// );
/// assert_eq!(refused.to_string(), r#"at "/nodes/0/level": level "app" is not one of its vocabulary"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GraphError {
    /// Two nodes have one id.
    #[error("node id {id:?} appears twice")]
    DuplicateNode {
        /// The id.
        id: String,
    },
    /// Two edges have one key.
    #[error("edge {from:?} -> {to:?} ({kind}, {provenance}) appears twice")]
    DuplicateEdge {
        /// The caller's id.
        from: String,
        /// The callee's id.
        to: String,
        /// The edge's kind.
        kind: EdgeKind,
        /// The edge's provenance.
        provenance: Provenance,
    },
    /// An edge names a node the graph does not hold.
    #[error("edge {from:?} -> {to:?} ({kind}) names {missing:?}, which is not a node of the graph")]
    DanglingEdge {
        /// The caller's id.
        from: String,
        /// The callee's id.
        to: String,
        /// The edge's kind.
        kind: EdgeKind,
        /// The end that is not a node.
        missing: String,
    },
    /// A node's level does not fit its kind.
    #[error(
        "node {id:?} is of kind {kind} but at level {level}: code sits at mfa, module or boundary, everything else at server"
    )]
    LevelMismatch {
        /// The node's id.
        id: String,
        /// Its kind.
        kind: NodeKind,
        /// Its level.
        level: Level,
    },
    /// A label holds a float, which has no canonical bytes.
    #[error(
        "label {label:?} of node {node:?} holds a float ({value}); labels hold integers, strings, booleans, null, arrays and objects"
    )]
    FloatLabel {
        /// The node's id.
        node: String,
        /// The label's name.
        label: String,
        /// The label's whole value, as JSON.
        value: String,
    },
    /// A label's value nests deeper than
    /// [`MAX_LABEL_DEPTH`](crate::canonical::MAX_LABEL_DEPTH) arrays and objects: the
    /// envelope holding it would nest deeper than a reader takes (127 levels, 4 of them the
    /// envelope's own).
    #[error(
        "label {label:?} of node {node:?} nests {depth} arrays and objects deep; at most {max} fit in an envelope a reader takes"
    )]
    LabelTooDeep {
        /// The node's id.
        node: String,
        /// The label's name.
        label: String,
        /// How deep its value nests (a scalar: 0, `[]`: 1, `[[0]]`: 2).
        depth: usize,
        /// The most allowed.
        max: usize,
    },
    /// A member a graph file must not have.
    #[error("at {path:?}: {object} has a member {key:?} it must not have")]
    UnknownKey {
        /// Which object (`envelope`, `node`, `edge`).
        object: &'static str,
        /// The member's name.
        key: String,
        /// Where the member is, as a JSON Pointer into the file (`/nodes/4711/labelz`).
        path: String,
    },
    /// A member a graph file must have.
    #[error("at {path:?}: {object} lacks the member {key:?}")]
    MissingKey {
        /// Which object.
        object: &'static str,
        /// The member's name.
        key: &'static str,
        /// Where the member belongs, as a JSON Pointer into the file (`/nodes/4711/level`).
        path: String,
    },
    /// A word outside its vocabulary (kind, level, provenance, sign, algorithm).
    #[error("at {path:?}: {what} {word:?} is not one of its vocabulary")]
    BadWord {
        /// Which vocabulary.
        what: &'static str,
        /// The word as written.
        word: String,
        /// Where the word is, as a JSON Pointer into the file (`/edges/7/kind`).
        path: String,
    },
    /// A member of the wrong JSON type.
    #[error("at {path:?}: {object} member {key:?} has the wrong type: {expected} expected")]
    WrongType {
        /// Which object.
        object: &'static str,
        /// The member.
        key: String,
        /// What it should be.
        expected: &'static str,
        /// Where the value is, as a JSON Pointer into the file (`/nodes/4711/labels`; an
        /// element of `nodes` or `edges` that is not an object: `/nodes/4711`).
        path: String,
    },
    /// A schema version this library does not build graphs of.
    #[error("schema_version {found} is not 3, the only version a graph is built at")]
    WrongSchemaVersion {
        /// The version found.
        found: String,
    },
}
