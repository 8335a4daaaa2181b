//! Property tests of the graph loaders on generated, mutated and random input.
//!
//! The Matrix Market reader takes files people download, and [`Csr`]'s constructors and
//! checker take whatever a caller built, so both are tested on input no one wrote by hand:
//!
//! - `mtx`: valid files (see `generate`) read as exactly the graph they were generated from,
//!   and files with one known defect fail with the error for it, on its line;
//! - `mutate`: valid files truncated, with lines deleted, duplicated or swapped, tokens
//!   replaced by huge, negative, non-finite or garbage words and bytes flipped, and plain
//!   random bytes, read without a panic, to a valid graph or to an error naming a line of
//!   the input;
//! - `csr`: [`Csr::from_edges`], [`Csr::from_weighted_edges`] and [`Csr::check`] against
//!   obvious models, on random edges and random arrays.
//!
//! Each property runs proptest's default 256 cases, a few seconds in all in a debug build;
//! `PROPTEST_CASES=N` runs N instead, for a longer search:
//!
//! ```text
//! PROPTEST_CASES=200000 cargo test -p gtap-examples --release --lib graph::fuzz
//! ```
//!
//! A failure is reported with its shrunk input and not saved to a file: proptest's
//! regression files would land in the source tree.

mod csr;
mod generate;
mod mtx;
mod mutate;

use std::string::ToString;

use proptest::test_runner::Config;

use crate::graph::mtx::Limits;
use crate::graph::{Csr, GraphError};

/// The configuration of every property here: proptest's default (256 cases, or
/// `PROPTEST_CASES`), without failure files.
fn config() -> Config {
    Config {
        failure_persistence: None,
        ..Config::default()
    }
}

/// Limits for mutated input, where a size line can turn huge and still be valid: small
/// enough that no such file allocates much.
const SMALL: Limits = Limits {
    max_vertices: 1 << 16,
    max_entries: 1 << 16,
};

/// The line number the reader gives the end of `input`: one past its last line.
fn end_line(input: &[u8]) -> usize {
    let breaks = input.iter().filter(|&&b| b == b'\n').count();
    let unterminated = !input.is_empty() && !input.ends_with(b"\n");
    breaks + unterminated as usize + 1
}

/// What any read must give: a graph that passes [`Csr::check`] with finite values within
/// `limits`, or a Matrix Market error on a line of the input (or just past it) whose message
/// starts with that line and stays short.
fn check_outcome(input: &[u8], limits: Limits, result: Result<Csr, GraphError>) {
    match result {
        Ok(g) => {
            g.check().unwrap();
            assert!(g.n <= limits.max_vertices);
            assert!(g.num_edges() <= limits.max_entries as usize);
            if let Some(val) = &g.val {
                assert!(val.iter().all(|x| x.is_finite()), "{val:?}");
            }
        }
        Err(e @ GraphError::Mtx { path: None, .. }) => {
            let GraphError::Mtx { line, .. } = e else {
                unreachable!()
            };
            assert!((1..=end_line(input)).contains(&line), "{e}");
            let message = e.to_string();
            assert!(
                message.starts_with(&std::format!("line {line}: ")),
                "{message}"
            );
            assert!(message.len() < 400, "{message}");
        }
        Err(e) => panic!("a read from memory gave {e:?}"),
    }
}
