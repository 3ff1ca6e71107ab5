//! Why canonical bytes could not be written, read or verified. Each error names its culprit.

use crate::graph::GraphError;

/// Why a value or graph has no canonical bytes, or why bytes were refused as a canonical
/// envelope. Each variant names the culprit: a JSON Pointer (RFC 6901) path, a node id, a
/// label, a key or a byte offset.
///
/// ```
/// use beam_mcp_connectome::{CanonicalError, encode_value};
///
/// let refused = encode_value(&serde_json::json!({"a": [1, 2.5]}));
/// assert_eq!(
///     refused,
///     Err(CanonicalError::Float { path: "/a/1".into(), value: "2.5".into() })
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CanonicalError {
    /// A float in a value written under the labels-object rules, which refuse floats.
    #[error(
        "the value at {path:?} is a float ({value}); canonical values hold integers, strings, booleans, null, arrays and objects"
    )]
    Float {
        /// Where the float is, as a JSON Pointer (`""` is the whole value).
        path: String,
        /// The float, as JSON.
        value: String,
    },
    /// A non-finite number: it has no JSON form at all.
    #[error("the value at {path:?} is not a finite number")]
    NonFinite {
        /// Where it is, as a JSON Pointer.
        path: String,
    },
    /// A number that is neither an integer nor a float (only possible when another crate
    /// turns on serde_json's `arbitrary_precision` and hands in a malformed number).
    #[error("the value at {path:?} is not a JSON number this library can write ({value})")]
    BadNumber {
        /// Where it is, as a JSON Pointer.
        path: String,
        /// The number as serde_json holds it.
        value: String,
    },
    /// Two keys of one object are the same key once NFC-normalised: refused, never merged.
    #[error(
        "keys {first:?} and {second:?} of the object at {path:?} are the same key after NFC ({normalised:?}); refused, never merged"
    )]
    KeyCollision {
        /// The object, as a JSON Pointer.
        path: String,
        /// One key, as written.
        first: String,
        /// The other key, as written.
        second: String,
        /// The key both normalise to.
        normalised: String,
    },
    /// A value nested deeper than [`MAX_DEPTH`](crate::canonical::MAX_DEPTH) arrays and
    /// objects.
    #[error("the value at {path:?} nests deeper than {max} arrays and objects")]
    TooDeep {
        /// Where the limit was crossed, as a JSON Pointer.
        path: String,
        /// The limit.
        max: usize,
    },
    /// A label's value cannot be written for a reason other than a float (nesting depth, a
    /// malformed number).
    #[error("label {label:?} of node {node:?}: {reason}")]
    BadLabel {
        /// The node's id, as written.
        node: String,
        /// The label's name.
        label: String,
        /// Why, naming the path inside the label's value.
        reason: Box<CanonicalError>,
    },
    /// Two label keys (of a node's labels, or of an object nested in a label) are the same
    /// key after NFC.
    #[error(
        "node {node:?}: label keys {first:?} and {second:?} at {path:?} are the same key after NFC; refused, never merged"
    )]
    LabelKeyCollision {
        /// The node's id, as written.
        node: String,
        /// The object holding both keys, as a JSON Pointer from the node's `labels` (`""` is
        /// `labels` itself).
        path: String,
        /// One key, as written.
        first: String,
        /// The other key, as written.
        second: String,
    },
    /// Two node ids are the same id after NFC: refused, never merged.
    #[error(
        "node ids {first:?} and {second:?} are the same id after NFC ({normalised:?}); refused, never merged"
    )]
    NodeIdCollision {
        /// One id, as written.
        first: String,
        /// The other id, as written.
        second: String,
        /// The id both normalise to.
        normalised: String,
    },
    /// The bytes are not JSON (or not UTF-8, or nest deeper than the 127 arrays and objects
    /// serde_json reads).
    #[error("not JSON: {message}")]
    NotJson {
        /// serde_json's account, with line and column.
        message: String,
    },
    /// The bytes are JSON, but their top level is not an object.
    #[error("the top level is not a JSON object, so not an envelope")]
    NotAnEnvelope,
    /// The bytes hold a well-formed envelope, but not in its canonical form.
    #[error(
        "the bytes are not canonical: they first differ from the canonical form at byte {offset}"
    )]
    NotCanonical {
        /// The offset of the first byte that differs (the shorter length if one is a prefix of
        /// the other).
        offset: usize,
    },
    /// The envelope's `schema_version` is not one the verifier knows (1, 2 or 3).
    #[error("schema_version {found} is not 1, 2 or 3")]
    UnknownSchemaVersion {
        /// The version as written.
        found: String,
    },
    /// The digest of the bytes is not the one expected.
    #[error("digest mismatch: expected {expected}, the bytes hash to {actual}")]
    DigestMismatch {
        /// The digest expected, as given.
        expected: String,
        /// The digest of the bytes, lowercase hex.
        actual: String,
    },
    /// The envelope does not hold a well-formed graph (an unknown or missing member, a word
    /// outside its vocabulary, a wrong type, a dangling edge, …).
    #[error(transparent)]
    Graph(#[from] GraphError),
}

#[cfg(test)]
mod tests {
    use super::CanonicalError;

    #[test]
    fn stays_small_enough_to_wrap() {
        // Errors that wrap this one beside a small field (the diff's) stay under clippy's
        // `result_large_err` bound of 128 bytes.
        let size = std::mem::size_of::<CanonicalError>();
        assert!(size <= 104, "{size}");
    }
}
