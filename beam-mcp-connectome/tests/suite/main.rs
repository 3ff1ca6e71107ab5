//! The connectome crate's integration tests, one binary (a module a file): canonical bytes and
//! their vectors, the reader, the diff, reach, export and the `connectome` command.

mod canonical;
mod canonical_props;
mod canonical_read;
mod cli;
mod diff;
mod export;
mod reach;
