//! Sparse matrix times dense vector on the CPU, `y = A x`: the reference a GPU SpMV is checked
//! against, the rayon baseline it is timed against, and the comparison that does the check.
//!
//! Each row's dot product is accumulated in `f64` and rounded once, so the reference is
//! correctly rounded or nearly so and a GPU kernel summing in `f32` shows its own rounding
//! error in the comparison, nothing of ours. Both functions compute each row the same way, so
//! they agree bit for bit. A pattern CSR (no values) counts each entry as 1, which makes `A`
//! the graph's adjacency matrix.

use std::vec::Vec;

use rayon::prelude::*;
use thiserror::Error;

use super::csr::Csr;
use super::rng::Xoshiro256;

/// `y = A x`, one thread.
///
/// # Panics
/// If `x.len() != a.n`.
pub fn spmv(a: &Csr, x: &[f32]) -> Vec<f32> {
    check_len(a, x);
    (0..a.n).map(|row| row_dot(a, row, x)).collect()
}

/// `y = A x`, rows in parallel; equal, bit for bit, to [`spmv`].
///
/// # Panics
/// If `x.len() != a.n`.
pub fn spmv_parallel(a: &Csr, x: &[f32]) -> Vec<f32> {
    check_len(a, x);
    (0..a.n)
        .into_par_iter()
        .map(|row| row_dot(a, row, x))
        .collect()
}

fn check_len(a: &Csr, x: &[f32]) {
    assert_eq!(x.len(), a.n as usize, "x needs one element per column");
}

/// Row `row` of `A` times `x`, summed in `f64` in column order.
fn row_dot(a: &Csr, row: u32, x: &[f32]) -> f32 {
    let cols = a.neighbors(row);
    let sum: f64 = match a.values(row) {
        Some(vals) => cols
            .iter()
            .zip(vals)
            .map(|(&c, &v)| v as f64 * x[c as usize] as f64)
            .sum(),
        None => cols.iter().map(|&c| x[c as usize] as f64).sum(),
    };
    sum as f32
}

/// A reproducible input vector of length `n`, values in `[0.5, 1.5)` with 24 significant
/// bits: positive, so that a nonnegative matrix's rows cannot cancel and relative errors stay
/// meaningful, and varied, so that a kernel reading the wrong element is noticed.
pub fn input_vector(n: u32, seed: u64) -> Vec<f32> {
    (0..n)
        .into_par_iter()
        .map(|i| {
            let bits = Xoshiro256::stream(seed, i as u64).next_u64() >> 40;
            0.5 + bits as f32 / (1u32 << 24) as f32
        })
        .collect()
}

/// The worst element of a comparison of a result with its reference; as an error, the reason
/// [`check_close`] rejected a result.
#[derive(Clone, Copy, Debug, Error, PartialEq)]
#[error(
    "y[{index}] = {actual:e}, expected {expected:e}: relative error {relative_error:e} exceeds \
     the tolerance"
)]
pub struct Deviation {
    /// The element's index.
    pub index: usize,
    /// The reference's value.
    pub expected: f32,
    /// The result's value.
    pub actual: f32,
    /// `|actual - expected| / |expected|`; 0 where they are equal (both zero included),
    /// infinite where exactly one is NaN or `expected` is 0 and `actual` is not.
    pub relative_error: f64,
}

/// The element with the largest relative error of `actual` against `expected`, or `None` for
/// empty vectors.
///
/// The error is relative to each element's own value. Rows that cancel (mixed signs) can make
/// a reference element tiny and its relative error large although the kernel is fine; compare
/// on a nonnegative matrix with [`input_vector`], or accept that with a looser tolerance.
///
/// # Panics
/// If the lengths differ.
pub fn max_relative_error(expected: &[f32], actual: &[f32]) -> Option<Deviation> {
    assert_eq!(
        expected.len(),
        actual.len(),
        "compared vectors differ in length"
    );
    expected
        .par_iter()
        .zip(actual)
        .enumerate()
        .map(|(index, (&expected, &actual))| Deviation {
            index,
            expected,
            actual,
            relative_error: relative_error(expected, actual),
        })
        // `max_by` would pick an arbitrary one of equal errors; the lowest index is stable.
        .reduce_with(|a, b| {
            if b.relative_error > a.relative_error
                || (b.relative_error == a.relative_error && b.index < a.index)
            {
                b
            } else {
                a
            }
        })
}

/// `Ok` if every element of `actual` is within relative error `tolerance` of `expected`.
///
/// For a GPU SpMV summing a row of `k` entries in `f32`, a tolerance of a few times
/// `k * f32::EPSILON` for the longest row is safe; `1e-5` suits graphs of moderate degree.
///
/// # Errors
/// The worst element, if its error exceeds `tolerance`.
///
/// # Panics
/// If the lengths differ.
pub fn check_close(expected: &[f32], actual: &[f32], tolerance: f64) -> Result<(), Deviation> {
    match max_relative_error(expected, actual) {
        Some(worst) if worst.relative_error > tolerance => Err(worst),
        _ => Ok(()),
    }
}

fn relative_error(expected: f32, actual: f32) -> f64 {
    if expected == actual || (expected.is_nan() && actual.is_nan()) {
        return 0.0;
    }
    let (e, a) = (expected as f64, actual as f64);
    let err = (a - e).abs() / e.abs();
    if err.is_nan() { f64::INFINITY } else { err }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::kronecker;
    use std::vec;

    #[test]
    fn small_weighted_product() {
        // [[0, 2, 0], [1, 0, 3], [0, 0, 0]] (self loops are dropped by construction).
        let a =
            Csr::from_weighted_edges(3, &[(0, 1, 2.0), (1, 0, 1.0), (1, 2, 3.0)], false).unwrap();
        let x = [1.0, 10.0, 100.0];
        assert_eq!(spmv(&a, &x), vec![20.0, 301.0, 0.0]);
        assert_eq!(spmv_parallel(&a, &x), vec![20.0, 301.0, 0.0]);
    }

    #[test]
    fn a_pattern_matrix_sums_neighbours() {
        let g = Csr::from_edges(3, &[(0, 1), (0, 2)], true).unwrap();
        assert_eq!(spmv(&g, &[1.0, 2.0, 4.0]), vec![6.0, 1.0, 1.0]);
    }

    #[test]
    fn sequential_and_parallel_agree_bitwise_on_kronecker_graphs() {
        let g = kronecker(12, 16, 4).unwrap();
        let x = input_vector(g.n, 4);
        let y = spmv(&g, &x);
        assert_eq!(spmv_parallel(&g, &x), y);
        // Each y[v] of a pattern graph lies between 0.5 and 1.5 times v's degree.
        for v in 0..g.n {
            let d = g.degree(v) as f32;
            assert!(y[v as usize] >= 0.5 * d && y[v as usize] < 1.5 * d || d == 0.0);
        }
    }

    #[test]
    fn an_f32_row_sum_is_close_but_not_equal() {
        // What a GPU kernel summing in f32 would produce: off in the last bits, within 1e-5.
        let g = kronecker(12, 16, 5).unwrap();
        let x = input_vector(g.n, 5);
        let reference = spmv(&g, &x);
        let f32_sums: Vec<f32> = (0..g.n)
            .map(|v| g.neighbors(v).iter().map(|&c| x[c as usize]).sum())
            .collect();
        let worst = max_relative_error(&reference, &f32_sums).unwrap();
        assert!(
            worst.relative_error > 0.0 && worst.relative_error < 1e-5,
            "{worst:?}"
        );
        check_close(&reference, &f32_sums, 1e-5).unwrap();
    }

    #[test]
    fn the_worst_element_is_reported() {
        let expected = [1.0, 2.0, 0.0, 4.0];
        assert_eq!(max_relative_error(&[], &[]), None);
        assert_eq!(check_close(&expected, &expected, 0.0), Ok(()));
        let worst = check_close(&expected, &[1.0, 2.5, 0.0, 4.5], 0.1).unwrap_err();
        assert_eq!(
            worst,
            Deviation {
                index: 1,
                expected: 2.0,
                actual: 2.5,
                relative_error: 0.25
            }
        );
        let nan = max_relative_error(&expected, &[1.0, 2.0, f32::NAN, 4.0]).unwrap();
        assert_eq!((nan.index, nan.relative_error), (2, f64::INFINITY));
        let zero = max_relative_error(&expected, &[1.0, 2.0, 1e-30, 4.0]).unwrap();
        assert_eq!((zero.index, zero.relative_error), (2, f64::INFINITY));
    }

    #[test]
    fn input_vectors_are_reproducible_and_in_range() {
        let x = input_vector(1000, 1);
        assert_eq!(x, input_vector(1000, 1));
        assert_ne!(x, input_vector(1000, 2));
        assert!(x.iter().all(|&v| (0.5..1.5).contains(&v)));
    }
}
