//! `nqueens`: N-Queens by bitmask backtracking, one GPU task per partial placement above the
//! cutoff row and a sequential count below. CPU baselines: the sequential count of the whole
//! board; rayon with the same algorithm at the GPU's cutoff, and at coarser cutoffs, which
//! a CPU wants (a few thousand leaves keep every core busy).

use gtap_examples::nqueens::{KNOWN, count_seq, program};

use crate::Bench;
use crate::cli::NqueensArgs;
use crate::harness::{Key, cpu_checked, gpu_checked};

/// Solutions below a board state, in parallel above row `cutoff`, sequential from it on.
fn nqueens_rayon(n: u32, row: u32, cols: u32, dl: u32, dr: u32, cutoff: u32) -> u64 {
    use rayon::prelude::*;
    if row >= n || row >= cutoff {
        return count_seq(n, row, cols, dl, dr);
    }
    let full = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
    let mut free = full & !(cols | dl | dr);
    // The free columns, on the stack (at most one per column).
    let mut bits = [0u32; 32];
    let mut k = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        bits[k] = bit;
        k += 1;
    }
    bits[..k]
        .par_iter()
        .map(|&bit| {
            let (c, l, r) = (cols | bit, (dl | bit) << 1, (dr | bit) >> 1);
            nqueens_rayon(n, row + 1, c, l, r, cutoff)
        })
        .sum()
}

/// The rows of `a`.
pub fn run(b: &mut Bench, a: &NqueensArgs) {
    for &n in &a.n {
        let want = KNOWN[n as usize];
        let what = format!("nqueens({n})");
        for &cutoff in &a.cutoff {
            if let Some(rt) = b.rt.as_mut() {
                let variant = "task per placement above the cutoff, count_seq below";
                let key = Key::new("nqueens", n, "gpu", variant)
                    .cutoff(cutoff)
                    .queues(1);
                let what = format!("{what} cutoff {cutoff}");
                b.h.measure(key, || {
                    let root = program::nqueens(n, 0, 0, 0, 0, cutoff);
                    gpu_checked(&want, &what, || rt.run(root))
                });
            }
        }
        let variant = "count_seq (bitmask, explicit stack)";
        b.h.measure(Key::new("nqueens", n, "seq", variant), || {
            cpu_checked(&want, &what, || count_seq(n, 0, 0, 0, 0))
        });
        let mut cutoffs: Vec<u32> = a.cutoff.iter().chain(&a.rayon_cutoff).copied().collect();
        cutoffs.sort_unstable();
        cutoffs.dedup();
        for cutoff in cutoffs {
            let variant = "par_iter above the cutoff, count_seq below";
            let key = Key::new("nqueens", n, "rayon", variant).cutoff(cutoff);
            b.h.measure(key, || {
                cpu_checked(&want, &what, || nqueens_rayon(n, 0, 0, 0, 0, cutoff))
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rayon_counts() {
        for n in 1..=10 {
            for cutoff in [0, 1, 3, 20] {
                assert_eq!(nqueens_rayon(n, 0, 0, 0, 0, cutoff), KNOWN[n as usize]);
            }
        }
    }
}
