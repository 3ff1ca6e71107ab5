//! Runs every case under `cases/`: each `fail/*.rs` must fail to compile with exactly its
//! checked-in `.stderr`; each `pass/*.rs` must compile and its `main` must succeed.
//!
//! Regenerate a `.stderr` with `TRYBUILD=overwrite cargo test -p beam-mcp-trybuild`, then
//! review the diff.

#[test]
fn cases() {
    let t = trybuild::TestCases::new();
    t.compile_fail(concat!(env!("CARGO_MANIFEST_DIR"), "/cases/fail/*.rs"));
    t.pass(concat!(env!("CARGO_MANIFEST_DIR"), "/cases/pass/*.rs"));
}
