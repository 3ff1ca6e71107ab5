//! The macros' compile-time checks, held by trybuild: every case is a small program under
//! `cases/` (`fail/` with its expected `.stderr`, `pass/` with a `main` that asserts), run by
//! `tests/compile.rs`. This library is empty; it exists because a package needs a target.
