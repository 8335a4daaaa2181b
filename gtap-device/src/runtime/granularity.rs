//! Automatic granularity: at each spawn, whether the runtime makes the child a task or runs
//! the child's sequential version inline, on the spawning thread, at once (the serial
//! elision the macro generates, `Program::run_seq`).
//!
//! A task costs a record, a queue entry and a join; an inline call costs a function call.
//! Tasks are what keeps idle workers busy (they steal queued tasks), and an inline call
//! commits its whole subtree to one thread. So the policy runs a spawn inline only when
//! making it a task would add nothing: the spawning worker already has tasks queued for
//! thieves, and the child is deep enough in the tree that its subtree is likely small. Near
//! the root every spawn is a task, whatever the queues hold, so that the first, largest
//! subtrees spread over every worker before anything is committed to a thread; the deeper
//! ones then run inline while their worker has work to give away, and as tasks again as
//! soon as its queue runs short (thieves took it). Separately, a spawn runs inline whenever
//! the worker is close to running out of records or queue entries, which turns what would
//! be a `PoolExhausted` or `QueueFull` error into sequential work.
//!
//! Inlining pays only where a subtree is cheap to run: it saves a task's fixed cost per
//! node, and on a GPU it costs the spawning lane's warp the whole subtree's time, since the
//! warp's other lanes wait for it at the round's end. Depth alone cannot tell: a program
//! with a hand-written cutoff, or with nodes that carry work of their own, has subtrees at
//! the same depth that take far longer. So a GPU warp times its inline calls against its
//! ordinary rounds (those without one) and, when its inline calls run longer than
//! `backoff_ratio` ordinary rounds, moves its own inline depth a level down the tree
//! ([`adjust_backoff`]). Where subtrees shrink with depth this finds the depth at which they
//! cost a round or two; where they do not (a hand-written cutoff's leaves are never
//! inline, so the smallest inline call is two leaves) the warp goes on moving down, and
//! inlines less and less. The CPU runs one task per thread, with no warp to hold up, and
//! does not back off.
//!
//! The decision is [`run_inline`], one function for both backends, over what each backend
//! sees cheaply at a spawn ([`SpawnView`]: its own queue, its free records, the child's
//! depth); the settings ([`Granularity`]) come from the host's configuration (the GPU's
//! control block, the CPU's run options). A runtime asks only for programs whose tasks have
//! sequential versions (`Program::SEQ`: thread programs), and a program can force a task
//! with `spawn!(task, ..)`.

/// The policy's settings, as the host configured them (`GpuConfig`/`CpuConfig`
/// `auto_granularity`). `repr(C)`: part of the GPU's control block.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Granularity {
    /// Nonzero: the policy is on. Zero: every spawn is a task.
    pub on: u32,
    /// A child at a lower depth (the root is at 0) is always a task, unless memory is short.
    pub min_depth: u32,
    /// A child is a task while the spawning worker's queue holds fewer entries than this.
    pub min_queued: u32,
    /// A child runs inline when the worker has at most this many free records, or its
    /// queue room for at most this many more entries: the margin by which the policy keeps
    /// a run clear of `PoolExhausted` and `QueueFull`.
    pub reserve: u32,
    /// A GPU warp whose inline calls take more than this many of its ordinary rounds
    /// inlines from one level deeper ([`adjust_backoff`]). Zero: never.
    pub backoff_ratio: u32,
}

impl Granularity {
    /// The policy off: every spawn is a task.
    pub const OFF: Granularity = Granularity {
        on: 0,
        min_depth: 0,
        min_queued: 0,
        reserve: 0,
        backoff_ratio: 0,
    };
}

/// What the spawning worker sees at a spawn, each a snapshot it reads without waiting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpawnView {
    /// The child's depth in the task tree (the root's children are at 1).
    pub depth: u32,
    /// Entries waiting in the queue the child would go to (published or about to be),
    /// which thieves may take.
    pub queued: u32,
    /// Records the worker can still take for new tasks.
    pub free_records: u32,
    /// Entries the child's queue can still take.
    pub queue_room: u32,
    /// Levels past `min_depth` from which the spawning worker inlines now
    /// ([`adjust_backoff`]; zero on the CPU).
    pub backoff: u32,
}

/// Whether the spawn `view` describes runs inline (the child's sequential version, now)
/// rather than as a task.
#[inline(always)]
pub fn run_inline(policy: &Granularity, view: SpawnView) -> bool {
    if policy.on == 0 {
        return false;
    }
    let short = view.free_records <= policy.reserve || view.queue_room <= policy.reserve;
    let deep = view.depth >= policy.min_depth.saturating_add(view.backoff);
    short || (deep && view.queued >= policy.min_queued)
}

/// The most levels a worker backs off: past any tree a task runtime can hold.
pub const MAX_BACKOFF: u32 = 1 << 16;

/// A worker's new back-off after a round whose inline calls took `inline_cycles` on average,
/// where its ordinary rounds (without inline calls) take `round_cycles`: one level more if
/// the calls took more than `backoff_ratio` rounds, one level less (not below 0) if they
/// took less than a quarter of that, else the same. The band between keeps a warp whose
/// calls cost about the ratio from stepping back and forth at every round.
#[inline(always)]
pub fn adjust_backoff(
    policy: &Granularity,
    backoff: u32,
    inline_cycles: u64,
    round_cycles: u64,
) -> u32 {
    if policy.backoff_ratio == 0 {
        return 0;
    }
    let limit = round_cycles.saturating_mul(u64::from(policy.backoff_ratio));
    if inline_cycles > limit {
        (backoff + 1).min(MAX_BACKOFF)
    } else if inline_cycles.saturating_mul(4) < limit {
        backoff.saturating_sub(1)
    } else {
        backoff
    }
}

/// `ceil(log2(n))`, 0 for `n <= 1`: the depth at which a binary tree has `n` nodes at one
/// level, from which the hosts derive `min_depth` (enough tasks near the root for every
/// worker before any subtree is committed to one).
pub const fn ceil_log2(n: u32) -> u32 {
    if n <= 1 {
        0
    } else {
        32 - (n - 1).leading_zeros()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ON: Granularity = Granularity {
        on: 1,
        min_depth: 4,
        min_queued: 8,
        reserve: 16,
        backoff_ratio: 0,
    };

    fn view(depth: u32, queued: u32) -> SpawnView {
        SpawnView {
            depth,
            queued,
            free_records: 1000,
            queue_room: 1000,
            backoff: 0,
        }
    }

    #[test]
    fn off_never_runs_inline() {
        let v = SpawnView {
            depth: 100,
            queued: 100,
            free_records: 0,
            queue_room: 0,
            backoff: 0,
        };
        assert!(!run_inline(&Granularity::OFF, v));
    }

    #[test]
    fn near_the_root_or_with_a_short_queue_a_spawn_is_a_task() {
        assert!(!run_inline(&ON, view(3, 1000)), "shallow");
        assert!(!run_inline(&ON, view(40, 7)), "queue short of work");
        assert!(run_inline(&ON, view(4, 8)), "deep, and work queued");
    }

    #[test]
    fn short_of_records_or_queue_room_a_spawn_runs_inline_at_any_depth() {
        let records = SpawnView {
            free_records: 16,
            ..view(0, 0)
        };
        let room = SpawnView {
            queue_room: 3,
            ..view(0, 0)
        };
        assert!(run_inline(&ON, records));
        assert!(run_inline(&ON, room));
    }

    #[test]
    fn a_backed_off_worker_inlines_from_deeper_unless_short_of_memory() {
        let at = |depth, backoff| SpawnView {
            backoff,
            ..view(depth, 1000)
        };
        assert!(run_inline(&ON, at(4, 0)));
        assert!(!run_inline(&ON, at(4, 1)), "backed off a level");
        assert!(run_inline(&ON, at(5, 1)));
        assert!(!run_inline(&ON, at(60_000, MAX_BACKOFF)), "past any tree");
        let short = SpawnView {
            free_records: 1,
            ..at(0, MAX_BACKOFF)
        };
        assert!(run_inline(&ON, short), "memory short");
    }

    #[test]
    fn inline_calls_longer_than_the_ratio_of_rounds_back_off_a_level() {
        let p = Granularity {
            backoff_ratio: 4,
            ..ON
        };
        // Rounds of 100 cycles: more than 400 backs off, under 100 comes back.
        assert_eq!(adjust_backoff(&p, 2, 401, 100), 3);
        assert_eq!(adjust_backoff(&p, 2, 400, 100), 2);
        assert_eq!(adjust_backoff(&p, 2, 100, 100), 2);
        assert_eq!(adjust_backoff(&p, 2, 99, 100), 1);
        assert_eq!(adjust_backoff(&p, 0, 0, 100), 0);
        assert_eq!(adjust_backoff(&p, MAX_BACKOFF, u64::MAX, 1), MAX_BACKOFF);
        assert_eq!(adjust_backoff(&ON, 7, u64::MAX, 1), 0, "ratio 0: never");
    }

    #[test]
    fn ceil_log2_rounds_up() {
        let got: [u32; 7] = [0, 1, 2, 3, 4, 5, 1 << 20].map(ceil_log2);
        assert_eq!(got, [0, 0, 1, 2, 2, 3, 20]);
        assert_eq!(ceil_log2(u32::MAX), 32);
    }
}
