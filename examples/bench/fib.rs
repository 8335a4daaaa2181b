//! `fib`: Fibonacci with one task per call and no cutoff on the GPU (GTaP's task-overhead
//! benchmark). CPU baselines: plain recursion; rayon with a join per call (the GPU's
//! algorithm); and rayon with a join only in the top levels and recursion below, which is
//! how one writes it for rayon, so that a join costs next to nothing against its work.
//! The GPU's fib is split by the runtime by default (`--split-calls 0`: one decision per
//! spawn); with `--split-budget`, GPU rows of the hand-written prototype (`fib::split`).

use std::hint::black_box;

use gtap_examples::fib::{program, reference, split};

use crate::Bench;
use crate::cli::FibArgs;
use crate::harness::{Key, cpu_checked, gpu_checked};

/// `fib(n)` by recursion.
fn fib_seq(n: u32) -> u64 {
    if n < 2 {
        n as u64
    } else {
        fib_seq(n - 1) + fib_seq(n - 2)
    }
}

/// `fib(n)` with a rayon join at every call of `n > cutoff`, recursion at or below it.
fn fib_rayon(n: u32, cutoff: u32) -> u64 {
    if n <= cutoff.max(1) {
        return fib_seq(n);
    }
    let (a, b) = rayon::join(|| fib_rayon(n - 1, cutoff), || fib_rayon(n - 2, cutoff));
    a + b
}

/// The rows of `a`.
pub fn run(b: &mut Bench, a: &FibArgs) {
    for &n in &a.n {
        let want = reference(n);
        let what = format!("fib({n})");
        if let Some(rt) = b.rt.as_mut() {
            let key = Key::new("fib", n, "gpu", "task per call, no cutoff").queues(1);
            b.h.measure(key, || {
                gpu_checked(&want, &what, || rt.run(program::fib(n)))
            });
            for r in a.split.rows("calls") {
                let key = Key::new("fib", n, "gpu", r.variant).queues(1);
                let root = || split::fib_split(n, r.budget, r.grow, r.max);
                b.h.measure(key, || gpu_checked(&want, &what, || rt.run(root())));
            }
        }
        b.h.measure(Key::new("fib", n, "seq", "recursive"), || {
            cpu_checked(&want, &what, || fib_seq(black_box(n)))
        });
        let key = Key::new("fib", n, "rayon", "join per call, no cutoff");
        b.h.measure(key, || {
            cpu_checked(&want, &what, || fib_rayon(black_box(n), 0))
        });
        for &levels in &a.rayon_levels {
            // Fewer than two levels below n would leave nothing to join above the cutoff.
            if levels == 0 || levels + 2 > n {
                continue;
            }
            let cutoff = n - levels;
            let key = Key::new("fib", n, "rayon", "join above the cutoff, recursive below")
                .cutoff(cutoff);
            b.h.measure(key, || {
                cpu_checked(&want, &what, || fib_rayon(black_box(n), cutoff))
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn baselines_agree() {
        for n in [0, 1, 2, 10, 20] {
            assert_eq!(fib_seq(n), reference(n));
            assert_eq!(fib_rayon(n, 0), reference(n));
            assert_eq!(fib_rayon(n, 5), reference(n));
        }
    }
}
