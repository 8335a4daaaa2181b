//! Step 1 of a thread-level round, lane 0's part: where the round's tasks come from (kept
//! entries, a pop, a top-up steal, other queues, random victims) and the steal protocol the
//! block workers share.

use super::batch::Batch;
use super::global_queue;
use super::layout::{batch_source, tuning};
use super::sched::Scheduler;
use super::warp::WarpCtx;
use crate::arch::warp::WARP_SIZE;
use crate::runtime::deque::claim;
use crate::runtime::sync::Ordering;

impl Batch {
    /// No task: the round is idle.
    #[inline(always)]
    fn none(warp: u32, queue: u32) -> Batch {
        Batch::own(warp, queue, 0, 0, batch_source::NONE)
    }

    /// `n` entries of the warp's own ring of `queue`, from position `base`.
    #[inline(always)]
    fn own(warp: u32, queue: u32, n: u32, base: u32, source: u32) -> Batch {
        Batch {
            n,
            kept: n,
            kept_base: base,
            src_warp: warp,
            src_base: 0,
            queue,
            stolen: false,
            global: false,
            source,
        }
    }
}

/// Lane 0: the tasks of this round. Kept entries of the current queue first (the newest 32
/// alone, with no atomic, when the warp kept more), then a pop batch from it, filled up when
/// short by a steal from the same queue of another warp (`GpuRun::top_up`); if the queue is
/// empty, the other queues round-robin (with `tuning::STEAL_PER_QUEUE`, after a steal from
/// the empty queue failed); if all are empty, a steal from random victims.
///
/// Always inlined, as every step below: a call would put what the kernel passes by
/// reference (`rng`) in local memory for the whole loop, a load and a store around every use
/// in the hottest code (results/perf-notes.md has the measurement).
///
/// `nq` is the number of queues that hold thread tasks: the first `nq` of the warp's (a
/// mixed program's last queue holds block tasks, which thread rounds never take).
#[inline(always)]
pub(super) fn take_batch<S: Scheduler>(w: &WarpCtx, queue: u32, nq: u32, rng: &mut u32) -> Batch {
    let run = w.run();
    for step in 0..nq {
        let q = (queue + step) % nq;
        if let Some(b) = take_from_queue::<S>(w, q, rng) {
            return b;
        }
    }
    if run.num_warps > 1
        && let Some(s) = steal::<S>(w, queue, Some(nq), WARP_SIZE, run.steal_attempts, rng)
    {
        return Batch {
            n: s.n,
            kept: 0,
            kept_base: 0,
            src_warp: s.victim,
            src_base: s.head,
            queue: s.queue,
            stolen: true,
            global: false,
            source: batch_source::STEAL,
        };
    }
    Batch::none(w.warp, queue)
}

/// Lane 0: a batch from the warp's queue `q`, if it has any: what the warp kept there, a pop,
/// and a top-up steal from the same queue of another warp when the batch is short.
#[inline(always)]
fn take_from_queue<S: Scheduler>(w: &WarpCtx, q: u32, rng: &mut u32) -> Option<Batch> {
    let run = w.run();
    // SAFETY: called by lane 0 between rounds (see the callers).
    let sh = unsafe { w.lane0() };
    let private = sh.private[q as usize];
    if private >= WARP_SIZE {
        // A whole batch of unpublished entries (possible when the warp keeps more than a
        // warp's width, `keep_max`): the newest 32, with no atomic at all.
        let rest = private - WARP_SIZE;
        sh.private[q as usize] = rest;
        let base = sh.tail[q as usize].wrapping_add(rest);
        return Some(Batch::own(w.warp, q, WARP_SIZE, base, batch_source::KEPT));
    }
    let kept = private;
    sh.private[q as usize] = 0;
    if S::global_queue(w.run()) {
        return Some(take_global(w, q, kept, sh.tail[q as usize]));
    }
    let mut b = pop(w, q, kept, WARP_SIZE - kept, S::one_at_a_time(w.run()));
    let top_up = if run.num_warps > 1 { run.top_up } else { 0 };
    let per_queue = run.tuning & tuning::STEAL_PER_QUEUE != 0;
    if b.n < WARP_SIZE
        && top_up > 0
        && (b.n > 0 || per_queue)
        && let Some(s) = steal::<S>(w, q, None, WARP_SIZE - b.n, top_up, rng)
    {
        // The warp's own entries in lanes `0..own`, the stolen ones after them.
        b.source = if b.n > 0 {
            batch_source::TOP_UP
        } else {
            batch_source::STEAL
        };
        b.n += s.n;
        b.src_warp = s.victim;
        b.src_base = s.head;
        b.stolen = true;
        return Some(b);
    }
    (b.n > 0).then_some(b)
}

/// Lane 0, under the global-queue ablation: the round's batch: the `kept` entries the warp kept in queue `q` (from ring
/// position `kept_base`), then ids claimed from the global queue.
#[inline(always)]
fn take_global(w: &WarpCtx, q: u32, kept: u32, kept_base: u32) -> Batch {
    let want = WARP_SIZE - kept;
    let (h, k) = if want > 0 {
        global_queue::claim(w, want)
    } else {
        (0, 0)
    };
    Batch {
        n: kept + k,
        kept,
        kept_base,
        src_warp: w.warp,
        src_base: h,
        queue: q,
        stolen: false,
        global: k > 0,
        source: if k > 0 {
            batch_source::GLOBAL
        } else if kept > 0 {
            batch_source::KEPT
        } else {
            batch_source::NONE
        },
    }
}

/// Lane 0: the `kept` entries the warp kept in queue `q` and up to `want` more popped from
/// its deque there (one per CAS when `singly`).
#[inline(always)]
fn pop(w: &WarpCtx, q: u32, kept: u32, want: u32, singly: bool) -> Batch {
    // SAFETY: called by lane 0 between rounds (see the callers).
    let sh = unsafe { w.lane0() };
    // Relaxed: the owner reads only entries it wrote itself (deque docs, edge 4).
    let count = w.deque(w.warp, q).count();
    let k = if singly {
        claim_singly(count, want, Ordering::Relaxed)
    } else {
        claim(count, |_| want, Ordering::Relaxed)
    };
    let tail = sh.tail[q as usize].wrapping_sub(k);
    sh.tail[q as usize] = tail;
    // Kept entries sit at [old tail, old tail + kept); the popped ones just below the old
    // tail, at [tail, tail + k). Read both as one run from `tail`.
    let source = if k > 0 {
        batch_source::POP
    } else {
        batch_source::KEPT
    };
    Batch::own(w.warp, q, kept + k, tail, source)
}

/// Entries claimed from another warp's deque; its lock stays held until the lanes have read
/// them (the caller's round releases it after moving `head`).
pub(super) struct Stolen {
    /// The warp stolen from.
    pub(super) victim: u32,
    /// Its queue.
    pub(super) queue: u32,
    /// The victim's `head` when claimed: the entries are `[head, head + n)` of its ring.
    pub(super) head: u32,
    /// Entries claimed.
    pub(super) n: u32,
}

/// Lane 0: tries up to `attempts` random victims for up to `want` entries of queue `queue`
/// (with `vary_queue = Some(nq)`, of queue `(queue + attempt) % nq`, round-robin). Inlined as
/// [`take_batch`] is. The block worker steals one entry at a time with it.
#[inline(always)]
pub(super) fn steal<S: Scheduler>(
    w: &WarpCtx,
    queue: u32,
    vary_queue: Option<u32>,
    want: u32,
    attempts: u32,
    rng: &mut u32,
) -> Option<Stolen> {
    let run = w.run();
    for attempt in 0..attempts {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 17;
        *rng ^= *rng << 5;
        let mut victim = *rng % (run.num_warps - 1);
        if victim >= w.warp {
            victim += 1;
        }
        let q = match vary_queue {
            Some(nq) => (queue + attempt) % nq,
            None => queue,
        };
        if let Some(s) = steal_from::<S>(w, victim, q, want) {
            return Some(s);
        }
    }
    None
}

/// Lane 0 (or a block's leader): one try at up to `want` entries of `victim`'s queue `q`;
/// on success the victim's steal lock stays held until [`finish_steal`].
#[inline(always)]
pub(super) fn steal_from<S: Scheduler>(
    w: &WarpCtx,
    victim: u32,
    q: u32,
    want: u32,
) -> Option<Stolen> {
    // SAFETY: called by lane 0 (or the block's leader) between rounds (see the callers).
    let stats = unsafe { &mut w.lane0().stats };
    stats.steals_attempted += 1;
    let d = w.deque(victim, q);
    // Relaxed pre-check, to skip empty victims without touching their lock.
    if d.count().load(Ordering::Relaxed) == 0 {
        return None;
    }
    // Acquire: the previous thief's head update happens before our read of head.
    if d.lock()
        .compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        return None;
    }
    // Acquire: the owner's push (release fence + count add) happens before our reads of
    // the ids and their records.
    let k = if S::one_at_a_time(w.run()) {
        claim_singly(d.count(), want, Ordering::Acquire)
    } else {
        claim(d.count(), |avail| avail.min(want), Ordering::Acquire)
    };
    if k == 0 {
        d.lock().store(0, Ordering::Release);
        return None;
    }
    let head = d.head().load(Ordering::Relaxed);
    stats.steals_won += 1;
    Some(Stolen {
        victim,
        queue: q,
        head,
        n: k,
    })
}

/// Lane 0 (or the block worker's leader), once the stolen entries have been read: moves the
/// victim's `head` past them and releases its steal lock.
#[inline(always)]
pub(super) fn finish_steal(w: &WarpCtx, s: &Stolen) {
    let d = w.deque(s.victim, s.queue);
    // Release: our reads of the stolen entries happen before the owner reuses their slots
    // (deque docs, edge 2).
    d.head().store(s.head.wrapping_add(s.n), Ordering::Release);
    // Release: the next thief, acquiring the lock, reads the `head` stored above (edge 3).
    d.lock().store(0, Ordering::Release);
}

/// Claims up to `want` entries of `count` one per CAS, as a deque operated one task at a
/// time would (the ablation of batched claims).
fn claim_singly(count: &crate::runtime::sync::AtomicU32, want: u32, order: Ordering) -> u32 {
    let mut got = 0;
    while got < want && claim(count, |_| 1, order) == 1 {
        got += 1;
    }
    got
}
