//! `granularity`: GTaP's worker-granularity study (paper section 6.3, Fig. 7 and 8). The
//! synthetic trees as thread programs (`gpu`, one node per GPU thread), as block programs
//! (`gpu-block`, one node per thread block) and as mixed programs (`gpu-mixed`: one node per
//! GPU thread, the work of a heavy node on a block, heavy from `--heavy-mem` loads or
//! `--heavy-fma` FMAs, the thresholds in the cutoff column), against rayon on every CPU core,
//! over every combination of the tree depths, loads per node (`--mem-ops`) and FMAs per node
//! (`--compute-iters`) given. Rows: benchmark `full binary tree` or `pruned 3-ary tree`, size
//! the depth, variant `mem M, fma F`.
//!
//! GTaP's sweeps (its repository, `evaluation/2-comparison/{binary_tree,prob_Bary_tree}`):
//! one parameter varies, the others stay at the defaults: full tree D = 10..22, pruned
//! D = 20..34, mem_ops = 8..8192 and compute_iters = 64..32768 by powers of two (at D = 20
//! for the full tree, 32 for the pruned one), grid 1000 blocks of 64 threads for both
//! granularities. `scripts/sweep-granularity.sh` runs them.
//!
//! Every GPU result is checked: against the rayon result of the same tree, or under
//! `--gpu-only` (no CPU runs, which take minutes at the largest points) the block and mixed
//! programs' against the thread program's (the tests check all three against the sequential
//! reference). The mixed rows run on blocks of `--team` threads (default: `--block`).

use rayon::prelude::*;

use gtap::host::gpu_runtime::{GpuRunError, GpuRuntime, GpuStats};
use gtap_examples::tree_mixed::{self, Heavy};
use gtap_examples::{tree, tree_block};

use crate::Bench;
use crate::blocks::{measure_block, measure_under, mixed_config};
use crate::cli::{GpuArgs, GranularityArgs, TreeKind, fmt_degree};

use crate::harness::{Harness, Key, Sample, cpu_checked, timed};
use crate::tree::{table, tree_rayon};

/// The pruned tree's `(count, checksum)` with rayon.
fn pruned_rayon(d: u32, max_depth: u32, id: u64, w: tree::Work<'_>) -> (u64, u64) {
    let kept = tree::kept_children(id, d, max_depth);
    let (n, sum) = kept.ids[..kept.len as usize]
        .par_iter()
        .map(|&child| pruned_rayon(d + 1, max_depth, child, w))
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1.wrapping_add(b.1)));
    (n + 1, sum.wrapping_add(tree::node_work(id, w)))
}

impl TreeKind {
    fn label(self) -> &'static str {
        match self {
            TreeKind::Full => "full binary tree",
            TreeKind::Pruned => "pruned 3-ary tree",
        }
    }

    fn reference(self, depth: u32, w: tree::Work<'_>) -> (u64, u64) {
        match self {
            TreeKind::Full => tree_rayon(depth, 0, w),
            TreeKind::Pruned => pruned_rayon(0, depth, 0, w),
        }
    }
}

/// One point of the study: a tree, its depth, and its per-node work.
#[derive(Clone, Copy)]
struct Point {
    which: TreeKind,
    depth: u32,
    mem_ops: u32,
    iters: u32,
}

impl Point {
    fn key(self, backend: &'static str) -> Key {
        let variant = format!("mem {}, fma {}", self.mem_ops, self.iters);
        Key::new(self.which.label(), self.depth, backend, variant)
    }
}

/// The rows of `a`.
pub fn run(b: &mut Bench, a: &GranularityArgs) {
    let table = table();
    let dtable =
        b.rt.as_ref()
            .map(|rt| gtap::DeviceVec::from_slice(rt.gpu(), table).expect("upload"));
    for &which in &a.trees {
        let depths = match which {
            TreeKind::Full => &a.full_depth,
            TreeKind::Pruned => &a.pruned_depth,
        };
        for &depth in depths {
            for &mem_ops in &a.mem_ops {
                for &iters in &a.compute_iters {
                    let p = Point {
                        which,
                        depth,
                        mem_ops,
                        iters,
                    };
                    let host = tree::Work::new(table, mem_ops, iters);
                    // The CPU's result, unless the CPU is not measured: then the thread
                    // program's, which the block program must equal.
                    let mut want = (!b.h.gpu_only()).then(|| which.reference(depth, host));
                    if let (Some(rt), Some(dtable)) = (b.rt.as_mut(), &dtable) {
                        let w = tree::Work::from_view(dtable.view(), mem_ops, iters);
                        let want = *want.get_or_insert_with(|| {
                            run_thread(rt, p, w)
                                .unwrap_or_else(|e| {
                                    panic!("{} on the GPU: {e}", p.key("gpu").label())
                                })
                                .0
                        });
                        gpu_rows(&mut b.h, rt, &b.gpu, p, w, want);
                        let heavy = Heavy {
                            mem_ops: a.heavy_mem,
                            compute_iters: a.heavy_fma,
                        };
                        mixed_row(&mut b.h, rt, a.team, p, w, heavy, want);
                    }
                    let Some(want) = want else { continue };
                    b.h.measure(p.key("rayon"), || {
                        cpu_checked(&want, which.label(), || which.reference(depth, host))
                    });
                }
            }
        }
    }
}

/// One run of the thread program (one node per GPU thread).
fn run_thread(
    rt: &mut GpuRuntime,
    p: Point,
    w: tree::Work<'_>,
) -> Result<((u64, u64), GpuStats), GpuRunError> {
    match p.which {
        TreeKind::Full => rt.run(tree::full_binary::node(p.depth, 0, w)),
        TreeKind::Pruned => rt.run(tree::pruned::node(0, p.depth, 0, w)),
    }
}

/// The thread program's row and the block program's (one node per thread block).
fn gpu_rows(
    h: &mut Harness,
    rt: &mut GpuRuntime,
    args: &GpuArgs,
    p: Point,
    w: tree::Work<'_>,
    want: (u64, u64),
) {
    let label = p.key("gpu").label();
    h.measure(p.key("gpu").queues(1), || {
        let (e2e, r) = timed(|| run_thread(rt, p, w));
        let (v, s) = r.unwrap_or_else(|e| panic!("{label} on the GPU: {e}"));
        assert_eq!(v, want, "{label} on the GPU");
        Sample::gpu(s, e2e)
    });
    let key = p.key("gpu-block").queues(1);
    let label = key.label();
    measure_block(h, rt, args, key, |rt| {
        let (e2e, r) = timed(|| match p.which {
            TreeKind::Full => rt.run(tree_block::full_binary_block::node(p.depth, 0, w)),
            TreeKind::Pruned => rt.run(tree_block::pruned_block::node(0, p.depth, 0, w)),
        });
        let (v, s) = r?;
        assert_eq!(v, want, "{label} on the GPU");
        Ok(Sample::gpu(s, e2e))
    });
}

/// The mixed program's row: thread tasks, the work of heavy nodes on blocks of `team` threads
/// (default: the harness's block).
fn mixed_row(
    h: &mut Harness,
    rt: &mut GpuRuntime,
    team: Option<u32>,
    p: Point,
    w: tree::Work,
    heavy: Heavy,
    want: (u64, u64),
) {
    let team = team.unwrap_or_else(|| rt.config().launch().block());
    let config = mixed_config(rt.config(), team, None);
    let thresholds = format!(
        "heavy from mem {} or fma {}, teams of {team}",
        fmt_degree(heavy.mem_ops),
        fmt_degree(heavy.compute_iters)
    );
    let key = p.key("gpu-mixed").cutoff(thresholds).queues(1);
    let label = key.label();
    measure_under(h, rt, config, key, |rt| {
        let (e2e, r) = timed(|| match p.which {
            TreeKind::Full => rt.run(tree_mixed::full_binary_mixed::node(p.depth, 0, w, heavy)),
            TreeKind::Pruned => rt.run(tree_mixed::pruned_mixed::node(0, p.depth, 0, w, heavy)),
        });
        let (v, s) = r?;
        assert_eq!(v, want, "{label} on the GPU");
        Ok(Sample::gpu(s, e2e))
    });
}
