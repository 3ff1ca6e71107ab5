//! Reading an envelope's structure from JSON: members by name, words by vocabulary, for
//! every version the verifier reads (1, 2, 3). Shared by [`parse`](super::parse) and
//! [`verify`](super::verify).

use serde_json::{Map, Value};

use super::envelope::{Envelope, RawEdge, RawNode};
use super::error::CanonicalError;
use crate::graph::{Edge, Graph, GraphError, Node};
use crate::vocab::{Algorithm, EdgeKind, Level, NodeKind, Provenance, Sign};

/// The members of a version-3 envelope, in their fixed order.
const ENVELOPE_V3: &[&str] = &["schema_version", "algorithm", "nodes", "edges"];
/// The members of a version-1 or version-2 envelope, in their fixed order.
const ENVELOPE_V1_V2: &[&str] = &["schema_version", "nodes", "edges"];
/// The members of a node.
const NODE: &[&str] = &["id", "kind", "labels", "level"];
/// The members of an edge.
const EDGE: &[&str] = &["from", "kind", "provenance", "sign", "to"];
/// The version-1 sign vocabulary (`unknown` became `unset` and `ungoverned` in version 2).
const SIGNS_V1: &[&str] = &["allow", "deny", "hold", "unknown"];

/// The bytes as JSON; serde_json refuses invalid UTF-8, lone surrogate escapes, trailing
/// bytes and nesting deeper than 128.
pub(crate) fn json(bytes: &[u8]) -> Result<Value, CanonicalError> {
    serde_json::from_slice(bytes).map_err(|e| CanonicalError::NotJson {
        message: e.to_string(),
    })
}

/// The top-level object.
pub(crate) fn top(value: &Value) -> Result<&Map<String, Value>, CanonicalError> {
    value.as_object().ok_or(CanonicalError::NotAnEnvelope)
}

/// The envelope's `schema_version`, a non-negative integer (which versions are accepted is
/// the caller's call).
pub(crate) fn schema_version(top: &Map<String, Value>) -> Result<u64, CanonicalError> {
    let found = top.get("schema_version").ok_or(GraphError::MissingKey {
        object: "envelope",
        key: "schema_version",
    })?;
    Ok(found.as_u64().ok_or_else(|| GraphError::WrongType {
        object: "envelope",
        key: "schema_version".into(),
        expected: "a non-negative integer",
    })?)
}

/// The envelope of version `version` (1, 2 or 3), every member present and none other,
/// every word of its version's vocabulary.
pub(crate) fn read(top: &Map<String, Value>, version: u64) -> Result<Envelope<'_>, CanonicalError> {
    let members = if version >= 3 {
        ENVELOPE_V3
    } else {
        ENVELOPE_V1_V2
    };
    exact_members(top, "envelope", members)?;
    let algorithm = if version >= 3 {
        let word = string(top, "envelope", "algorithm")?;
        Some(word_of(
            word,
            Algorithm::WHAT,
            Algorithm::parse(word).is_some(),
        )?)
    } else {
        None
    };
    let nodes = array(top, "nodes")?
        .iter()
        .map(node)
        .collect::<Result<Vec<_>, _>>()?;
    let edges = array(top, "edges")?
        .iter()
        .map(|e| edge(e, version))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Envelope {
        schema_version: version,
        algorithm,
        nodes,
        edges,
    })
}

/// The graph an envelope describes, checked by [`Node::from_parts`] and [`Graph::new`]
/// (levels, floats, duplicates, dangling edges). A version-1 `unknown` sign has no place in
/// the model; the verifier, the only reader of version 1, checks the structure with it
/// stood in for and then discards this graph (the bytes it verifies keep `unknown`).
pub(crate) fn graph_of(envelope: &Envelope<'_>) -> Result<Graph, GraphError> {
    let nodes = envelope
        .nodes
        .iter()
        .map(|n| {
            Node::from_parts(
                n.id.to_owned(),
                NodeKind::parse(n.kind).ok_or_else(|| bad(NodeKind::WHAT, n.kind))?,
                Level::parse(n.level).ok_or_else(|| bad(Level::WHAT, n.level))?,
                n.labels
                    .iter()
                    .map(|(k, v)| ((*k).to_owned(), (*v).clone()))
                    .collect(),
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let edges = envelope
        .edges
        .iter()
        .map(|e| {
            let mut edge = Edge::new(
                e.from,
                e.to,
                EdgeKind::parse(e.kind).ok_or_else(|| bad(EdgeKind::WHAT, e.kind))?,
                Provenance::parse(e.provenance)
                    .ok_or_else(|| bad(Provenance::WHAT, e.provenance))?,
            );
            edge.sign = Sign::parse(e.sign).unwrap_or(Sign::Unset);
            Ok(edge)
        })
        .collect::<Result<Vec<_>, GraphError>>()?;
    Graph::new(nodes, edges)
}

fn node(value: &Value) -> Result<RawNode<'_>, CanonicalError> {
    let node = value.as_object().ok_or(GraphError::WrongType {
        object: "envelope",
        key: "nodes".into(),
        expected: "an array of objects",
    })?;
    exact_members(node, "node", NODE)?;
    let kind = string(node, "node", "kind")?;
    let level = string(node, "node", "level")?;
    let labels = node
        .get("labels")
        .and_then(Value::as_object)
        .ok_or(GraphError::WrongType {
            object: "node",
            key: "labels".into(),
            expected: "an object",
        })?;
    Ok(RawNode {
        id: string(node, "node", "id")?,
        kind: word_of(kind, NodeKind::WHAT, NodeKind::parse(kind).is_some())?,
        level: word_of(level, Level::WHAT, Level::parse(level).is_some())?,
        labels: labels.iter().map(|(k, v)| (k.as_str(), v)).collect(),
    })
}

fn edge(value: &Value, version: u64) -> Result<RawEdge<'_>, CanonicalError> {
    let edge = value.as_object().ok_or(GraphError::WrongType {
        object: "envelope",
        key: "edges".into(),
        expected: "an array of objects",
    })?;
    exact_members(edge, "edge", EDGE)?;
    let kind = string(edge, "edge", "kind")?;
    let provenance = string(edge, "edge", "provenance")?;
    let sign = string(edge, "edge", "sign")?;
    let sign = if version == 1 {
        word_of(sign, "version-1 sign", SIGNS_V1.contains(&sign))?
    } else {
        word_of(sign, Sign::WHAT, Sign::parse(sign).is_some())?
    };
    Ok(RawEdge {
        from: string(edge, "edge", "from")?,
        to: string(edge, "edge", "to")?,
        kind: word_of(kind, EdgeKind::WHAT, EdgeKind::parse(kind).is_some())?,
        provenance: word_of(
            provenance,
            Provenance::WHAT,
            Provenance::parse(provenance).is_some(),
        )?,
        sign,
        weight: None,
    })
}

/// Refuses a member not in `members` (first, by name), then a member missing (in order).
fn exact_members(
    object: &Map<String, Value>,
    what: &'static str,
    members: &[&'static str],
) -> Result<(), GraphError> {
    if let Some(key) = object.keys().find(|k| !members.contains(&k.as_str())) {
        return Err(GraphError::UnknownKey {
            object: what,
            key: key.clone(),
        });
    }
    match members.iter().find(|m| !object.contains_key(**m)) {
        Some(key) => Err(GraphError::MissingKey { object: what, key }),
        None => Ok(()),
    }
}

fn string<'v>(
    object: &'v Map<String, Value>,
    what: &'static str,
    key: &'static str,
) -> Result<&'v str, GraphError> {
    object
        .get(key)
        .and_then(Value::as_str)
        .ok_or(GraphError::WrongType {
            object: what,
            key: key.into(),
            expected: "a string",
        })
}

fn array<'v>(
    object: &'v Map<String, Value>,
    key: &'static str,
) -> Result<&'v Vec<Value>, GraphError> {
    object
        .get(key)
        .and_then(Value::as_array)
        .ok_or(GraphError::WrongType {
            object: "envelope",
            key: key.into(),
            expected: "an array",
        })
}

fn word_of<'v>(word: &'v str, what: &'static str, known: bool) -> Result<&'v str, GraphError> {
    if known {
        Ok(word)
    } else {
        Err(bad(what, word))
    }
}

fn bad(what: &'static str, word: &str) -> GraphError {
    GraphError::BadWord {
        what,
        word: word.to_owned(),
    }
}

/// The offset of the first byte where `a` and `b` differ, if they do.
pub(crate) fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(offset) => Some(offset),
        None if a.len() == b.len() => None,
        None => Some(a.len().min(b.len())),
    }
}
