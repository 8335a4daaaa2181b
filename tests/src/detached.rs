//! A task program with no `taskwait!()` anywhere, for the tests of the GPU runtime's mode that
//! skips join bookkeeping (`Program::HAS_TASKWAIT == false`): tasks complete when they
//! return, and the run ends when every task spawned has completed, counted per warp.

/// The program.
#[gtap::program(name = "detached")]
pub mod program {
    use crate::lang::Counter;

    /// Adds 1 to `counter`, then spawns `fanout` children down to depth 0: a full tree of
    /// `(fanout^(depth+1) - 1) / (fanout - 1)` tasks, each leaving its mark.
    #[gtap::task]
    pub fn tree(counter: Counter, depth: u32, fanout: u32) {
        counter.add(1);
        if depth > 0 {
            for _ in 0..fanout {
                spawn!(tree(counter, depth - 1, fanout));
            }
        }
    }

    /// A chain: each task spawns the next until `n` reaches 0, and adds `n` to `counter`.
    #[gtap::task]
    pub fn chain(counter: Counter, n: u32) {
        counter.add(n as u64);
        if n > 0 {
            spawn!(chain(counter, n - 1));
        }
    }

    /// The root returns a value while its tree is still running.
    #[gtap::task]
    pub fn root(counter: Counter, depth: u32, fanout: u32) -> u64 {
        spawn!(tree(counter, depth, fanout));
        spawn!(chain(counter, depth * 10));
        7
    }
}

/// Tasks of `tree(_, depth, fanout)`.
pub fn tree_tasks(depth: u32, fanout: u64) -> u64 {
    (0..=depth).map(|d| fanout.pow(d)).sum()
}
