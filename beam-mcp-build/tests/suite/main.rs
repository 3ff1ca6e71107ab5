//! beam-mcp-build's integration tests, one binary (a module a file): the scan of a crate's sources
//! into the declared connectome, over fixture crates under `fixtures/`.

mod common;

mod attributes;
mod bound;
mod cfg;
mod duplicates;
mod emit;
mod levels;
mod methods;
mod module_tree;
mod one_parser;
mod policy;
mod scale;
mod uses;
mod weather;
