//! [`Canonical`]: canonical bytes together with the algorithm they name and their digest.

use serde_json::Value;

use super::digest::hash_hex;
use super::envelope::encode;
use super::error::CanonicalError;
use super::value::encode_value;
use crate::graph::Graph;
use crate::vocab::Algorithm;

/// Canonical bytes with the algorithm they were hashed with and their digest, which always
/// match: the fields are read through accessors only.
///
/// ```
/// use beam_mcp_connectome::{Algorithm, Canonical, Graph, Identity, Node};
///
/// let server = Node::new(Identity::Server { server: "s".into() }, Default::default())?;
/// let graph = Graph::new(vec![server], vec![])?;
/// let canonical = Canonical::of(&graph, Algorithm::default())?;
/// assert_eq!(
///     canonical.bytes(),
///     br#"{"schema_version":3,"algorithm":"sha256","nodes":[{"id":"s/server","kind":"server","labels":{},"level":"server"}],"edges":[]}"#
/// );
/// assert_eq!(canonical.algorithm(), Algorithm::Sha256);
/// assert_eq!(canonical.digest_hex().len(), 64);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Canonical {
    bytes: Vec<u8>,
    algorithm: Algorithm,
    digest_hex: String,
}

impl Canonical {
    /// The version-3 envelope of `graph` naming `algorithm` ([`encode`]), and its digest.
    pub fn of(graph: &Graph, algorithm: Algorithm) -> Result<Canonical, CanonicalError> {
        Ok(Canonical::hashed(encode(graph, algorithm)?, algorithm))
    }

    /// The bytes of `value` under the labels-object rules ([`encode_value`], floats refused)
    /// and their digest under `algorithm` (the algorithm is not written into the bytes; a
    /// record that names its algorithm, like the diff record, carries it as a member).
    ///
    /// ```
    /// use beam_mcp_connectome::{Algorithm, Canonical};
    ///
    /// let canonical = Canonical::of_value(&serde_json::json!({"b": 1, "a": "x"}), Algorithm::Sha256)?;
    /// assert_eq!(canonical.bytes(), br#"{"a":"x","b":1}"#);
    /// # Ok::<(), beam_mcp_connectome::CanonicalError>(())
    /// ```
    pub fn of_value(value: &Value, algorithm: Algorithm) -> Result<Canonical, CanonicalError> {
        Ok(Canonical::hashed(encode_value(value)?, algorithm))
    }

    fn hashed(bytes: Vec<u8>, algorithm: Algorithm) -> Canonical {
        let digest_hex = hash_hex(&bytes, algorithm);
        Canonical {
            bytes,
            algorithm,
            digest_hex,
        }
    }

    /// The canonical bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The algorithm of the digest.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The digest of the bytes, lowercase hex.
    pub fn digest_hex(&self) -> &str {
        &self.digest_hex
    }

    /// The bytes, giving up the rest.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}
