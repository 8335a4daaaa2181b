//! `granularity`: GTaP's worker-granularity study (paper section 6.3, Fig. 7 and 8). The
//! synthetic trees as thread programs (`gpu`, one node per GPU thread) and as block programs
//! (`gpu-block`, one node per thread block), against rayon on every CPU core, over a grid of
//! tree depths, loads per node (`mem_ops`) and FMAs per node (`compute_iters`).
//!
//! Environment (comma-separated lists; every combination runs):
//! - `GTAP_GRAN_TREES`: `full`, `pruned` (default both);
//! - `GTAP_GRAN_FULL_D`: full binary tree depths (default 20);
//! - `GTAP_GRAN_PRUNED_D`: pruned 3-ary tree depths (default 32);
//! - `GTAP_GRAN_MEM_OPS`, `GTAP_GRAN_COMPUTE_ITERS`: per-node work (default 256 each).
//!
//! GTaP's sweeps (its repository, `evaluation/2-comparison/{binary_tree,prob_Bary_tree}`):
//! one parameter varies, the others stay at their defaults above: full tree D = 10..22,
//! pruned D = 20..34, mem_ops = 8..8192 and compute_iters = 64..32768 by powers of two
//! (at D = 20 for the full tree, 32 for the pruned one), grid 1000 blocks of 64 threads for
//! both granularities. `scripts/sweep-granularity.sh` runs them.
//!
//! Every GPU result is checked: against the rayon result of the same tree, or under
//! `--gpu-only` (no CPU runs, which take minutes at the largest points) the block program's
//! against the thread program's (the tests check both against the sequential reference).

use rayon::prelude::*;

use gtap_examples::buf::Rng;
use gtap_examples::{tree, tree_block};
use gtap_host::gpu_runtime::{GpuRunError, GpuRuntime, GpuStats};

use super::blocks::measure_block;
use super::{Harness, TREE_TABLE, dptr, env_list, note, timed, tree_rayon, upload};

/// The pruned tree's `(count, checksum)` with rayon.
fn pruned_rayon(d: u32, max_depth: u32, id: u64, w: tree::Work) -> (u64, u64) {
    let kept = tree::kept_children(id, d, max_depth);
    let (n, sum) = kept.ids[..kept.len as usize]
        .par_iter()
        .map(|&child| pruned_rayon(d + 1, max_depth, child, w))
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1.wrapping_add(b.1)));
    (n + 1, sum.wrapping_add(tree::node_work(id, w)))
}

/// Which synthetic tree.
#[derive(Clone, Copy, PartialEq)]
enum Tree {
    Full,
    Pruned,
}

impl Tree {
    fn label(self) -> &'static str {
        match self {
            Tree::Full => "full binary tree",
            Tree::Pruned => "pruned 3-ary tree",
        }
    }

    fn reference(self, depth: u32, w: tree::Work) -> (u64, u64) {
        match self {
            Tree::Full => tree_rayon(depth, 0, w),
            Tree::Pruned => pruned_rayon(0, depth, 0, w),
        }
    }
}

pub fn run(h: &mut Harness) {
    let trees: Vec<Tree> = match std::env::var("GTAP_GRAN_TREES") {
        Ok(v) => v
            .split(',')
            .filter_map(|t| match t.trim() {
                "full" => Some(Tree::Full),
                "pruned" => Some(Tree::Pruned),
                other => {
                    eprintln!("GTAP_GRAN_TREES: unknown tree `{other}` (full, pruned)");
                    None
                }
            })
            .collect(),
        Err(_) => vec![Tree::Full, Tree::Pruned],
    };
    let full_depths = env_list("GTAP_GRAN_FULL_D").unwrap_or_else(|| vec![20]);
    let pruned_depths = env_list("GTAP_GRAN_PRUNED_D").unwrap_or_else(|| vec![32]);
    let mem_ops = env_list("GTAP_GRAN_MEM_OPS").unwrap_or_else(|| vec![256]);
    let compute_iters = env_list("GTAP_GRAN_COMPUTE_ITERS").unwrap_or_else(|| vec![256]);

    let mut rng = Rng::new(7);
    let table: &'static [u64] = Box::leak(
        (0..TREE_TABLE)
            .map(|_| rng.next())
            .collect::<Vec<_>>()
            .into_boxed_slice(),
    );
    let mut gpu = h.gpu.take();
    let dtable = gpu.as_ref().map(|rt| upload(rt.gpu(), table));

    for &which in &trees {
        let depths = match which {
            Tree::Full => &full_depths,
            Tree::Pruned => &pruned_depths,
        };
        for &depth in depths {
            for &m in &mem_ops {
                for &c in &compute_iters {
                    let host = tree::Work::new(table, m, c);
                    let label = format!("{} D={depth}, mem {m}, fma {c}", which.label());
                    // The CPU's result, unless the CPU is not measured: then the thread
                    // program's, which the block program must equal (the CPU would take
                    // minutes at the largest points).
                    let mut want = (!h.gpu_only).then(|| which.reference(depth, host));
                    if let (Some(rt), Some(dtable)) = (gpu.as_mut(), &dtable) {
                        // SAFETY: the device table holds TREE_TABLE u64s and outlives the runs.
                        let w = unsafe {
                            tree::Work::from_raw(
                                dptr(rt.gpu(), dtable) as *const u64,
                                TREE_TABLE,
                                m,
                                c,
                            )
                        };
                        let want = *want.get_or_insert_with(|| {
                            run_thread(rt, which, depth, w)
                                .unwrap_or_else(|e| panic!("{label} on the GPU: {e}"))
                                .0
                        });
                        gpu_thread(h, rt, which, &label, depth, w, want);
                        gpu_block(h, rt, which, &label, depth, w, want);
                    }
                    let Some(want) = want else { continue };
                    h.measure(label, "rayon", || {
                        let (t, v) = timed(|| which.reference(depth, host));
                        assert_eq!(v, want);
                        (t, 0)
                    });
                }
            }
        }
    }
    h.gpu = gpu;
}

/// One run of the thread program (one node per GPU thread).
fn run_thread(
    rt: &mut GpuRuntime,
    which: Tree,
    depth: u32,
    w: tree::Work,
) -> Result<((u64, u64), GpuStats), GpuRunError> {
    match which {
        Tree::Full => rt.run(tree::full_binary::node(depth, 0, w)),
        Tree::Pruned => rt.run(tree::pruned::node(0, depth, 0, w)),
    }
}

/// Measures the thread program.
fn gpu_thread(
    h: &mut Harness,
    rt: &mut GpuRuntime,
    which: Tree,
    label: &str,
    depth: u32,
    w: tree::Work,
    want: (u64, u64),
) {
    h.measure(label.to_string(), "gpu", || {
        let (v, s) =
            run_thread(rt, which, depth, w).unwrap_or_else(|e| panic!("{label} on the GPU: {e}"));
        assert_eq!(v, want, "{label} on the GPU");
        note(s)
    });
}

/// The block program (one node per thread block).
fn gpu_block(
    h: &mut Harness,
    rt: &mut GpuRuntime,
    which: Tree,
    label: &str,
    depth: u32,
    w: tree::Work,
    want: (u64, u64),
) {
    measure_block(h, rt, label, |rt| {
        let (v, s) = match which {
            Tree::Full => rt.run(tree_block::full_binary_block::node(depth, 0, w)),
            Tree::Pruned => rt.run(tree_block::pruned_block::node(0, depth, 0, w)),
        }?;
        assert_eq!(v, want, "{label}, block program, on the GPU");
        Ok(s)
    });
}
