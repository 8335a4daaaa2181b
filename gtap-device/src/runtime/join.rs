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
//! The GPU's thread workers make every RMW AcqRel instead and take no fence: the same edges,
//! with the acquire inside the RMW (a fence there is one more `MEMBAR.GPU`).
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

/// The task reaches a taskwait with `n` children spawned since its last one.
#[inline]
pub fn wait(join: &AtomicI32, n: u32) -> AfterWait {
    debug_assert!(n <= MAX_OUTSTANDING);
    // Release: publishes the frame and `queue` to the child that resumes us. The Acquire
    // half is needed only when we go on at once, so it is a fence on that path alone (an
    // acquire RMW would cost every task an L1 invalidation on the GPU).
    let prev = join.fetch_add(step::wait_delta(n), Ordering::Release);
    let next = step::after_wait(prev, n);
    if next == AfterWait::Continue {
        // Acquire: takes in the children that already completed (their results).
        fence(Ordering::Acquire);
    }
    next
}

/// The task returned with `n` children spawned since its last taskwait (not waited for).
#[inline]
pub fn finish(join: &AtomicI32, n: u32) -> AfterReturn {
    debug_assert!(n <= MAX_OUTSTANDING);
    if n == 0 {
        // Every earlier epoch ended with the counter at 0 and this one spawned nothing: no
        // one else touches the counter, and the children of earlier epochs were acquired when
        // the task resumed.
        return AfterReturn::Complete;
    }
    // Release as in `wait`; Acquire (by fence, on that path only) so that completing now
    // comes after the whole subtree.
    let prev = join.fetch_add(step::finish_delta(n), Ordering::Release);
    let next = step::after_finish(prev, n);
    if next == AfterReturn::Complete {
        fence(Ordering::Acquire);
    }
    next
}

/// A child of the task owning `parent_join` completed.
#[inline]
pub fn child_completed(parent_join: &AtomicI32) -> ParentNext {
    // Release: publishes this child's result and subtree. Only the child that fires a
    // trigger needs Acquire (it takes in the other children and the parent's own add), so
    // it alone issues the fence.
    let prev = parent_join.fetch_add(step::CHILD_DELTA, Ordering::Release);
    let next = step::after_child(prev);
    if next != ParentNext::Nothing {
        fence(Ordering::Acquire);
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
    fn child(p: &Parent, i: usize) -> ParentNext {
        // SAFETY: each child writes only its own slot; loom reports any unordered access.
        p.slots[i].with_mut(|s| unsafe { *s = 10 + i as u32 });
        child_completed(&p.join)
    }

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
        loom::model(|| {
            let p = parent();
            let children: Vec<_> = (0..2)
                .map(|i| {
                    let p = p.clone();
                    thread::spawn(move || {
                        let next = child(&p, i);
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
            if wait(&p.join, 2) == AfterWait::Continue {
                resumed.push(read_results(&p));
            }
            for c in children {
                resumed.extend(c.join().unwrap());
            }
            // Exactly one party resumes the parent, and it sees both results.
            assert_eq!(resumed, std::vec![(10, 11)]);
        });
    }

    #[test]
    fn loom_return_with_two_unwaited_children() {
        loom::model(|| {
            let p = parent();
            let children: Vec<_> = (0..2)
                .map(|i| {
                    let p = p.clone();
                    thread::spawn(move || {
                        let next = child(&p, i);
                        assert_ne!(next, ParentNext::Resume);
                        next == ParentNext::Complete
                    })
                })
                .collect();
            let mut completions = usize::from(finish(&p.join, 2) == AfterReturn::Complete);
            for c in children {
                completions += usize::from(c.join().unwrap());
            }
            assert_eq!(completions, 1);
        });
    }

    /// Completion going up two levels: a grandchild completes its parent (which had returned
    /// with it outstanding), which then completes into the root's taskwait.
    #[test]
    fn loom_completion_chains_up() {
        loom::model(|| {
            let root = parent();
            let mid = Arc::new(AtomicI32::new(0));
            let grandchild = {
                let (root, mid) = (root.clone(), mid.clone());
                thread::spawn(move || {
                    // The grandchild's result goes into the root's slot 0 (a detached chain
                    // writing through shared memory, published by the completions).
                    // SAFETY: only this thread writes slot 0; loom checks the read's ordering.
                    root.slots[0].with_mut(|s| unsafe { *s = 10 });
                    if child_completed(&mid) == ParentNext::Complete
                        && child_completed(&root.join) == ParentNext::Resume
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
                    if finish(&mid, 1) == AfterReturn::Complete
                        && child_completed(&root.join) == ParentNext::Resume
                    {
                        return Some(read_results(&root));
                    }
                    None
                })
            };
            let mut resumed = Vec::new();
            if wait(&root.join, 1) == AfterWait::Continue {
                resumed.push(read_results(&root));
            }
            resumed.extend(grandchild.join().unwrap());
            resumed.extend(mid_thread.join().unwrap());
            assert_eq!(resumed, std::vec![(10, 11)]);
        });
    }
}
