//! Join counting: when a suspended task may resume, and when a task is complete.
//!
//! The full argument (why the run can neither end early nor hang) is in `README.md` beside
//! this file. In short, each task record has a signed counter, 0 when the task is spawned and
//! 0 again at the start of each taskwait epoch:
//!
//! - a task is **complete** when it has returned and all its children are complete (fully
//!   strict fork-join, as in Cilk: a child's completion covers its whole subtree);
//! - a completing child subtracts 1 from its parent's counter ([`child_completed`]);
//! - a task suspending at a taskwait with `n` children spawned since its last taskwait adds
//!   `n` ([`wait`]): if that makes the counter 0 the children are all complete and the task
//!   goes on at once; otherwise the child whose subtraction brings it to 0 re-enqueues it;
//! - a task returning with `n` children it did not wait for adds `n + FINISHED`
//!   ([`finish`]): if the counter then equals `FINISHED` it is complete at once; otherwise the
//!   child whose subtraction leaves exactly `FINISHED` completes it.
//!
//! Before the parent's add, children can only drive the counter below zero, so neither
//! trigger (`prev == 1`, `prev == FINISHED + 1`) can fire early. Exactly one party sees each
//! trigger, because the RMWs on one counter are totally ordered.
//!
//! # Memory ordering
//! All three RMWs are Release; the party that sees a trigger (and only it) follows its RMW
//! with an Acquire fence, which makes the pair an acquire of everything the RMW chain
//! released. That gives these happens-before edges:
//! - **child -> resumed parent.** A child writes its result into the parent's frame, then
//!   subtracts with Release. Whoever sees the counter reach its trigger (the parent's own add,
//!   or the last child's subtraction) reads a value at the end of a chain of RMWs containing
//!   every child's subtraction, and acquires all of them. The re-enqueue that follows is a
//!   deque push (Release) and the resuming worker's claim is an Acquire, so the parent resumes
//!   after every child's result was written.
//! - **parent -> last child.** The parent's add is Release: its frame (written up to the
//!   suspension) and its record's `queue` are visible to the child that re-enqueues or
//!   completes it, and through that child's push to whichever worker resumes it.
//! - **subtree -> grandparent.** Completion goes up the tree by the same RMWs, so a
//!   completion observed at the root covers every task of the run ([`super::termination`]).
//!
//! The GPU's thread workers make every RMW AcqRel instead and take no fence ([`Acquire::InRmw`]):
//! the same edges, with the acquire inside the RMW (a fence there is one more `MEMBAR.GPU`).
//! Both variants go through [`rmw`], and the loom tests check each. Their children reach a
//! queue only when the round that spawned them closes, so their taskwait and return need no
//! RMW at all: [`wait_unstarted`] and [`finish_unstarted`] store what the RMW would add, and
//! what publishes the children carries the store (loom checks that too).
//!
//! On the GPU these are `atom.<order>.gpu.add` (not `core`'s `fetch_add`, which the NVPTX
//! backend lowers to a relaxed atomic: rust-lang/rust#136480).

use super::sync::{AtomicI32, Ordering, fence};

/// Added on return: marks "the task has returned" in its own counter. Larger than any number
/// of children one task may have outstanding ([`MAX_OUTSTANDING`]).
pub const FINISHED: i32 = 1 << 30;

/// The most children a task may spawn between two taskwaits, whatever its program allows, so
/// that `n + FINISHED` fits the counter.
pub const MAX_OUTSTANDING: u32 = FINISHED as u32 - 1;

/// What a task at a taskwait does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use]
pub enum AfterWait {
    /// Every child is already complete: resume the task now, on this worker.
    Continue,
    /// Some child is not complete; the last one re-enqueues the task. The caller must not
    /// touch the task's record again: it may already be running elsewhere.
    Suspended,
}

/// What happens after a task returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use]
pub enum AfterReturn {
    /// Every child is complete: the task is complete now; the caller completes it.
    Complete,
    /// Some child is not complete; the last one completes the task. The caller must not touch
    /// the task's record again.
    Pending,
}

/// What a completed child must do for its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use]
pub enum ParentNext {
    /// Nothing: the parent still waits for other children (or has not reached its taskwait or
    /// return yet and will see this completion there).
    Nothing,
    /// This was the last child the parent waits for at its taskwait: enqueue the parent.
    Resume,
    /// The parent had returned and this was its last child: the parent is complete now.
    Complete,
}

/// The protocol's three RMWs as data: what each adds to a join counter, and what the old
/// value it returns means. [`wait`], [`finish`] and [`child_completed`] are these plus the
/// RMW and the Acquire fence; the GPU runtime issues the RMWs of a whole warp at one
/// instruction and uses these to read the results.
pub mod step {
    use super::{AfterReturn, AfterWait, FINISHED, ParentNext};

    /// What a taskwait with `n` children adds to the task's own counter.
    #[inline(always)]
    pub fn wait_delta(n: u32) -> i32 {
        n as i32
    }

    /// The outcome of a taskwait's add, from the value the counter had before it.
    #[inline(always)]
    pub fn after_wait(prev: i32, n: u32) -> AfterWait {
        if prev + n as i32 == 0 {
            AfterWait::Continue
        } else {
            AfterWait::Suspended
        }
    }

    /// What a return with `n` children not waited for adds to the task's own counter.
    #[inline(always)]
    pub fn finish_delta(n: u32) -> i32 {
        n as i32 + FINISHED
    }

    /// The outcome of a return's add, from the value the counter had before it.
    #[inline(always)]
    pub fn after_finish(prev: i32, n: u32) -> AfterReturn {
        if prev + n as i32 == 0 {
            AfterReturn::Complete
        } else {
            AfterReturn::Pending
        }
    }

    /// What a completing child adds to its parent's counter.
    pub const CHILD_DELTA: i32 = -1;

    /// What a completing child must do, from the value its parent's counter had before.
    #[inline(always)]
    pub fn after_child(prev: i32) -> ParentNext {
        if prev == 1 {
            ParentNext::Resume
        } else if prev == FINISHED + 1 {
            ParentNext::Complete
        } else {
            ParentNext::Nothing
        }
    }
}

/// How a join RMW acquires what the chain of RMWs before it released (see "Memory ordering").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acquire {
    /// A Release RMW, and an Acquire fence on the path that fires a trigger only: the CPU
    /// backend and the GPU's block workers.
    Fence,
    /// An AcqRel RMW and no fence: the GPU's thread workers, which issue a warp's RMWs at one
    /// instruction, where a fence after it would be one more `MEMBAR.GPU`.
    InRmw,
}

/// The join counter's RMW: adds `delta` and returns the value before. With
/// [`Acquire::Fence`], the caller must follow a fired trigger with [`acquire_trigger`].
/// Every join RMW of both backends is this function, so that loom checks each variant.
#[inline(always)]
pub fn rmw(join: &AtomicI32, delta: i32, how: Acquire) -> i32 {
    match how {
        // Release: publishes the caller's writes (frame, result, `queue`) to whoever fires a
        // trigger later in the chain.
        Acquire::Fence => join.fetch_add(delta, Ordering::Release),
        // AcqRel: the same Release, and the Acquire that the fence would give, for every
        // caller (needed only by the one that fires a trigger).
        Acquire::InRmw => join.fetch_add(delta, Ordering::AcqRel),
    }
}

/// What the party that fired a trigger does after [`rmw`] before it goes on: an Acquire fence
/// for [`Acquire::Fence`] (takes in every release of the chain), nothing for
/// [`Acquire::InRmw`].
#[inline(always)]
pub fn acquire_trigger(how: Acquire) {
    if how == Acquire::Fence {
        fence(Ordering::Acquire);
    }
}

/// The task reaches a taskwait with `n` children spawned since its last one.
#[inline]
pub fn wait(join: &AtomicI32, n: u32) -> AfterWait {
    wait_with(join, n, Acquire::Fence)
}

/// [`wait`], acquiring as `how` says.
#[inline]
pub fn wait_with(join: &AtomicI32, n: u32, how: Acquire) -> AfterWait {
    debug_assert!(n <= MAX_OUTSTANDING);
    // The Acquire half is needed only when we go on at once (it takes in the children that
    // already completed, their results), so with `Fence` it is on that path alone (an acquire
    // RMW would cost every task an L1 invalidation on the GPU).
    let next = step::after_wait(rmw(join, step::wait_delta(n), how), n);
    if next == AfterWait::Continue {
        acquire_trigger(how);
    }
    next
}

/// The task returned with `n` children spawned since its last taskwait (not waited for).
#[inline]
pub fn finish(join: &AtomicI32, n: u32) -> AfterReturn {
    finish_with(join, n, Acquire::Fence)
}

/// [`finish`], acquiring as `how` says.
#[inline]
pub fn finish_with(join: &AtomicI32, n: u32, how: Acquire) -> AfterReturn {
    debug_assert!(n <= MAX_OUTSTANDING);
    if n == 0 {
        // Every earlier epoch ended with the counter at 0 and this one spawned nothing: no
        // one else touches the counter, and the children of earlier epochs were acquired when
        // the task resumed.
        return AfterReturn::Complete;
    }
    // Acquire on the completing path only, so that completing now comes after the subtree.
    let next = step::after_finish(rmw(join, step::finish_delta(n), how), n);
    if next == AfterReturn::Complete {
        acquire_trigger(how);
    }
    next
}

/// [`wait`] where none of the `n` children can have started: the GPU's thread workers,
/// whose spawned children reach a queue only when the round that spawned them closes, after
/// this call (a warp's kept tasks run in its next round, published ones after the close's
/// Release). The counter is then 0 (every earlier epoch ended there) and nobody else
/// touches it until the children run, so a Relaxed store of what [`wait`] would add does
/// the same, without the round trip of an RMW and the fence of its Release: whatever makes
/// the children visible to a worker (the publishing Release and the thief's Acquire, or the
/// warp's own barrier for the tasks it keeps) also carries this store and the frame to the
/// child that fires the trigger, and the children's RMWs come after the store in the
/// counter's order (they happen after it). `Continue` only when `n` is 0.
///
/// # Safety
/// No child of this epoch can run before the caller's writes so far, this store included,
/// are visible to the worker that runs it.
#[inline(always)]
pub unsafe fn wait_unstarted(join: &AtomicI32, n: u32) -> AfterWait {
    debug_assert!(n <= MAX_OUTSTANDING);
    if n == 0 {
        return AfterWait::Continue;
    }
    // Relaxed: see above; what publishes the children publishes this.
    join.store(step::wait_delta(n), Ordering::Relaxed);
    AfterWait::Suspended
}

/// [`finish`] where none of the `n` children can have started (as for [`wait_unstarted`]):
/// `Complete` only when `n` is 0; else a Relaxed store of what [`finish`] would add, and the
/// last child completes the task.
///
/// # Safety
/// As for [`wait_unstarted`].
#[inline(always)]
pub unsafe fn finish_unstarted(join: &AtomicI32, n: u32) -> AfterReturn {
    debug_assert!(n <= MAX_OUTSTANDING);
    if n == 0 {
        return AfterReturn::Complete;
    }
    // Relaxed: as in `wait_unstarted`.
    join.store(step::finish_delta(n), Ordering::Relaxed);
    AfterReturn::Pending
}

/// A child of the task owning `parent_join` completed.
#[inline]
pub fn child_completed(parent_join: &AtomicI32) -> ParentNext {
    child_completed_with(parent_join, Acquire::Fence)
}

/// [`child_completed`], acquiring as `how` says.
#[inline]
pub fn child_completed_with(parent_join: &AtomicI32, how: Acquire) -> ParentNext {
    // Only the child that fires a trigger needs Acquire (it takes in the other children and
    // the parent's own add).
    let next = step::after_child(rmw(parent_join, step::CHILD_DELTA, how));
    if next != ParentNext::Nothing {
        acquire_trigger(how);
    }
    next
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn children_before_wait() {
        let j = AtomicI32::new(0);
        assert_eq!(child_completed(&j), ParentNext::Nothing);
        assert_eq!(child_completed(&j), ParentNext::Nothing);
        assert_eq!(wait(&j, 2), AfterWait::Continue);
        assert_eq!(j.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn children_after_wait() {
        let j = AtomicI32::new(0);
        assert_eq!(child_completed(&j), ParentNext::Nothing);
        assert_eq!(wait(&j, 3), AfterWait::Suspended);
        assert_eq!(child_completed(&j), ParentNext::Nothing);
        assert_eq!(child_completed(&j), ParentNext::Resume);
        // Next epoch starts from 0.
        assert_eq!(j.load(Ordering::Relaxed), 0);
        assert_eq!(wait(&j, 1), AfterWait::Suspended);
        assert_eq!(child_completed(&j), ParentNext::Resume);
    }

    #[test]
    fn fire_and_forget() {
        let j = AtomicI32::new(0);
        assert_eq!(finish(&j, 0), AfterReturn::Complete);
        let j = AtomicI32::new(0);
        assert_eq!(child_completed(&j), ParentNext::Nothing);
        assert_eq!(finish(&j, 2), AfterReturn::Pending);
        assert_eq!(child_completed(&j), ParentNext::Complete);
        let j = AtomicI32::new(0);
        assert_eq!(child_completed(&j), ParentNext::Nothing);
        assert_eq!(finish(&j, 1), AfterReturn::Complete);
    }

    #[test]
    fn unstarted_children_store_what_the_rmw_would_add() {
        let j = AtomicI32::new(0);
        // SAFETY: no child runs before the calls below return (there are none yet).
        assert_eq!(unsafe { wait_unstarted(&j, 0) }, AfterWait::Continue);
        assert_eq!(j.load(Ordering::Relaxed), 0);
        // SAFETY: as above.
        assert_eq!(unsafe { wait_unstarted(&j, 2) }, AfterWait::Suspended);
        assert_eq!(child_completed(&j), ParentNext::Nothing);
        assert_eq!(child_completed(&j), ParentNext::Resume);
        // SAFETY: as above.
        assert_eq!(unsafe { finish_unstarted(&j, 0) }, AfterReturn::Complete);
        // SAFETY: as above.
        assert_eq!(unsafe { finish_unstarted(&j, 2) }, AfterReturn::Pending);
        assert_eq!(child_completed(&j), ParentNext::Nothing);
        assert_eq!(child_completed(&j), ParentNext::Complete);
    }

    #[test]
    fn wait_then_fire_and_forget() {
        let j = AtomicI32::new(0);
        assert_eq!(wait(&j, 1), AfterWait::Suspended);
        assert_eq!(child_completed(&j), ParentNext::Resume);
        assert_eq!(finish(&j, 2), AfterReturn::Pending);
        assert_eq!(child_completed(&j), ParentNext::Nothing);
        assert_eq!(child_completed(&j), ParentNext::Complete);
    }
}

/// Model-checked: a parent with two children racing with the parent's own join RMW.
#[cfg(all(test, loom))]
mod loom_tests {
    extern crate std;
    use std::sync::Arc;
    use std::vec::Vec;

    use loom::cell::UnsafeCell;
    use loom::thread;

    use super::*;

    /// A parent record: its counter and two result slots in its frame.
    struct Parent {
        join: AtomicI32,
        slots: [UnsafeCell<u32>; 2],
    }

    // SAFETY: test-only; the slots are the data whose ordering the model checks (loom reports
    // any unordered access as a race).
    unsafe impl Sync for Parent {}

    fn parent() -> Arc<Parent> {
        Arc::new(Parent {
            join: AtomicI32::new(0),
            slots: [UnsafeCell::new(0), UnsafeCell::new(0)],
        })
    }

    /// Runs child `i`: writes its result into the parent's frame, then completes.
    fn child(p: &Parent, i: usize, how: Acquire) -> ParentNext {
        // SAFETY: each child writes only its own slot; loom reports any unordered access.
        p.slots[i].with_mut(|s| unsafe { *s = 10 + i as u32 });
        child_completed_with(&p.join, how)
    }

    /// Both ordering variants: every scenario is checked with each.
    const VARIANTS: [Acquire; 2] = [Acquire::Fence, Acquire::InRmw];

    /// Reads both results, as the resumed parent does after its taskwait.
    fn read_results(p: &Parent) -> (u32, u32) {
        // SAFETY: the join protocol orders both writes before this read (what loom checks).
        let a = p.slots[0].with(|s| unsafe { *s });
        // SAFETY: as above.
        let b = p.slots[1].with(|s| unsafe { *s });
        (a, b)
    }

    #[test]
    fn loom_taskwait_with_two_children() {
        for how in VARIANTS {
            loom::model(move || {
                let p = parent();
                let children: Vec<_> = (0..2)
                    .map(|i| {
                        let p = p.clone();
                        thread::spawn(move || {
                            let next = child(&p, i, how);
                            // The child that sees the trigger is the one that resumes the parent.
                            if next == ParentNext::Resume {
                                Some(read_results(&p))
                            } else {
                                None
                            }
                        })
                    })
                    .collect();
                let mut resumed = Vec::new();
                if wait_with(&p.join, 2, how) == AfterWait::Continue {
                    resumed.push(read_results(&p));
                }
                for c in children {
                    resumed.extend(c.join().unwrap());
                }
                // Exactly one party resumes the parent, and it sees both results.
                assert_eq!(resumed, std::vec![(10, 11)]);
            });
        }
    }

    #[test]
    fn loom_return_with_two_unwaited_children() {
        for how in VARIANTS {
            loom::model(move || {
                let p = parent();
                let children: Vec<_> = (0..2)
                    .map(|i| {
                        let p = p.clone();
                        thread::spawn(move || {
                            let next = child(&p, i, how);
                            assert_ne!(next, ParentNext::Resume);
                            next == ParentNext::Complete
                        })
                    })
                    .collect();
                let mut completions =
                    usize::from(finish_with(&p.join, 2, how) == AfterReturn::Complete);
                for c in children {
                    completions += usize::from(c.join().unwrap());
                }
                assert_eq!(completions, 1);
            });
        }
    }

    /// Runs child `i` of a parent whose frame is `frame`; the child that fires the trigger
    /// returns what the resumed parent reads: its frame and both results.
    fn run_child(
        p: &Parent,
        frame: &UnsafeCell<u32>,
        i: usize,
        how: Acquire,
    ) -> Option<(u32, (u32, u32))> {
        if child(p, i, how) != ParentNext::Resume {
            return None;
        }
        // SAFETY: the parent wrote its frame before its children could run; loom checks that
        // the trigger orders this read after it.
        let f = frame.with(|f| unsafe { *f });
        Some((f, read_results(p)))
    }

    /// The GPU thread workers' taskwait: the parent stores its count (`wait_unstarted`)
    /// before either child can run; one child goes to another worker (its thread's spawn
    /// orders what came before it, as the close's Release and a thief's Acquire claim do),
    /// the other runs later on the parent's own worker (a task the warp kept). The child
    /// that fires the trigger must see the parent's frame and both results.
    #[test]
    fn loom_taskwait_with_unstarted_children() {
        for how in VARIANTS {
            loom::model(move || {
                let p = parent();
                let frame = Arc::new(UnsafeCell::new(0u32));
                // SAFETY: no child exists yet; loom checks the later reads' ordering.
                frame.with_mut(|f| unsafe { *f = 7 });
                // SAFETY: neither child runs before the spawn below.
                let next = unsafe { wait_unstarted(&p.join, 2) };
                assert_eq!(next, AfterWait::Suspended);
                let thief = {
                    let (p, frame) = (p.clone(), frame.clone());
                    thread::spawn(move || run_child(&p, &frame, 0, how))
                };
                let mut resumed: Vec<_> = run_child(&p, &frame, 1, how).into_iter().collect();
                resumed.extend(thief.join().unwrap());
                // Exactly one child resumes the parent, and it sees the frame and both results.
                assert_eq!(resumed, std::vec![(7, (10, 11))]);
            });
        }
    }

    /// Completion going up two levels: a grandchild completes its parent (which had returned
    /// with it outstanding), which then completes into the root's taskwait.
    #[test]
    fn loom_completion_chains_up() {
        for how in VARIANTS {
            loom::model(move || {
                let root = parent();
                let mid = Arc::new(AtomicI32::new(0));
                let grandchild = {
                    let (root, mid) = (root.clone(), mid.clone());
                    thread::spawn(move || {
                        // The grandchild's result goes into the root's slot 0 (a detached chain
                        // writing through shared memory, published by the completions).
                        // SAFETY: only this thread writes slot 0; loom checks the read's ordering.
                        root.slots[0].with_mut(|s| unsafe { *s = 10 });
                        if child_completed_with(&mid, how) == ParentNext::Complete
                            && child_completed_with(&root.join, how) == ParentNext::Resume
                        {
                            return Some(read_results(&root));
                        }
                        None
                    })
                };
                let mid_thread = {
                    let (root, mid) = (root.clone(), mid.clone());
                    thread::spawn(move || {
                        // SAFETY: only this thread writes slot 1; loom checks the read's ordering.
                        root.slots[1].with_mut(|s| unsafe { *s = 11 });
                        if finish_with(&mid, 1, how) == AfterReturn::Complete
                            && child_completed_with(&root.join, how) == ParentNext::Resume
                        {
                            return Some(read_results(&root));
                        }
                        None
                    })
                };
                let mut resumed = Vec::new();
                if wait_with(&root.join, 1, how) == AfterWait::Continue {
                    resumed.push(read_results(&root));
                }
                resumed.extend(grandchild.join().unwrap());
                resumed.extend(mid_thread.join().unwrap());
                assert_eq!(resumed, std::vec![(10, 11)]);
            });
        }
    }
}
