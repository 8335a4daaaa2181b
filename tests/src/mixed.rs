//! A program with both kinds of task, for the tests of mixed programs: thread tasks that
//! spawn block tasks and join them with their results, block tasks that spawn thread tasks
//! block-wide (with a result) and per thread (without). Both backends run it
//! (`mixed_cpu.rs`, `mixed_gpu.rs`).

/// The program.
#[gtap::program(name = "mixed")]
pub mod program {
    use gtap::Block;

    use crate::lang::Counter;

    /// A thread task: a chain of `n` levels, each joining a block task with its result.
    /// Returns `sum over k in 1..=n of (team size + k^2)` ([`super::walk_reference`]).
    #[gtap::task]
    pub fn walk(counter: Counter, n: u32) -> u64 {
        if n == 0 {
            return 0;
        }
        let rest = spawn!(walk(counter, n - 1));
        let here = spawn!(team_step(counter, n));
        taskwait!();
        rest.get() + here.get()
    }

    /// A block task: every thread spawns one thread task of its own (per-thread, no handle),
    /// and the team spawns one block-wide with a handle; returns the team's size plus that
    /// child's result.
    #[gtap::task(block)]
    pub fn team_step(b: Block, counter: Counter, n: u32) -> u64 {
        spawn!(bump(counter));
        let sq = spawn!(square(n));
        taskwait!();
        u64::from(b.size()) + sq.get()
    }

    /// A thread task with a result.
    #[gtap::task]
    pub fn square(n: u32) -> u64 {
        u64::from(n) * u64::from(n)
    }

    /// A thread task without one: adds 1 to the counter.
    #[gtap::task]
    pub fn bump(counter: Counter) {
        counter.add(1);
    }
}

/// What [`program::walk`]`(counter, n)` returns on teams of `team` threads; the counter ends
/// at `n * team`.
pub fn walk_reference(n: u32, team: u32) -> u64 {
    (1..=u64::from(n)).map(|k| u64::from(team) + k * k).sum()
}
