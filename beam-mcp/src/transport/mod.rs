//! Transports own bytes and connections; they never decide protocol semantics.

#[cfg(feature = "stdio")]
pub mod stdio;
