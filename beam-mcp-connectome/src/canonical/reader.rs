//! Reading an envelope's structure from JSON: members by name, words by vocabulary, for
//! every version the verifier reads (1, 2, 3). Shared by [`parse`](super::parse) and
//! [`verify`](super::verify).
//!
//! The order of refusals is fixed (`docs/connectome-canonical.md` §8): `schema_version`, then
//! the `algorithm` member (required at 3, refused below), then object by object in file
//! order (the envelope, each node, each edge): a member it must not have, then a member it
//! lacks, then a member of the wrong type, then a word outside its vocabulary, each in the
//! object's member order. Every refusal names where it is, as a JSON Pointer.

use serde_json::{Map, Value};

use super::envelope::{Envelope, RawEdge, RawNode};
use super::error::CanonicalError;
use super::text::pointer;
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

/// Where an object sits in the file: the envelope, or an element of `nodes` or `edges`.
/// Pointers are rendered only when an error needs one.
#[derive(Clone, Copy)]
struct At {
    /// What the object is called in errors (`envelope`, `node`, `edge`).
    object: &'static str,
    /// `None` for the envelope; the list and the index for a node or an edge.
    element: Option<(&'static str, usize)>,
}

impl At {
    const ENVELOPE: At = At {
        object: "envelope",
        element: None,
    };

    fn node(index: usize) -> At {
        At {
            object: "node",
            element: Some(("nodes", index)),
        }
    }

    fn edge(index: usize) -> At {
        At {
            object: "edge",
            element: Some(("edges", index)),
        }
    }

    /// The object's own pointer (`""` for the envelope, `/nodes/4`).
    fn path(self) -> String {
        match self.element {
            None => String::new(),
            Some((list, index)) => format!("/{list}/{index}"),
        }
    }

    /// The pointer of one of its members (`/nodes/4/level`).
    fn member(self, key: &str) -> String {
        pointer(&self.path(), key)
    }
}

/// The bytes as JSON; serde_json refuses invalid UTF-8, lone surrogate escapes, trailing
/// bytes and nesting deeper than 127 arrays and objects.
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
    let found = member(top, At::ENVELOPE, "schema_version")?;
    Ok(found
        .as_u64()
        .ok_or_else(|| wrong_type(At::ENVELOPE, "schema_version", "a non-negative integer"))?)
}

/// The envelope of version `version` (1, 2 or 3), every member present and none other,
/// every word of its version's vocabulary; refusals in the order the module states.
pub(crate) fn read(top: &Map<String, Value>, version: u64) -> Result<Envelope<'_>, CanonicalError> {
    // The algorithm member first: it says which digest the bytes are read for.
    let (members, algorithm) = if version >= 3 {
        let word = string(top, At::ENVELOPE, "algorithm")?;
        let known = Algorithm::parse(word).is_some();
        let word = word_of(word, Algorithm::WHAT, known, At::ENVELOPE, "algorithm")?;
        (ENVELOPE_V3, Some(word))
    } else {
        if top.contains_key("algorithm") {
            return Err(unknown(At::ENVELOPE, "algorithm").into());
        }
        (ENVELOPE_V1_V2, None)
    };
    exact_members(top, At::ENVELOPE, members)?;
    let nodes = array(top, "nodes")?;
    let edges = array(top, "edges")?;
    let nodes = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| node(n, At::node(i)))
        .collect::<Result<Vec<_>, _>>()?;
    let edges = edges
        .iter()
        .enumerate()
        .map(|(i, e)| edge(e, At::edge(i), version))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Envelope {
        schema_version: version,
        algorithm,
        nodes,
        edges,
    })
}

/// The graph an envelope describes, checked by [`Node::from_parts`] and [`Graph::new`]
/// (levels, floats, label depth, duplicates, dangling edges). A version-1 `unknown` sign has
/// no place in the model; the verifier, the only reader of version 1, checks the structure
/// with it stood in for and then discards this graph (the bytes it verifies keep `unknown`).
pub(crate) fn graph_of(envelope: &Envelope<'_>) -> Result<Graph, GraphError> {
    let nodes = envelope
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let at = At::node(i);
            Node::from_parts(
                n.id.to_owned(),
                NodeKind::parse(n.kind).ok_or_else(|| bad(NodeKind::WHAT, n.kind, at, "kind"))?,
                Level::parse(n.level).ok_or_else(|| bad(Level::WHAT, n.level, at, "level"))?,
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
        .enumerate()
        .map(|(i, e)| {
            let at = At::edge(i);
            let mut edge = Edge::new(
                e.from,
                e.to,
                EdgeKind::parse(e.kind).ok_or_else(|| bad(EdgeKind::WHAT, e.kind, at, "kind"))?,
                Provenance::parse(e.provenance)
                    .ok_or_else(|| bad(Provenance::WHAT, e.provenance, at, "provenance"))?,
            );
            edge.sign = Sign::parse(e.sign).unwrap_or(Sign::Unset);
            Ok(edge)
        })
        .collect::<Result<Vec<_>, GraphError>>()?;
    Graph::new(nodes, edges)
}

fn node(value: &Value, at: At) -> Result<RawNode<'_>, CanonicalError> {
    let node = value.as_object().ok_or_else(|| GraphError::WrongType {
        object: "envelope",
        key: "nodes".into(),
        expected: "an array of objects",
        path: at.path(),
    })?;
    exact_members(node, at, NODE)?;
    let id = string(node, at, "id")?;
    let kind = string(node, at, "kind")?;
    let labels = member(node, at, "labels")?
        .as_object()
        .ok_or_else(|| wrong_type(at, "labels", "an object"))?;
    let level = string(node, at, "level")?;
    Ok(RawNode {
        id,
        kind: word_of(
            kind,
            NodeKind::WHAT,
            NodeKind::parse(kind).is_some(),
            at,
            "kind",
        )?,
        level: word_of(
            level,
            Level::WHAT,
            Level::parse(level).is_some(),
            at,
            "level",
        )?,
        labels: labels.iter().map(|(k, v)| (k.as_str(), v)).collect(),
    })
}

fn edge(value: &Value, at: At, version: u64) -> Result<RawEdge<'_>, CanonicalError> {
    let edge = value.as_object().ok_or_else(|| GraphError::WrongType {
        object: "envelope",
        key: "edges".into(),
        expected: "an array of objects",
        path: at.path(),
    })?;
    exact_members(edge, at, EDGE)?;
    let from = string(edge, at, "from")?;
    let kind = string(edge, at, "kind")?;
    let provenance = string(edge, at, "provenance")?;
    let sign = string(edge, at, "sign")?;
    let to = string(edge, at, "to")?;
    let kind = word_of(
        kind,
        EdgeKind::WHAT,
        EdgeKind::parse(kind).is_some(),
        at,
        "kind",
    )?;
    let provenance = word_of(
        provenance,
        Provenance::WHAT,
        Provenance::parse(provenance).is_some(),
        at,
        "provenance",
    )?;
    let sign = if version == 1 {
        word_of(sign, "version-1 sign", SIGNS_V1.contains(&sign), at, "sign")?
    } else {
        word_of(sign, Sign::WHAT, Sign::parse(sign).is_some(), at, "sign")?
    };
    Ok(RawEdge {
        from,
        to,
        kind,
        provenance,
        sign,
        weight: None,
    })
}

/// Refuses a member not in `members` (first, by name), then a member missing (in order).
fn exact_members(
    object: &Map<String, Value>,
    at: At,
    members: &[&'static str],
) -> Result<(), GraphError> {
    if let Some(key) = object.keys().find(|k| !members.contains(&k.as_str())) {
        return Err(unknown(at, key));
    }
    match members.iter().find(|m| !object.contains_key(**m)) {
        Some(key) => Err(GraphError::MissingKey {
            object: at.object,
            key,
            path: at.member(key),
        }),
        None => Ok(()),
    }
}

/// A member that must be there.
fn member<'v>(
    object: &'v Map<String, Value>,
    at: At,
    key: &'static str,
) -> Result<&'v Value, GraphError> {
    object.get(key).ok_or_else(|| GraphError::MissingKey {
        object: at.object,
        key,
        path: at.member(key),
    })
}

fn string<'v>(
    object: &'v Map<String, Value>,
    at: At,
    key: &'static str,
) -> Result<&'v str, GraphError> {
    member(object, at, key)?
        .as_str()
        .ok_or_else(|| wrong_type(at, key, "a string"))
}

fn array<'v>(object: &'v Map<String, Value>, key: &'static str) -> Result<&'v [Value], GraphError> {
    member(object, At::ENVELOPE, key)?
        .as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| wrong_type(At::ENVELOPE, key, "an array"))
}

fn word_of<'v>(
    word: &'v str,
    what: &'static str,
    known: bool,
    at: At,
    key: &str,
) -> Result<&'v str, GraphError> {
    if known {
        Ok(word)
    } else {
        Err(bad(what, word, at, key))
    }
}

fn bad(what: &'static str, word: &str, at: At, key: &str) -> GraphError {
    GraphError::BadWord {
        what,
        word: word.to_owned(),
        path: at.member(key),
    }
}

fn unknown(at: At, key: &str) -> GraphError {
    GraphError::UnknownKey {
        object: at.object,
        key: key.to_owned(),
        path: at.member(key),
    }
}

fn wrong_type(at: At, key: &str, expected: &'static str) -> GraphError {
    GraphError::WrongType {
        object: at.object,
        key: key.to_owned(),
        expected,
        path: at.member(key),
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
