//! `nqueens`: N-Queens by bitmask backtracking, one GPU task per partial placement above the
//! cutoff row and a sequential count below; joined (parents sum their children's counts) and
//! detached (leaves add to a shared counter, GTaP's form). CPU baselines: the sequential
//! count of the whole board; rayon with the same algorithm at the GPU's cutoff, and at
//! coarser cutoffs, which a CPU wants (a few thousand leaves keep every core busy).
//! With `--split-budget`, GPU rows of the search split by a budget (`nqueens::split`); with
//! `--form auto`, rows of the search with no cutoff in the source (`nqueens::auto`).

use gtap::DeviceVec;
use gtap::host::gpu_runtime::GpuRuntime;
use gtap_examples::nqueens::{KNOWN, auto, count_seq, detached, program, split};

use crate::Bench;
use crate::cli::{NqueensArgs, NqueensForm};
use crate::harness::{Harness, Key, cpu_checked, gpu_checked};

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

/// One GPU row: `form`'s program for `n` at `cutoff` (none for `auto`), its count checked.
fn gpu_row(
    h: &mut Harness,
    rt: &mut GpuRuntime,
    form: NqueensForm,
    n: u32,
    cutoff: u32,
    what: &str,
) {
    let want = KNOWN[n as usize];
    match form {
        NqueensForm::Joined => {
            let variant = "task per placement above the cutoff, count_seq below";
            let key = Key::new("nqueens", n, "gpu", variant)
                .cutoff(cutoff)
                .queues(1);
            h.measure(key, || {
                let root = program::nqueens(n, 0, 0, 0, 0, cutoff);
                gpu_checked(&want, what, || rt.run(root))
            });
        }
        NqueensForm::Detached => {
            let variant = "as joined, no taskwait: leaves add to a shared counter";
            let key = Key::new("nqueens-detached", n, "gpu", variant)
                .cutoff(cutoff)
                .queues(1);
            let mut count = DeviceVec::<u64>::zeros(rt, 1).expect("device memory");
            let what = format!("{what}, detached");
            h.measure(key, || {
                // End to end: the counter's reset and its read-back are part of the run.
                gpu_checked(&want, &what, || {
                    count.copy_from(&[0]).expect("upload");
                    let root = detached::nqueens(n, 0, 0, 0, 0, cutoff, count.atomics());
                    let ((), s) = rt.run(root)?;
                    Ok((count.to_vec().expect("download")[0], s))
                })
            });
        }
        NqueensForm::Auto => {
            let variant = "task per placement, no cutoff: count_seq where the policy elides";
            let key = Key::new("nqueens-auto", n, "gpu", variant).queues(1);
            h.measure(key, || {
                gpu_checked(&want, what, || rt.run(auto::nqueens(n, 0, 0, 0, 0)))
            });
        }
    }
}

/// The rows of `a`.
pub fn run(b: &mut Bench, a: &NqueensArgs) {
    for &n in &a.n {
        let want = KNOWN[n as usize];
        let what = format!("nqueens({n})");
        let cut = a.form.iter().filter(|&&f| f != NqueensForm::Auto);
        for &cutoff in &a.cutoff {
            for &form in cut.clone() {
                if let Some(rt) = b.rt.as_mut() {
                    let what = format!("{what} cutoff {cutoff}");
                    gpu_row(&mut b.h, rt, form, n, cutoff, &what);
                }
            }
        }
        if let Some(rt) = b.rt.as_mut() {
            if a.form.contains(&NqueensForm::Auto) {
                gpu_row(&mut b.h, rt, NqueensForm::Auto, n, n, &what);
            }
            for r in a.split.rows("placements") {
                let key = Key::new("nqueens-split", n, "gpu", r.variant).queues(1);
                let root = || split::nqueens(n, 0, 0, 0, 0, r.budget, r.grow, r.max);
                b.h.measure(key, || gpu_checked(&want, &what, || rt.run(root())));
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
