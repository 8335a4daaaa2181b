//! `tree`: the synthetic full binary tree, one GPU task per node, each node doing loads from a
//! table and FMAs. CPU baselines: the sequential recursion and rayon with a join per node (a
//! node's work, hundreds of loads and FMAs, dwarfs a join, so a cutoff would change little).
//! The table stays in device memory across runs; the e2e time is the host call.

use gtap_examples::rng::Rng;
use gtap_examples::tree;

use crate::Bench;
use crate::cli::TreeArgs;
use crate::harness::{Key, cpu_checked, gpu_checked};

/// Entries of the synthetic trees' table (8 MiB of `u64`), the same on the GPU and the CPU.
pub const TREE_TABLE: usize = 1 << 20;

/// The trees' table of random words, for the life of the process.
pub fn table() -> &'static [u64] {
    let mut rng = Rng::new(7);
    Box::leak(
        (0..TREE_TABLE)
            .map(|_| rng.next())
            .collect::<Vec<_>>()
            .into_boxed_slice(),
    )
}

/// The full binary tree's `(nodes, checksum)` with a rayon join per node.
pub fn tree_rayon(depth: u32, id: u64, w: tree::Work<'_>) -> (u64, u64) {
    let own = (1, tree::node_work(id, w));
    if depth == 0 {
        return own;
    }
    let (l, r) = rayon::join(
        || tree_rayon(depth - 1, 2 * id + 1, w),
        || tree_rayon(depth - 1, 2 * id + 2, w),
    );
    (own.0 + l.0 + r.0, own.1.wrapping_add(l.1).wrapping_add(r.1))
}

/// The rows of `a`.
pub fn run(b: &mut Bench, a: &TreeArgs) {
    let (depth, mem_ops, iters) = (a.depth, a.mem_ops, a.compute_iters);
    let table = table();
    let host_work = tree::Work::new(table, mem_ops, iters);
    let want = tree_rayon(depth, 0, host_work);
    let name = "full binary tree";
    let variant = |v: &str| format!("{v}, mem {mem_ops}, fma {iters}");
    if let Some(rt) = b.rt.as_mut() {
        let dtable = gtap::DeviceVec::from_slice(rt.gpu(), table).expect("upload");
        let w = tree::Work::from_view(dtable.view(), mem_ops, iters);
        let key = Key::new(name, depth, "gpu", variant("task per node")).queues(1);
        b.h.measure(key, || {
            gpu_checked(&want, name, || rt.run(tree::full_binary::node(depth, 0, w)))
        });
    }
    b.h.measure(Key::new(name, depth, "seq", variant("recursive")), || {
        cpu_checked(&want, name, || {
            tree::full_binary_reference(depth, 0, host_work)
        })
    });
    b.h.measure(
        Key::new(name, depth, "rayon", variant("join per node")),
        || cpu_checked(&want, name, || tree_rayon(depth, 0, host_work)),
    );
}
