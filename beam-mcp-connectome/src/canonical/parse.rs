//! Reading a version-3 envelope back into a [`Graph`].

use super::envelope::encode;
use super::error::CanonicalError;
use super::reader::{first_difference, graph_of, json, read, schema_version, top};
use crate::graph::{Graph, GraphError};
use crate::vocab::{Algorithm, SCHEMA_VERSION};

/// The graph a version-3 envelope holds, and the algorithm it names.
///
/// Refused, by name: bytes that are not JSON; a `schema_version` other than 3
/// ([`GraphError::WrongSchemaVersion`]; versions 1 and 2 are for [`verify`](super::verify)
/// only); an unknown or missing member of the envelope, a node or an edge
/// ([`GraphError::UnknownKey`], [`GraphError::MissingKey`]); a member of the wrong type
/// ([`GraphError::WrongType`]); a word outside its vocabulary ([`GraphError::BadWord`]);
/// these four name where in the file, as a JSON Pointer, in the order of
/// `docs/connectome-canonical.md` §8; then every defect [`Node::from_parts`](crate::Node::from_parts) and
/// [`Graph::new`] refuse.
/// Finally the bytes must be **exactly canonical**: the graph read is encoded again and the
/// bytes must match ([`CanonicalError::NotCanonical`] names the first byte that differs), so
/// a graph read from a file always hashes to the digest of that file. Weights are not in the
/// envelope; read edges have none.
///
/// ```
/// use beam_mcp_connectome::{Algorithm, CanonicalError, GraphError, canonical::parse};
///
/// let bytes = br#"{"schema_version":3,"algorithm":"sha384","nodes":[{"id":"s/server","kind":"server","labels":{},"level":"server"}],"edges":[]}"#;
/// let (graph, algorithm) = parse(bytes)?;
/// assert_eq!((graph.nodes().len(), algorithm), (1, Algorithm::Sha384));
///
/// let spaced = br#"{"schema_version":3, "algorithm":"sha384","nodes":[],"edges":[]}"#;
/// assert_eq!(parse(spaced), Err(CanonicalError::NotCanonical { offset: 20 }));
/// let typo = br#"{"schema_version":3,"algorithm":"sha256","nodes":[],"edgez":[]}"#;
/// assert_eq!(
///     parse(typo),
///     Err(CanonicalError::Graph(GraphError::UnknownKey {
///         object: "envelope",
///         key: "edgez".into(),
///         path: "/edgez".into(),
///     }))
/// );
/// # Ok::<(), CanonicalError>(())
/// ```
pub fn parse(bytes: &[u8]) -> Result<(Graph, Algorithm), CanonicalError> {
    let value = json(bytes)?;
    let top = top(&value)?;
    let version = schema_version(top)?;
    if version != SCHEMA_VERSION {
        return Err(GraphError::WrongSchemaVersion {
            found: version.to_string(),
        }
        .into());
    }
    let envelope = read(top, version)?;
    let algorithm = envelope
        .algorithm
        .and_then(Algorithm::parse)
        .ok_or_else(|| GraphError::MissingKey {
            object: "envelope",
            key: "algorithm",
            path: "/algorithm".into(),
        })?;
    let graph = graph_of(&envelope)?;
    let canonical = encode(&graph, algorithm)?;
    if let Some(offset) = first_difference(bytes, &canonical) {
        return Err(CanonicalError::NotCanonical { offset });
    }
    Ok((graph, algorithm))
}

impl Graph {
    /// The graph a version-3 envelope holds: [`parse`] without the algorithm.
    ///
    /// ```
    /// use beam_mcp_connectome::Graph;
    ///
    /// let bytes = br#"{"schema_version":3,"algorithm":"sha256","nodes":[],"edges":[]}"#;
    /// assert!(Graph::from_canonical_json(bytes)?.nodes().is_empty());
    /// # Ok::<(), beam_mcp_connectome::CanonicalError>(())
    /// ```
    pub fn from_canonical_json(bytes: &[u8]) -> Result<Graph, CanonicalError> {
        parse(bytes).map(|(graph, _)| graph)
    }

    /// The canonical bytes of this graph naming `algorithm`:
    /// [`encode`](super::encode).
    ///
    /// ```
    /// use beam_mcp_connectome::{Algorithm, Graph};
    ///
    /// let graph = Graph::new(vec![], vec![])?;
    /// assert_eq!(
    ///     graph.to_canonical_json(Algorithm::Sha512)?,
    ///     br#"{"schema_version":3,"algorithm":"sha512","nodes":[],"edges":[]}"#
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_canonical_json(&self, algorithm: Algorithm) -> Result<Vec<u8>, CanonicalError> {
        encode(self, algorithm)
    }
}
