//! Canonical bytes: one byte form per graph (and per JSON value) and its digest.
//!
//! The rules are written out in `docs/connectome-canonical.md`. Each file here does one job:
//!
//! * `text`: NFC, RFC 8785 escaping, UTF-16 key order;
//! * `float`: floats as ECMAScript writes them (the catalog export only);
//! * `value`: the labels-object rules for any JSON value ([`encode_value`]);
//! * `envelope`: the envelope of a graph ([`encode`]);
//! * `digest`: [`hash`] and [`hash_hex`];
//! * `bytes`: [`Canonical`], bytes with their digest;
//! * `reader`: an envelope's members and words, read from JSON;
//! * `parse`: a version-3 envelope back into a graph ([`parse`]);
//! * `verify`: any version's envelope checked, with its digest ([`verify`]);
//! * `sidecar`: the weights, never hashed ([`sidecar`]);
//! * `error`: [`CanonicalError`].

mod bytes;
mod digest;
mod envelope;
mod error;
mod float;
mod parse;
mod reader;
mod sidecar;
pub(crate) mod text;
pub(crate) mod value;
mod verify;

pub use bytes::Canonical;
pub use digest::{hash, hash_hex};
pub use envelope::encode;
pub use error::CanonicalError;
pub use parse::parse;
pub use sidecar::sidecar;
pub use value::{MAX_DEPTH, MAX_LABEL_DEPTH, encode_value, encode_value_with_floats};
pub use verify::{Verified, verify, verify_digest};
