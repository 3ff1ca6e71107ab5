//! Digests over canonical bytes (§5.4 rule 9).

use sha2::{Digest, Sha256, Sha384, Sha512};

use crate::vocab::Algorithm;

/// The digest `algorithm` names, over exactly `bytes`: 32 bytes for SHA-256, 48 for SHA-384,
/// 64 for SHA-512.
///
/// ```
/// use beam_mcp_connectome::{Algorithm, canonical::hash};
///
/// assert_eq!(hash(b"", Algorithm::Sha256).len(), 32);
/// assert_eq!(hash(b"", Algorithm::Sha384).len(), 48);
/// assert_eq!(hash(b"", Algorithm::Sha512).len(), 64);
/// ```
pub fn hash(bytes: &[u8], algorithm: Algorithm) -> Vec<u8> {
    match algorithm {
        Algorithm::Sha256 => Sha256::digest(bytes).to_vec(),
        Algorithm::Sha384 => Sha384::digest(bytes).to_vec(),
        Algorithm::Sha512 => Sha512::digest(bytes).to_vec(),
    }
}

/// [`hash`] as lowercase hex: 64, 96 or 128 characters.
///
/// ```
/// use beam_mcp_connectome::{Algorithm, canonical::hash_hex};
///
/// assert_eq!(
///     hash_hex(b"abc", Algorithm::default()),
///     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// );
/// ```
pub fn hash_hex(bytes: &[u8], algorithm: Algorithm) -> String {
    hex(&hash(bytes, algorithm))
}

/// Lowercase hex of `bytes`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        text.push(char::from(HEX[usize::from(b >> 4)]));
        text.push(char::from(HEX[usize::from(b & 0xf)]));
    }
    text
}
