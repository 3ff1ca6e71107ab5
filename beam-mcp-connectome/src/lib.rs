//! # beam-mcp-connectome
//!
//! The connectome of a beam-mcp server: the call graph of the composed system, declared (read
//! from the code at build time) and observed (seen at dispatch), as one typed model with one
//! canonical byte form and its digest.
//!
//! This crate never computes a sign, holds a key or signs anything: it writes only
//! [`Sign::Unset`], and a consumer that gives verdicts rebuilds the graph with its own.
#![forbid(unsafe_code)]

pub mod canonical;
mod diff;
mod export;
mod graph;
mod id;
mod reach;
mod vocab;

pub use canonical::{Canonical, CanonicalError, Verified, encode_value, encode_value_with_floats};
pub use diff::{Classes, Coverage, Diff, DiffError, EdgeLabel, Side, SignChange, diff};
pub use export::{ExportError, to_dot, to_graphml};
pub use graph::{Edge, Graph, GraphError, Labels, Node};
pub use id::Identity;
pub use reach::{
    DEFAULT_MAX_EDGES, DominatorOptions, PathOptions, ReachError, Witness, dominates,
    mandatory_pass, reachable, reachable_without,
};
pub use vocab::{Algorithm, EdgeKind, Level, NodeKind, Provenance, SCHEMA_VERSION, Sign};
