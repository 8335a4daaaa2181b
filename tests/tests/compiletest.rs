//! Misuse of the task language is a compile error with a clear message: each file in
//! `tests/ui/` must fail to compile with the output in the `.stderr` beside it.
//!
//! After an intended change to a message, regenerate the snapshots with
//! `TRYBUILD=overwrite cargo test -p gtap-tests --test compiletest` and read the diff.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
}
