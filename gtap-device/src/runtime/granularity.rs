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
//! A spawn into another queue than the one the running task came from stays a task (unless
//! memory is short): the program put the two kinds of task in separate queues (EPAQ) so that
//! each queue's rounds run one kind, and an inline call would run the child's kind in the
//! other's rounds, the divergent mix the queues are there to avoid.
//!
//! Inlining pays only where a subtree is cheap to run: it saves a task's fixed cost per
//! node, and on a GPU it costs the spawning lane's warp the whole subtree's time, since the
//! warp's other lanes wait for it at the round's end. Depth alone cannot tell: a program
//! with a hand-written cutoff, or with nodes that carry work of their own, has subtrees at
//! the same depth that take far longer. So a GPU warp times its inline calls against its
//! ordinary rounds (those without one, of tasks from the same EPAQ queue) and, when its
//! inline calls run longer than `backoff_ratio` ordinary rounds, moves its own inline depth
//! a level down the tree ([`adjust_backoff`]), and when they take less than a round, a level
//! up (at most [`MAX_LIFT`] levels above where it started). Where subtrees shrink with depth
//! this finds the depth at which they cost a round or two. Where they do not (below a
//! hand-written cutoff the smallest inline call is two sequential leaves) the length of a
//! call says too little, so the warp also
//! weighs what a round's calls cost it against what they saved: the time the round took
//! past an ordinary one, times the lanes it held, against the calls' own work plus a few
//! lane-rounds for each task they saved (the generated sequential versions count the
//! spawns they run as calls, `Program::run_seq`). Calls that cost more than they save move
//! the warp down a level, round after round, until it no longer inlines
//! ([`costs_more_than_it_saves`]). Both measure a call only after it ran, and each warp
//! learns alone; where the leaves are heavy, each warp's first calls are already the
//! damage. So a warp also counts its ordinary rounds of heavy leaf tasks, which such a
//! program runs long before its tree is deep enough to inline, and after a few it stops
//! inlining ([`heavy_leaf_round`]); so does every warp once the grid has seen enough of
//! them, and they are common among its rounds ([`grid_heavy_leaves`]: most warps of such a
//! program run too few leaf rounds to judge alone). The CPU runs one task per thread, with
//! no warp to hold up, and does not back off.
//!
//! The depth from which spawns may run inline is `min_depth` (the host's, from the number of
//! lanes: enough levels of a binary tree for every lane to have tasks), or shallower where
//! the tree is wider. On a GPU two rules find where ([`SpawnView::from_depth`]), and every
//! warp takes up the shallowest depth either gives within a few rounds (the grid shares
//! it: a warp that stole its first tasks deep in the tree would otherwise find a deeper one
//! of its own). The grid estimates each level's width from the children that the tasks
//! started at the levels above it made ([`width_from_fanout`]), and the warps inline from
//! the first level whose estimate reaches `wide_nodes` (by default 32 tasks for each lane):
//! the first levels are complete, and a deeper one sampled, long before it is made. And a
//! warp that has made `wide_tasks` tasks at one depth (64 for each of its lanes, by
//! default) inlines from the next depth on, which a count reaches only once most of the
//! level is made. A search with up to sixteen children per node (nqueens) has enough tasks
//! after seven or eight levels, where `min_depth`, made for two children per node, would
//! wait for twenty-one, which its tree never reaches; in a binary tree the rules agree with
//! `min_depth`, and a tree that grows slowly (UTS's binomial ones) never reaches the width.
//! A program with a hand-written cutoff whose leaves sit just below a wide level would have
//! them inlined, each a whole sequential search; a round of such calls that ran only leaves
//! moves the warp a level down ([`inlined_leaves`]).
//!
//! A task that names its sequential version (`#[gtap::task(seq = g)]`) asks, at its start,
//! whether its children would run inline, and if so runs `g` once for its whole subtree
//! (`crate::task::ctx::runs_whole`): on a GPU a lane that calls `g` for each child waits at
//! every call for the longest of its warp's lanes' calls. Such calls are the program's own
//! leaf, many rounds long by design: the back-off holds them to [`NAMED_RATIO`] times the
//! ratio, and short ones do not move the warp up the tree.
//!
//! The decision is [`run_inline`], one function for both backends, over what each backend
//! sees cheaply at a spawn ([`SpawnView`]: its own queue, its free records, the child's
//! depth); the settings ([`Granularity`]) come from the host's configuration (the GPU's
//! control block, the CPU's run options). A runtime asks only for programs whose tasks have
//! sequential versions (`Program::SEQ`: thread programs), and a program can force a task
//! with `spawn!(task, ..)`.

use crate::arch::WARP_SIZE;

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
    /// What the policy counts a task as costing beyond its own work, in rounds of one lane:
    /// a GPU warp whose inline calls held its lanes longer than the tasks they saved would
    /// have cost inlines from one level deeper, and does not come back while they do
    /// ([`adjust_backoff`]). Zero: the calls' cost against the tasks saved is not weighed.
    pub task_rounds: u32,
    /// Tasks a GPU warp makes at one depth (shallower than [`LEVELS`]) before it inlines
    /// from the next depth on, as from `min_depth` ([`SpawnView::from_depth`]). Zero: never.
    pub wide_tasks: u32,
    /// The width (tasks at one depth, over the run's roots) of the first level from which
    /// a GPU warp inlines, as the grid estimates the tree's levels from the children its
    /// tasks made ([`width_from_fanout`]): 32 tasks for each of the grid's lanes, the width a
    /// binary tree has at `min_depth`. Zero: not estimated (the CPU; resident sessions, whose
    /// roots come one after another).
    pub wide_nodes: u32,
    /// The calls a split task started for a call the program did not force to be a task
    /// walks before it makes tasks of the rest, its children twice as many, up to
    /// [`crate::task::split::MAX_BUDGET`] ([`crate::task::split`]). Zero: no task is split,
    /// and each spawn is decided as above.
    pub split_budget: u32,
    /// The oldest calls a split task left pending that it makes tasks of one by one before
    /// it gives the others to one task, a bundle, that walks them all
    /// ([`crate::task::split::SplitPending::take_task`]). Zero: every pending call is a task
    /// of its own.
    pub split_singles: u32,
}

/// The depths at which a GPU warp counts the tasks it makes, for `wide_tasks`: deeper than
/// any `min_depth` a grid derives.
pub const LEVELS: u32 = 32;

impl Granularity {
    /// The policy off: every spawn is a task.
    pub const OFF: Granularity = Granularity {
        on: 0,
        min_depth: 0,
        min_queued: 0,
        reserve: 0,
        backoff_ratio: 0,
        task_rounds: 0,
        wide_tasks: 0,
        wide_nodes: 0,
        split_budget: 0,
        split_singles: 0,
    };
}

/// Tasks started at one depth across the grid after which the GPU's warps stop counting
/// that level for [`width_from_fanout`]: its mean children are known well enough, and a
/// count costs each task step two atomics on a word its warp's lanes share.
pub const LEVEL_SAMPLE: u64 = 4096;

/// The depth from which a GPU warp inlines by the grid's estimate of the tree's width: the
/// first depth whose estimated width reaches `wide_nodes`, or `None` while none does or the
/// counts are too few to tell. `level(d)` is what the grid has counted at depth `d` so far:
/// the tasks started there, and the children they made (at depth `d + 1`).
///
/// The width of depth `d + 1` is estimated as that of depth `d` times the mean children of
/// the tasks started there; depth 0's is the roots started. A level is estimated only from
/// at least 32 started tasks, or all of its estimated width if that is less: the first
/// levels are complete early in a run (the warps spread them), and a deeper one is sampled
/// by the warps' first descents, long before it is complete. So the rule finds, early, the
/// level that a count of its tasks would reach only once most of the level was made, and
/// by then a warp's stealing and depth-first descent has made tasks far below it.
///
/// A binary tree has `2^d` tasks at depth `d`, so the rule and `min_depth` agree there; a
/// wide search (nqueens' up to 16 children per node) reaches the width levels earlier, and
/// a tree that grows slowly (UTS's binomial ones, a mean of one child) never does.
pub fn width_from_fanout(mut level: impl FnMut(u32) -> (u64, u64), wide_nodes: u32) -> Option<u32> {
    if wide_nodes == 0 {
        return None;
    }
    let mut width = 0u64;
    for d in 0..LEVELS - 1 {
        let (started, children) = level(d);
        if d == 0 {
            width = started;
        }
        if started == 0 || started < width.min(32) {
            return None;
        }
        width = width.saturating_mul(children) / started;
        if width >= u64::from(wide_nodes) {
            return Some(d + 1);
        }
    }
    None
}

/// What the spawning worker sees at a spawn, each a snapshot it reads without waiting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpawnView {
    /// The child's depth in the task tree (the root's children are at 1).
    pub depth: u32,
    /// Entries waiting in the queue the child would go to (published or about to be),
    /// which thieves may take.
    pub queued: u32,
    /// The worker's free records and the child's queue's free entries.
    pub room: SpawnRoom,
    /// Levels past `from_depth` from which the spawning worker inlines now, or above it
    /// where negative, by at most [`MAX_LIFT`] ([`adjust_backoff`]; zero on the CPU).
    pub backoff: i32,
    /// The child goes to another queue than the one the running task was taken from.
    pub other_queue: bool,
    /// The depth from which the spawning worker inlines, before its back-off: the policy's
    /// `min_depth`, or on a GPU one level below the shallowest depth at which the warp has
    /// made `wide_tasks` tasks, or the first depth whose width the grid estimates at
    /// `wide_nodes` ([`width_from_fanout`]), if that is shallower.
    pub from_depth: u32,
}

/// Whether the spawn `view` describes runs inline (the child's sequential version, now)
/// rather than as a task.
#[inline(always)]
pub fn run_inline(policy: &Granularity, view: SpawnView) -> bool {
    let SpawnView {
        depth,
        room,
        backoff,
        from_depth,
        ..
    } = view;
    run_inline_lazily(policy, depth, from_depth, backoff, room, || {
        (view.queued, view.other_queue)
    })
}

/// What a spawn's memory test of [`run_inline`] reads ([`SpawnView::room`]): how close the
/// worker is to `PoolExhausted` and the child's queue to `QueueFull`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpawnRoom {
    /// Records the worker can still take for new tasks.
    pub free_records: u32,
    /// Entries the child's queue can still take.
    pub queue_room: u32,
}

/// [`run_inline`], with the child's queue (`queue`: [`SpawnView::queued`] and
/// [`SpawnView::other_queue`]) read only where the decision needs it: past the memory test,
/// for a child deep enough. On the GPU a spawn reads its view from the warp's shared state
/// and the running task's record, at every spawn, and most spawns are not deep enough:
/// those skip the queue's words.
#[inline(always)]
pub fn run_inline_lazily(
    policy: &Granularity,
    depth: u32,
    from_depth: u32,
    backoff: i32,
    room: SpawnRoom,
    queue: impl FnOnce() -> (u32, bool),
) -> bool {
    if policy.on == 0 {
        return false;
    }
    if room.free_records <= policy.reserve || room.queue_room <= policy.reserve {
        return true;
    }
    if depth < from_depth.saturating_add_signed(backoff) {
        return false;
    }
    let (queued, other_queue) = queue();
    queued >= policy.min_queued && !other_queue
}

/// How many times `backoff_ratio` ordinary rounds the calls of a round that ran only named
/// sequential versions (`#[gtap::task(seq = g)]`, [`InlineRound::uncounted`]) may take on
/// average before the warp backs off ([`adjust_backoff`]). A named version is the
/// program's own sequential algorithm for a subtree (nqueens' count, which keeps its search
/// in registers), what a program with a cutoff runs as its leaf; its calls run whole
/// subtrees at the depth where the leaves of such a program sit, many rounds long, and held
/// to the ratio they were moved deeper, to more tasks and shorter calls, slower in the end
/// (results/2026-12-01-whole-width-h200.md).
///
/// Nor do short rounds of them move the warp above its depth ([`MAX_LIFT`]), though they
/// bring back one that backed off: a named call runs its task's whole subtree, which a
/// level up is the tree's branching factor times larger (up to sixteen in nqueens), and
/// the first calls of a search are often its dead ends, short whatever the level. Lifted on
/// those, a warp can start calls whose subtrees hold a lane, and at the end of a run the
/// grid, for milliseconds.
pub const NAMED_RATIO: u32 = 4;

/// The most levels a worker backs off: past any tree a task runtime can hold.
pub const MAX_BACKOFF: i32 = 1 << 16;

/// The most levels a GPU warp moves its inline depth above `from_depth` (a negative
/// back-off) when its inline calls are short ([`adjust_backoff`]).
///
/// `min_depth` comes from the grid's lanes alone (`ceil_log2(lanes) + 5`), which cannot
/// tell a tree's size: on a grid just past a power of two of lanes it is one level deeper
/// than on one just short of it, which doubles the tasks of a run whose subtrees at that
/// depth are small (a mid-sized fib). Where its calls take less than a round, a warp moves
/// up, a level per round, as it moves down where they take too long; a few levels, since
/// the queue test of [`run_inline`] (work left for thieves) is what guards the parallelism
/// near the root. Only a warp that has never backed off moves up: one whose calls have
/// been too long has seen that its tree holds large subtrees at those depths (a large fib,
/// UTS's geometric trees), and a short call there says only that this one subtree was
/// small; lifted anyway, such warps ran calls far larger than a round
/// (`results/2026-11-29-inline-lift-h200.md`).
pub const MAX_LIFT: i32 = 2;

/// What a warp's inline calls of one round did, together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InlineRound {
    /// The calls (spawns run inline).
    pub calls: u32,
    /// Their cycles, summed over the lanes.
    pub cycles: u64,
    /// The tasks they saved: the inlined spawns and every spawn their sequential versions
    /// ran as a plain call.
    pub spawns: u64,
    /// Of `calls`, those that ran a sequential version their task named
    /// (`#[gtap::task(seq = g)]`): each counted in `spawns` as its own spawn alone, though
    /// it may have done a subtree's work, which no count of spawns gives.
    pub uncounted: u32,
    /// The round's own cycles (its tasks' run, inline calls included).
    pub took: u64,
    /// The warp inlined from above the policy's `min_depth` (by the wide-level rule,
    /// [`SpawnView::from_depth`], past its back-off, or lifted above it).
    pub wide: bool,
}

/// A worker's new back-off after a round whose inline calls did `inline`, where its
/// ordinary rounds (without inline calls) take `round_cycles`:
/// - one level more if the calls took more than `backoff_ratio` rounds on average, or (with
///   `task_rounds` set) if they cost more than they saved ([`costs_more_than_it_saves`]),
///   or if they ran only leaves above `min_depth` ([`inlined_leaves`]);
/// - else one level less if they took less than a quarter of `backoff_ratio` rounds: not
///   below 0 for a warp that has `backed_off` before or after calls that were all named
///   sequential versions ([`NAMED_RATIO`] says why), else not below `-MAX_LIFT` (a warp may
///   inline from up to [`MAX_LIFT`] levels above its `from_depth`);
/// - else the same.
///
/// The band between keeps a warp whose calls cost about the ratio from stepping back and
/// forth at every round. A warp whose calls cost more than they save does not come back:
/// below a hand-written cutoff each task saved is a whole sequential leaf, and moving down
/// the tree does not make the calls cheaper, so such a warp goes on moving down until it no
/// longer inlines.
#[inline(always)]
pub fn adjust_backoff(
    policy: &Granularity,
    backoff: i32,
    inline: InlineRound,
    round_cycles: u64,
    backed_off: bool,
) -> i32 {
    if policy.backoff_ratio == 0 && policy.task_rounds == 0 {
        return 0;
    }
    let each = inline.cycles / u64::from(inline.calls.max(1));
    let named = inline.uncounted != 0 && inline.uncounted == inline.calls;
    let ratio = if named {
        policy.backoff_ratio.saturating_mul(NAMED_RATIO)
    } else {
        policy.backoff_ratio
    };
    let limit = round_cycles.saturating_mul(u64::from(ratio));
    if costs_more_than_it_saves(policy, inline, round_cycles)
        || (policy.backoff_ratio != 0 && each > limit)
        || inlined_leaves(inline)
    {
        (backoff + 1).min(MAX_BACKOFF)
    } else if each.saturating_mul(4) < limit {
        let floor = if backed_off || named { 0 } else { -MAX_LIFT };
        (backoff - 1).max(floor.min(backoff))
    } else {
        backoff
    }
}

/// Whether a round's inline calls, run above the policy's `min_depth` (by the wide-level
/// rule), were at least a warp's width of leaves of the task tree: each saved its own task
/// and no other (its sequential version ran no spawn).
///
/// The wide-level rule inlines from where a warp has made enough tasks for its lanes, which
/// pays where what is inlined is a subtree of many tasks (nqueens without a cutoff). A
/// program with a hand-written cutoff just below that level has leaves there, each a whole
/// sequential search: inlined, they save a task each and pile their work onto the lanes
/// whose tasks spawned them while other warps run out of tasks, and their rounds are not
/// long enough for the ratio to tell. So leaves move the warp a level down, as calls that
/// cost more than they save do. A few calls that happen to be leaves say little: in a
/// random tree (UTS's geometric ones) a node near the bottom often has no children, and
/// backing off for those made the tree's joined program run more tasks, and slower
/// (`results/2026-11-29-grid-wide-level-h200.md`); a warp's width of them, and no call with
/// a subtree, is a level of leaves.
///
/// Calls that ran a named sequential version (`uncounted`) are left out: that their spawns
/// saved no other says nothing of their work.
#[inline(always)]
pub fn inlined_leaves(inline: InlineRound) -> bool {
    let counted = inline.calls.saturating_sub(inline.uncounted);
    let spawns = inline.spawns.saturating_sub(u64::from(inline.uncounted));
    inline.wide && counted >= WARP_SIZE && spawns <= u64::from(counted)
}

/// Whether a round's inline calls cost the warp more than the tasks they saved would have:
/// what they cost is the time the round took past an ordinary one, for each of the warp's
/// lanes (a lane that runs a call holds the others at the round's end); what the tasks
/// would have cost is their work (the calls' cycles, run by any lanes) and `task_rounds`
/// rounds of one lane each. In lane-cycles:
/// `WARP_SIZE * (took - round_cycles) > cycles + spawns * task_rounds * round_cycles`.
///
/// So a fine-grained subtree (fib's calls save a task per tenth of a round) is worth
/// inlining even by one lane alone, a coarse one (a leaf below a hand-written cutoff, a tree
/// node with heavy work) only when most of the warp's lanes run such calls side by side,
/// as in a full tree whose nodes all cost the same.
///
/// A call of a named sequential version (`uncounted`) is credited with a task for each
/// round's worth of its cycles (its share of `cycles`, the calls' average): the tasks its
/// work would have made if each cost a round, fewer than a generated version's count for
/// the same subtree (most tasks cost a fraction of a round), so that such calls are judged
/// by their time, and still on the side of making tasks.
#[inline(always)]
pub fn costs_more_than_it_saves(
    policy: &Granularity,
    inline: InlineRound,
    round_cycles: u64,
) -> bool {
    let held = inline
        .took
        .saturating_sub(round_cycles)
        .saturating_mul(u64::from(WARP_SIZE));
    let uncounted_cycles =
        inline.cycles / u64::from(inline.calls.max(1)) * u64::from(inline.uncounted);
    let saved = inline
        .spawns
        .saturating_mul(round_cycles)
        .saturating_add(uncounted_cycles)
        .saturating_mul(u64::from(policy.task_rounds))
        .saturating_add(inline.cycles);
    policy.task_rounds != 0 && held > saved
}

/// Rounds of heavy leaf tasks ([`heavy_leaf_round`]) after which a GPU warp stops running
/// spawns inline (but where memory is short): a few, so that one slow round (a cache miss
/// storm, a round that waited on a lock) does not turn the policy off for a fine-grained
/// program.
pub const HEAVY_LEAF_ROUNDS: u32 = 4;

/// Whether an ordinary round (no inline call) of `took` cycles that ran `ran` tasks and
/// made `spawned` ran heavy leaf tasks: it made fewer tasks than it ran (most of its tasks
/// were leaves, or parents resumed after their taskwait), and it took more than
/// `task_rounds` of the warp's fastest ordinary rounds (`fastest`, the round's fixed cost at
/// the most). The GPU does not ask about a round in which a lane resumed parents inline
/// (`resume_inline`): such a round goes on up a chain of the tree after its batch, and is
/// long however light its leaves.
///
/// Inlining saves a task's fixed cost, and commits the child's whole subtree to one lane.
/// Where a leaf alone costs many rounds' fixed cost (below a hand-written cutoff, a leaf
/// that sorts or walks a list) there is little to save and a subtree of such leaves on one
/// lane holds its warp, and at the end of a run the whole grid, for a long time: measured
/// only after the call (the back-off), the first calls had already done that damage, and
/// every warp made its own. Leaf rounds come early in such programs, before the tree is
/// deep enough to inline, so a warp that has seen [`HEAVY_LEAF_ROUNDS`] of them stops
/// inlining before its first call. Fine-grained trees (fib, nqueens without a cutoff) have
/// leaves that cost about a round's fixed cost.
#[inline(always)]
pub fn heavy_leaf_round(
    policy: &Granularity,
    took: u64,
    fastest: u64,
    spawned: u32,
    ran: u32,
) -> bool {
    spawned < ran
        && policy.task_rounds != 0
        && took > fastest.saturating_mul(u64::from(policy.task_rounds))
}

/// Heavy leaf rounds stop the grid's inlining only where at least one busy round in this
/// many is one. Below a hand-written cutoff they are a few in every hundred; in a
/// fine-grained tree (fib, nqueens, UTS without a cutoff) they are rounds that waited on
/// something else, far rarer, but their count grows with the run, so that a count alone
/// would stop a long enough run (results/2026-11-29-grid-heavy-leaves-h200.md).
pub const GRID_HEAVY_SHARE: u64 = 128;

/// Whether `seen` rounds of heavy leaf tasks ([`heavy_leaf_round`]) across a grid of
/// `warps` stop a warp's inlining, the warp having run `busy` rounds with tasks: at least
/// `threshold` (the host's; 0: never), and at least one in [`GRID_HEAVY_SHARE`] of the
/// grid's busy rounds, which the warp estimates as its own times `warps` (a warp sees only
/// its own; one busier than most errs on the side of inlining).
///
/// Why the grid's: below a hand-written cutoff, most warps run only a round or two of
/// leaves before the tree is deep enough to inline, too few to judge alone, and one inline
/// call of a subtree of such leaves holds its lane past the rest of the run.
#[inline(always)]
pub fn grid_heavy_leaves(threshold: u32, seen: u32, busy: u64, warps: u32) -> bool {
    threshold != 0
        && seen >= threshold
        && u64::from(seen) * GRID_HEAVY_SHARE >= busy.saturating_mul(u64::from(warps))
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
        task_rounds: 0,
        wide_tasks: 0,
        wide_nodes: 0,
        split_budget: 0,
        split_singles: 0,
    };

    /// The lazy decision is the policy's rule (memory short, or deep enough with work left
    /// for thieves in the same queue), and asks for the queue only past the memory test, for
    /// a child deep enough.
    #[test]
    fn the_lazy_decision_is_the_rule_and_reads_the_queue_only_when_needed() {
        let policy = Granularity {
            reserve: 16,
            min_queued: 8,
            ..ON
        };
        for depth in [0, 3, 4, 5, 9] {
            for backoff in [-2, 0, 1, 3] {
                for free_records in [0, 16, 17, 1000] {
                    for queue_room in [0, 16, 17, 1000] {
                        for (queued, other_queue) in
                            [(0, false), (8, false), (8, true), (99, false)]
                        {
                            let short = free_records <= 16 || queue_room <= 16;
                            let deep = depth >= 4u32.saturating_add_signed(backoff);
                            let rule = short || (deep && queued >= 8 && !other_queue);
                            let mut asked = false;
                            let room = SpawnRoom {
                                free_records,
                                queue_room,
                            };
                            let got = run_inline_lazily(&policy, depth, 4, backoff, room, || {
                                asked = true;
                                (queued, other_queue)
                            });
                            assert_eq!(got, rule, "{depth} {backoff} {free_records} {queue_room}");
                            assert_eq!(asked, !short && deep, "{depth} {backoff} {free_records}");
                            let view = SpawnView {
                                depth,
                                queued,
                                room,
                                backoff,
                                other_queue,
                                from_depth: 4,
                            };
                            assert_eq!(run_inline(&policy, view), rule);
                        }
                    }
                }
            }
        }
        let room = SpawnRoom {
            free_records: 0,
            queue_room: 0,
        };
        assert!(!run_inline_lazily(
            &Granularity::OFF,
            99,
            0,
            0,
            room,
            || unreachable!()
        ));
    }

    /// Room for many more tasks.
    const ROOMY: SpawnRoom = SpawnRoom {
        free_records: 1000,
        queue_room: 1000,
    };

    /// [`ROOMY`] but for `free_records` free records.
    fn records(free_records: u32) -> SpawnRoom {
        SpawnRoom {
            free_records,
            ..ROOMY
        }
    }

    fn view(depth: u32, queued: u32) -> SpawnView {
        SpawnView {
            depth,
            queued,
            room: ROOMY,
            backoff: 0,
            other_queue: false,
            from_depth: ON.min_depth,
        }
    }

    #[test]
    fn off_never_runs_inline() {
        let v = SpawnView {
            depth: 100,
            queued: 100,
            room: SpawnRoom {
                free_records: 0,
                queue_room: 0,
            },
            backoff: 0,
            other_queue: false,
            from_depth: 0,
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
            room: records(16),
            ..view(0, 0)
        };
        let room = SpawnView {
            room: SpawnRoom {
                queue_room: 3,
                ..ROOMY
            },
            ..view(0, 0)
        };
        assert!(run_inline(&ON, records));
        assert!(run_inline(&ON, room));
    }

    #[test]
    fn a_spawn_into_another_queue_is_a_task_unless_memory_is_short() {
        let other = SpawnView {
            other_queue: true,
            ..view(40, 1000)
        };
        assert!(run_inline(&ON, view(40, 1000)), "same queue: inline");
        assert!(!run_inline(&ON, other), "another queue: a task");
        let short = SpawnView {
            room: records(1),
            ..other
        };
        assert!(run_inline(&ON, short), "memory short");
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
            room: records(1),
            ..at(0, MAX_BACKOFF)
        };
        assert!(run_inline(&ON, short), "memory short");
    }

    #[test]
    fn a_worker_inlines_from_its_own_depth_and_backs_off_from_there() {
        // A GPU warp below a wide level: from depth 2, above the policy's `min_depth` 4.
        let wide = |depth, backoff| SpawnView {
            from_depth: 2,
            backoff,
            ..view(depth, 1000)
        };
        assert!(!run_inline(&ON, wide(1, 0)), "above the wide level");
        assert!(
            run_inline(&ON, wide(2, 0)),
            "at its depth, above min_depth 4"
        );
        assert!(run_inline(&ON, wide(3, 0)), "below it");
        assert!(!run_inline(&ON, wide(2, 1)), "backed off a level");
        assert!(run_inline(&ON, wide(3, 1)));
        let queue_short = SpawnView {
            queued: 7,
            ..wide(3, 0)
        };
        assert!(!run_inline(&ON, queue_short), "the queue test still holds");
    }

    /// One inline call of `cycles` that saved `spawns` tasks, in a round that took as long
    /// as an ordinary one of 100 cycles.
    fn call(cycles: u64, spawns: u64) -> InlineRound {
        InlineRound {
            calls: 1,
            cycles,
            spawns,
            uncounted: 0,
            took: 100,
            wide: false,
        }
    }

    #[test]
    fn inline_calls_longer_than_the_ratio_of_rounds_back_off_a_level() {
        let p = Granularity {
            backoff_ratio: 4,
            ..ON
        };
        // Rounds of 100 cycles: more than 400 backs off, under 100 comes back.
        assert_eq!(adjust_backoff(&p, 2, call(401, 1), 100, false), 3);
        assert_eq!(adjust_backoff(&p, 2, call(400, 1), 100, false), 2);
        assert_eq!(adjust_backoff(&p, 2, call(100, 1), 100, false), 2);
        assert_eq!(adjust_backoff(&p, 2, call(99, 1), 100, false), 1);
        // Short calls move a warp up past `from_depth`, by at most `MAX_LIFT` levels.
        assert_eq!(adjust_backoff(&p, 0, call(0, 1), 100, false), -1);
        assert_eq!(
            adjust_backoff(&p, -MAX_LIFT, call(0, 1), 100, false),
            -MAX_LIFT
        );
        assert_eq!(
            adjust_backoff(&p, -MAX_LIFT, call(401, 1), 100, false),
            1 - MAX_LIFT
        );
        // ... unless it has backed off before: then not past `from_depth`, and a warp
        // already above it stays where it is.
        assert_eq!(adjust_backoff(&p, 0, call(0, 1), 100, true), 0);
        assert_eq!(adjust_backoff(&p, 1, call(0, 1), 100, true), 0);
        assert_eq!(adjust_backoff(&p, -1, call(0, 1), 100, true), -1);
        assert_eq!(
            adjust_backoff(&p, MAX_BACKOFF, call(u64::MAX, 1), 1, false),
            MAX_BACKOFF
        );
        assert_eq!(
            adjust_backoff(&ON, 7, call(u64::MAX, 1), 1, false),
            0,
            "ratio 0: never"
        );
        let two = InlineRound {
            calls: 2,
            cycles: 802,
            ..call(0, 2)
        };
        assert_eq!(
            adjust_backoff(&p, 2, two, 100, false),
            3,
            "the calls' average"
        );
    }

    #[test]
    fn calls_that_hold_the_warp_longer_than_their_tasks_would_back_off_and_stay() {
        let p = Granularity {
            backoff_ratio: 4,
            task_rounds: 2,
            ..ON
        };
        // Ordinary rounds of 100 cycles; one call of 150 cycles that saved 10 tasks, in a
        // round of 300: it held 32 lanes for 200 cycles (6,400 lane-cycles), and its tasks
        // would have cost 150 + 10 * 2 * 100 = 2,150.
        let round = |took, spawns| InlineRound {
            took,
            ..call(150, spawns)
        };
        assert!(costs_more_than_it_saves(&p, round(300, 10), 100));
        assert_eq!(
            adjust_backoff(&p, 2, round(300, 10), 100, false),
            3,
            "backs off"
        );
        // 32 such calls side by side (a full tree): 32 * 150 + 320 * 200 = 68,800 saved.
        let side_by_side = InlineRound {
            calls: 32,
            cycles: 32 * 150,
            spawns: 320,
            uncounted: 0,
            took: 300,
            wide: false,
        };
        assert!(!costs_more_than_it_saves(&p, side_by_side, 100));
        // 67 cycles past an ordinary round is not more (2,144); 75 is (2,400 > 2,150).
        assert!(!costs_more_than_it_saves(&p, round(167, 10), 100));
        assert!(costs_more_than_it_saves(&p, round(175, 10), 100));
        // Not weighed when off; the ratio alone then decides (150 cycles a call: the band).
        let off = Granularity {
            task_rounds: 0,
            ..p
        };
        assert!(!costs_more_than_it_saves(&off, round(10_000, 1), 100));
        assert_eq!(adjust_backoff(&off, 2, round(10_000, 1), 100, false), 2);
        // Saturates rather than wraps.
        let huge = InlineRound {
            calls: 1,
            cycles: u64::MAX,
            spawns: u64::MAX,
            uncounted: 0,
            took: u64::MAX,
            wide: false,
        };
        assert!(!costs_more_than_it_saves(&p, huge, 1));
    }

    /// The policy of the tests below: ratio 4, 8 rounds a task.
    const WEIGHING: Granularity = Granularity {
        backoff_ratio: 4,
        task_rounds: 8,
        ..ON
    };

    /// A warp's width of short calls above `min_depth`, each saving only its own spawn.
    fn leaf_calls() -> InlineRound {
        InlineRound {
            calls: 32,
            spawns: 32,
            wide: true,
            ..call(320, 0)
        }
    }

    #[test]
    fn calls_of_named_sequential_versions_are_judged_by_their_time() {
        let p = WEIGHING;
        // Leaves when counted, not when their task named its sequential version.
        let leaves = leaf_calls();
        let named = InlineRound {
            uncounted: 32,
            ..leaves
        };
        assert!(inlined_leaves(leaves));
        assert!(!inlined_leaves(named));
        assert!(inlined_leaves(InlineRound {
            calls: 64,
            spawns: 64,
            uncounted: 32,
            ..leaves
        }));
        // One lane's call of 1,000 cycles (ten rounds' worth), in a round it made 1,000
        // longer: it held 32,000 lane-cycles; counted, it saved 1 * 8 * 100 + 1,000 =
        // 1,800; named, its ten rounds count as ten tasks: 8 * 1,000 + 1,800 = 9,800, still
        // less. 32 such calls side by side save more than they hold.
        let one = InlineRound {
            took: 1_100,
            spawns: 1,
            ..call(1_000, 1)
        };
        assert!(costs_more_than_it_saves(&p, one, 100));
        assert!(costs_more_than_it_saves(
            &p,
            InlineRound {
                uncounted: 1,
                ..one
            },
            100
        ));
        let side_by_side = InlineRound {
            calls: 32,
            cycles: 32_000,
            spawns: 32,
            uncounted: 32,
            ..one
        };
        assert!(!costs_more_than_it_saves(&p, side_by_side, 100));
        assert!(costs_more_than_it_saves(
            &p,
            InlineRound {
                uncounted: 0,
                took: 8_000,
                ..side_by_side
            },
            100
        ));
    }

    #[test]
    fn leaves_inlined_above_min_depth_back_off_a_level() {
        let p = WEIGHING;
        // Short calls that saved only themselves: a level down above `min_depth` (the
        // wide-level rule's), as before below it (there they come back a level).
        let leaves = leaf_calls();
        assert!(inlined_leaves(leaves));
        assert_eq!(adjust_backoff(&p, 1, leaves, 100, false), 2);
        let below = InlineRound {
            wide: false,
            ..leaves
        };
        assert_eq!(adjust_backoff(&p, 1, below, 100, false), 0);
        // One call that ran a subtree: not leaves.
        let subtree = InlineRound {
            spawns: 33,
            ..leaves
        };
        assert!(!inlined_leaves(subtree));
        assert_eq!(adjust_backoff(&p, 1, subtree, 100, false), 0);
        // Fewer leaves than a warp's width: not evidence enough.
        let few = InlineRound {
            calls: 31,
            spawns: 31,
            ..leaves
        };
        assert!(!inlined_leaves(few));
    }

    #[test]
    fn only_leaf_rounds_far_past_the_fastest_round_are_heavy() {
        let p = Granularity {
            task_rounds: 8,
            ..ON
        };
        assert!(heavy_leaf_round(&p, 801, 100, 0, 32));
        assert!(heavy_leaf_round(&p, 801, 100, 31, 32), "mostly leaves");
        assert!(!heavy_leaf_round(&p, 800, 100, 0, 32), "not past 8 rounds");
        assert!(
            !heavy_leaf_round(&p, 10_000, 100, 32, 32),
            "as many children as tasks"
        );
        let off = Granularity {
            task_rounds: 0,
            ..p
        };
        assert!(!heavy_leaf_round(&off, 10_000, 100, 0, 32), "not weighed");
    }

    #[test]
    fn the_grid_stops_inlining_only_where_heavy_leaves_are_common() {
        // 1584 warps, 10 busy rounds each: 400 heavy rounds are 2.5% of them.
        assert!(grid_heavy_leaves(400, 400, 10, 1584));
        assert!(!grid_heavy_leaves(400, 399, 10, 1584), "too few");
        // A long fine-grained run: 400 heavy rounds among 160 busy rounds per warp (0.16%).
        assert!(!grid_heavy_leaves(400, 400, 160, 1584), "too rare");
        let share = 1584 * 160 / GRID_HEAVY_SHARE as u32;
        assert!(
            grid_heavy_leaves(400, share, 160, 1584),
            "one in GRID_HEAVY_SHARE"
        );
        assert!(!grid_heavy_leaves(0, 10_000, 1, 1584), "off");
    }

    /// nqueens(16)'s first levels (started tasks and their children, the tree complete to
    /// depth 7): the width reaches 32 tasks for each of 50,688 lanes (1,622,016) at depth 7
    /// (3,998,456 tasks); a binary tree reaches 2^21 at 21; a tree with a mean of one child
    /// never does; too few started tasks at a level stop the estimate there.
    #[test]
    fn the_width_is_estimated_from_the_levels_started() {
        let nodes: [u64; 8] = [1, 16, 210, 2236, 19688, 141812, 838816, 3998456];
        let nqueens = |d: u32| match nodes.get(d as usize + 1) {
            Some(&next) => (nodes[d as usize], next),
            None => (0, 0),
        };
        assert_eq!(width_from_fanout(nqueens, 50_688 * 32), Some(7));
        assert_eq!(width_from_fanout(nqueens, 19688), Some(4));
        assert_eq!(width_from_fanout(nqueens, 0), None, "off");
        assert_eq!(
            width_from_fanout(nqueens, u32::MAX),
            None,
            "not reached yet"
        );
        let binary = |d: u32| (1u64 << d.min(40), 2u64 << d.min(40));
        assert_eq!(width_from_fanout(binary, 1 << 21), Some(21));
        let chain = |_: u32| (2000, 2000);
        assert_eq!(width_from_fanout(chain, 1 << 21), None);
        // Depth 3 estimated from 20 started tasks of an estimated 2,236: too few to tell.
        let early = |d: u32| if d < 3 { nqueens(d) } else { (20, 300) };
        assert_eq!(width_from_fanout(early, 19688), None);
        // A batch of 100 roots: depth 0's width is theirs.
        let batch = |d: u32| if d == 0 { (100, 1600) } else { nqueens(d) };
        assert_eq!(width_from_fanout(batch, 1600), Some(1));
    }

    /// Rounds of named calls only are held to `NAMED_RATIO` times the ratio, and do not lift
    /// the warp.
    #[test]
    fn named_calls_may_run_longer_and_do_not_lift_the_warp() {
        let p = Granularity {
            backoff_ratio: 4,
            ..ON
        };
        let named = |calls: u32, uncounted: u32, cycles: u64| InlineRound {
            calls,
            cycles,
            spawns: u64::from(calls),
            uncounted,
            took: cycles,
            wide: false,
        };
        // 1,000 cycles a call against ordinary rounds of 100: past 4 rounds, within 16.
        assert_eq!(adjust_backoff(&p, 0, named(2, 2, 2_000), 100, false), 0);
        assert_eq!(adjust_backoff(&p, 0, named(2, 1, 2_000), 100, false), 1);
        assert_eq!(adjust_backoff(&p, 0, named(2, 2, 3_400), 100, false), 1);
        // Short calls lift a warp that never backed off above its depth, unless they were
        // all named; those bring a warp that backed off back up to it, as others do.
        assert_eq!(adjust_backoff(&p, 0, named(2, 0, 100), 100, false), -1);
        assert_eq!(adjust_backoff(&p, 0, named(2, 1, 100), 100, false), -1);
        assert_eq!(adjust_backoff(&p, 0, named(2, 2, 100), 100, false), 0);
        assert_eq!(adjust_backoff(&p, -1, named(2, 2, 100), 100, false), -1);
        assert_eq!(adjust_backoff(&p, 3, named(2, 2, 100), 100, true), 2);
        assert_eq!(adjust_backoff(&p, 3, named(2, 2, 100), 100, false), 2);
    }

    #[test]
    fn ceil_log2_rounds_up() {
        let got: [u32; 7] = [0, 1, 2, 3, 4, 5, 1 << 20].map(ceil_log2);
        assert_eq!(got, [0, 0, 1, 2, 2, 3, 20]);
        assert_eq!(ceil_log2(u32::MAX), 32);
    }
}
