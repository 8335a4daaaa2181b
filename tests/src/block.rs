//! A block program (`#[gtap::task(block)]`) for the tests of block tasks: block-wide spawns
//! with results, per-thread spawns without, the team barrier and scratch memory, three
//! planted mistakes the runtime must catch, and a planted panic.

/// The program.
#[gtap::program(name = "blocks")]
pub mod program {
    use gtap::{Block, TeamMut};

    use crate::lang::Counter;

    /// The sum `0 + 1 + .. + (size - 1)` over the team's thread indices, through the scratch
    /// memory and the barrier (every thread returns the same value).
    fn team_sum(b: Block) -> u64 {
        let scratch = b.scratch().cast::<u64>();
        // SAFETY: the scratch holds at least one u64 per thread (the tests configure it).
        unsafe { scratch.add(b.index() as usize).write(u64::from(b.index())) };
        b.sync();
        let total = (0..b.size() as usize)
            // SAFETY: written by every thread before the barrier.
            .map(|i| unsafe { scratch.add(i).read() })
            .sum();
        // Nobody may overwrite the scratch (in the next task) before everyone read it.
        b.sync();
        total
    }

    /// A full binary tree of depth `depth`, spawned block-wide: returns its node count plus,
    /// per node, the team's index sum (so `(2^(depth+1) - 1) * (1 + size*(size-1)/2)`).
    #[gtap::task(block)]
    pub fn tree(b: Block, depth: u32) -> u64 {
        let own = 1 + team_sum(b);
        if depth == 0 {
            return own;
        }
        let l = spawn!(tree(depth - 1));
        let r = spawn!(tree(depth - 1));
        taskwait!();
        own + l.get() + r.get()
    }

    /// Each thread spawns its own children (no handles): thread `i < fanout` spawns one, down
    /// to depth 0. Every task adds 1 to `counter`: `(fanout^(depth+1) - 1) / (fanout - 1)`.
    #[gtap::task(block)]
    pub fn fan(b: Block, counter: Counter, depth: u32, fanout: u32) {
        if b.is_leader() {
            counter.add(1);
        }
        if depth > 0 && b.index() < fanout {
            spawn!(fan(counter, depth - 1, fanout));
        }
    }

    /// `fan`, then a taskwait that joins the per-thread children of the whole team, then
    /// returns what the counter says: a join over children spawned by several threads.
    #[gtap::task(block)]
    pub fn fan_then_read(b: Block, counter: Counter, depth: u32, fanout: u32) -> u64 {
        if depth > 0 && b.index() < fanout {
            spawn!(fan(counter, depth - 1, fanout));
        }
        taskwait!();
        counter.get()
    }

    /// A leaf with a value.
    #[gtap::task(block)]
    pub fn leaf(_b: Block, v: u64) -> u64 {
        v
    }

    /// `value`, from a chain of `depth` block tasks below this one (each waits for the
    /// next); at the bottom, team thread `thread` panics when `bad` is not 0 (a planted
    /// panic, on the leader or on a follower).
    #[gtap::task(block)]
    pub fn panic_on_thread(b: Block, depth: u32, thread: u32, bad: u32, value: u64) -> u64 {
        if depth > 0 {
            let h = spawn!(panic_on_thread(depth - 1, thread, bad, value));
            taskwait!();
            return h.get();
        }
        assert!(
            bad == 0 || b.index() != thread,
            "planted panic on thread {thread}"
        );
        value
    }

    /// A block-wide pass from `x` into `y` (`y[i] = x[i] + 1`), except that with `bad` not 0
    /// the team's last thread passes the other way (a planted mistake that `pass_from` must
    /// catch before any thread reads or writes). Returns the team's size.
    #[gtap::task(block)]
    pub fn pass(b: Block, mut x: TeamMut<'_, u32>, mut y: TeamMut<'_, u32>, bad: u32) -> u64 {
        let (lo, _) = y.share_bounds(b);
        if bad != 0 && b.index() + 1 == b.size() {
            x.pass_from(b, &mut y, |_, out| out.fill(u32::MAX));
        } else {
            y.pass_from(b, &mut x, |src, out| {
                for (k, o) in out.iter_mut().enumerate() {
                    *o = src[lo + k] + 1;
                }
            });
        }
        u64::from(b.size())
    }

    /// Planted mistake: only the leader reaches the taskwait.
    #[gtap::task(block)]
    pub fn divergent(b: Block) -> u64 {
        if b.is_leader() {
            let h = spawn!(leaf(1));
            taskwait!();
            return h.get();
        }
        0
    }

    /// Planted mistake: a per-thread value lives across a taskwait.
    #[gtap::task(block)]
    pub fn non_uniform(b: Block) -> u64 {
        let mine = u64::from(b.index());
        let h = spawn!(leaf(1));
        taskwait!();
        mine + h.get()
    }
}

/// What `tree(depth)` returns on a team of `size` threads.
pub fn tree_expected(depth: u32, size: u32) -> u64 {
    let nodes = (1u64 << (depth + 1)) - 1;
    let size = u64::from(size);
    nodes * (1 + size * (size - 1) / 2)
}

/// Tasks of `fan(_, depth, fanout)` (fanout ≥ 2).
pub fn fan_expected(depth: u32, fanout: u32) -> u64 {
    let f = u64::from(fanout);
    (f.pow(depth + 1) - 1) / (f - 1)
}
