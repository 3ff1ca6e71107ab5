//! The verifier: reads untrusted bytes of any envelope version and checks they are exactly
//! canonical (§5.4 rule 9).

use super::digest::hash_hex;
use super::envelope::write;
use super::error::CanonicalError;
use super::reader::{first_difference, graph_of, json, read, schema_version, top};
use crate::vocab::Algorithm;

/// What [`verify`] found: the envelope's version, the algorithm its digest is computed with,
/// and that digest.
///
/// ```
/// use beam_mcp_connectome::{Algorithm, canonical::verify};
///
/// let bytes = br#"{"schema_version":3,"algorithm":"sha384","nodes":[],"edges":[]}"#;
/// let verified = verify(bytes)?;
/// assert_eq!(verified.schema_version, 3);
/// assert_eq!(verified.algorithm, Algorithm::Sha384);
/// assert_eq!(verified.digest_hex.len(), 96);
/// # Ok::<(), beam_mcp_connectome::CanonicalError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Verified {
    /// The envelope's `schema_version`: 1, 2 or 3.
    pub schema_version: u64,
    /// The algorithm named at version 3; SHA-256 below (those envelopes name none).
    pub algorithm: Algorithm,
    /// The digest of exactly the bytes verified, lowercase hex.
    pub digest_hex: String,
}

/// Verifies canonical bytes of any version this library has written (the library itself
/// writes only version 3):
///
/// * `schema_version` is read first: 1 or 2 → the digest is SHA-256 and the envelope has
///   **no** `algorithm` member (members `schema_version, nodes, edges`); 3 → the `algorithm`
///   member is **required** and names the digest; any other version is refused
///   ([`CanonicalError::UnknownSchemaVersion`]).
/// * The `algorithm` member is checked next, before any other member: one below 3 is refused
///   as [`GraphError::UnknownKey`](crate::GraphError::UnknownKey), a missing one at 3 as
///   [`GraphError::MissingKey`](crate::GraphError::MissingKey), one that is not a string as
///   [`GraphError::WrongType`](crate::GraphError::WrongType), an unknown name as
///   [`GraphError::BadWord`](crate::GraphError::BadWord).
/// * Then object by object in file order (the envelope, each node, each edge): a member it
///   must not have, a member it lacks, a member of the wrong type, a word outside its
///   vocabulary, each error naming where as a JSON Pointer (`/nodes/4711/level`). Signs are
///   read with their version's vocabulary: version 1 `allow|deny|hold|unknown`, versions 2
///   and 3 `allow|deny|hold|ungoverned|unset` (a version-1 `unknown` is never narrowed to
///   `unset`).
/// * The graph is checked as [`parse`](super::parse) checks it (levels, label depth, floats,
///   duplicates, dangling edges).
/// * The bytes must be exactly the canonical bytes of what they hold: they are written again
///   and compared byte for byte ([`CanonicalError::NotCanonical`]).
///
/// Nesting is bounded by serde_json's recursion limit (127 nested arrays and objects); no
/// input panics.
///
/// ```
/// use beam_mcp_connectome::{Algorithm, canonical::verify};
///
/// let v2 = br#"{"schema_version":2,"nodes":[{"id":"s/server","kind":"server","labels":{},"level":"server"},{"id":"s/tool/t","kind":"tool","labels":{"mode":"read_only"},"level":"server"}],"edges":[{"from":"s/server","kind":"invoke","provenance":"declared","sign":"unset","to":"s/tool/t"}]}"#;
/// let verified = verify(v2)?;
/// assert_eq!((verified.schema_version, verified.algorithm), (2, Algorithm::Sha256));
/// assert_eq!(verified.digest_hex, "de6db70dc7316885176c4a7493ee07c46e33ec3bb90951dc54908a74e81dc90d");
/// # Ok::<(), beam_mcp_connectome::CanonicalError>(())
/// ```
pub fn verify(bytes: &[u8]) -> Result<Verified, CanonicalError> {
    let value = json(bytes)?;
    let top = top(&value)?;
    let version = schema_version(top)?;
    if !(1..=3).contains(&version) {
        return Err(CanonicalError::UnknownSchemaVersion {
            found: version.to_string(),
        });
    }
    let envelope = read(top, version)?;
    graph_of(&envelope)?;
    let canonical = write(&envelope)?;
    if let Some(offset) = first_difference(bytes, &canonical) {
        return Err(CanonicalError::NotCanonical { offset });
    }
    let algorithm = envelope
        .algorithm
        .and_then(Algorithm::parse)
        .unwrap_or_default();
    Ok(Verified {
        schema_version: version,
        algorithm,
        digest_hex: hash_hex(bytes, algorithm),
    })
}

/// [`verify`], then the digest must equal `expected_hex` (compared without regard to ASCII
/// case; the canonical spelling is lowercase), else [`CanonicalError::DigestMismatch`].
///
/// ```
/// use beam_mcp_connectome::{CanonicalError, canonical::verify_digest};
///
/// let bytes = br#"{"schema_version":3,"algorithm":"sha256","nodes":[],"edges":[]}"#;
/// let wrong = "00".repeat(32);
/// assert!(matches!(verify_digest(bytes, &wrong), Err(CanonicalError::DigestMismatch { .. })));
/// ```
pub fn verify_digest(bytes: &[u8], expected_hex: &str) -> Result<Verified, CanonicalError> {
    let verified = verify(bytes)?;
    if !verified.digest_hex.eq_ignore_ascii_case(expected_hex) {
        return Err(CanonicalError::DigestMismatch {
            expected: expected_hex.to_owned(),
            actual: verified.digest_hex,
        });
    }
    Ok(verified)
}
