//! `uts`: Unbalanced Tree Search on UTS's sample trees, one GPU task per node (and per span
//! of a wide node's children), every run's count checked against the size UTS publishes; and
//! the same without joins (`uts::detached`), its node count the tasks the GPU ran.
//! CPU baselines: the sequential walk with an explicit stack, and rayon's own recursion (a
//! parallel iterator over each node's children) in a pool whose threads have stacks deep
//! enough for T3L's 17,844 levels. All three hash with the same SHA-1 code. The tree is never
//! stored (a node's state travels in its task's arguments), so the e2e time is the host call.

use gtap_examples::uts::{self, Sample, detached, program};

use crate::Bench;
use crate::cli::UtsArgs;
use crate::harness::{Key, cpu_checked, gpu_checked};

/// The rows of `a`.
pub fn run(b: &mut Bench, a: &UtsArgs) {
    let pool = uts::rayon_pool(rayon::current_num_threads());
    for s in &a.tree {
        let s = Sample::named(s.name()).expect("every --tree value is a sample");
        let (tree, want) = (s.tree(), s.want);
        eprintln!(
            "uts {} ({}): {} nodes, {} leaves, depth {} (UTS's published size)",
            s.name, s.args, want.nodes, want.leaves, want.depth
        );
        let what = format!("uts {}", s.name);
        if let Some(rt) = b.rt.as_mut() {
            let key = Key::new("uts", s.name, "gpu", "task per node, joined").queues(1);
            b.h.measure(key, || {
                gpu_checked(&want, &what, || rt.run(program::root(tree)))
            });
            // Without joins the count is the runtime's: the tasks run.
            let key = Key::new("uts", s.name, "gpu", "task per node, detached").queues(1);
            b.h.measure(key, || {
                gpu_checked(&want.nodes, &what, || {
                    rt.run(detached::root(tree)).map(|((), s)| (s.tasks, s))
                })
            });
        }
        b.h.measure(Key::new("uts", s.name, "seq", "explicit stack"), || {
            cpu_checked(&want, &what, || uts::count_sequential(&tree))
        });
        let key = Key::new("uts", s.name, "rayon", "par_iter over each node's children");
        b.h.measure(key, || {
            cpu_checked(&want, &what, || pool.install(|| uts::count_rayon(&tree)))
        });
    }
}
