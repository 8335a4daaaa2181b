//! Fibonacci with no cutoff: every call is a task (GTaP's task-overhead benchmark); and
//! Fibonacci with a cutoff and EPAQ queues (GTaP's section 6.4 benchmark).
//! And Fibonacci split by a budget of calls, written by hand: the prototype of the split
//! tasks the macro now gives `fib` itself.

/// The task program. With the granularity policy on (the default) and a split budget (the
/// GPU's default; the CPU backend's is 0), the runtime starts `fib`'s split task where it
/// would start `fib` as a task: it walks up to `Limits::split_budget` calls and makes tasks
/// of the rest (README, "Automatic granularity"); `split_budget(0)` goes back to one
/// decision per spawn, the policy off to one task per call.
#[gtap::program(name = "fib")]
pub mod program {
    /// `fib(n)`, spawning both recursive calls.
    #[gtap::task]
    pub fn fib(n: u32) -> u64 {
        if n < 2 {
            return n as u64;
        }
        let a = spawn!(fib(n - 1));
        let b = spawn!(fib(n - 2));
        taskwait!();
        a.get() + b.get()
    }
}

/// Fibonacci split by a budget of calls instead of a cutoff depth: a task walks its call
/// tree sequentially, largest call first, for at most `budget` calls, then makes a task of
/// every call still pending and sums their results after its taskwait. A subtree smaller
/// than the budget runs in one task whatever its depth, and the task tree's depth follows
/// the subtrees' sizes (about `n / 2` levels above the budget's size, against `n` for one
/// task per call). A child's budget is its parent's shifted left by `grow`, up to `max`
/// (`grow = 0`: one budget for every task): small tasks near the root spread the tree over
/// the GPU quickly, larger ones below it keep the task count down. A hand-written
/// prototype of splitting by work for the granularity policy (issues 20 and 22); its
/// spawns are `task`, since it is its own granularity.
#[gtap::program(name = "fib_split")]
pub mod split {
    /// The most calls a task keeps pending; a task whose pending calls reach it splits.
    pub const PENDING: usize = 32;

    /// `fib(n)`, split every `budget` calls (at least one call per task), its children's
    /// budget `budget << grow`, at most `max`.
    #[gtap::task]
    pub fn fib_split(n: u32, budget: u32, grow: u32, max: u32) -> u64 {
        let kids = slots!(u64; 32);
        let sum = {
            let mut stack = [0u32; PENDING];
            stack[0] = n;
            let mut len = 1;
            let mut sum = 0u64;
            let mut left = budget.max(1);
            // A pop and two pushes: at most PENDING pending while the loop runs.
            while len > 0 && left > 0 && len < PENDING {
                len -= 1;
                left -= 1;
                let m = stack[len];
                if m < 2 {
                    sum += m as u64;
                } else {
                    // m - 1 on top: the walk goes down the largest call first, so what is
                    // left pending when the budget ends are its smaller siblings.
                    stack[len] = m - 2;
                    stack[len + 1] = m - 1;
                    len += 2;
                }
            }
            let next = crate::split_budget::next_budget(budget, grow, max);
            let mut i = 0;
            while i < len {
                spawn!(into kids, task, fib_split(stack[i], next, grow, max));
                i += 1;
            }
            sum
        };
        taskwait!();
        sum + kids.iter().sum::<u64>()
    }
}

/// How a cutoff task computes its `fib(n)` sequentially.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Leaf {
    /// The call tree walked with an explicit stack ([`fib_recursive`]): no calls.
    Stack,
    /// Real recursive calls ([`fib_calls`]), as GTaP's `fib_sequential`.
    Calls,
}

/// Fibonacci with a cutoff: calls below `cutoff` run sequentially inside their task (the
/// `leaf` way). With `epaq != 0` the three kinds of work go to three EPAQ queues (run with
/// `num_queues = 3`), as in GTaP's evaluation: tasks that will recurse (queue 0), tasks
/// that will run the sequential code (queue 1), and continuations after the taskwait
/// (queue 2). With `epaq == 0` everything goes to queue 0.
#[gtap::program(name = "fib_epaq")]
pub mod epaq {
    use super::Leaf;

    /// `fib(n)`, sequential below `cutoff`.
    #[gtap::task]
    pub fn fib_cutoff(n: u32, cutoff: u32, epaq: u32, leaf: Leaf) -> u64 {
        if n < 2 {
            return n as u64;
        }
        if n < cutoff {
            return match leaf {
                Leaf::Stack => super::fib_recursive(n),
                Leaf::Calls => super::fib_calls(n),
            };
        }
        // Plain values, not a closure: a closure borrows what it captures, and a borrowed
        // local whose scope spans the taskwait lives in the task's record, where every use
        // after a spawn reads it back from global memory.
        let qa = if epaq != 0 && n - 1 < cutoff { 1 } else { 0 };
        let qb = if epaq != 0 && n - 2 < cutoff { 1 } else { 0 };
        let a = spawn!(queue(qa), fib_cutoff(n - 1, cutoff, epaq, leaf));
        let b = spawn!(queue(qb), fib_cutoff(n - 2, cutoff, epaq, leaf));
        taskwait!(queue(if epaq != 0 { 2 } else { 0 }));
        a.get() + b.get()
    }
}

/// `fib(n)` by plain recursion, each call a real call (on the GPU through the call ABI, with
/// a stack frame in local memory): the sequential code of GTaP's EPAQ benchmark, whose run
/// time varies with `n` and so diverges within a warp unless EPAQ groups the leaves.
///
/// Below `fib(48)` the recursion runs in 32-bit arithmetic, as GTaP's `int fib_sequential`:
/// half the registers to save at each call and half the return value to pass.
pub fn fib_calls(n: u32) -> u64 {
    if n <= 47 {
        u64::from(fib_calls_u32(n))
    } else {
        fib_calls_u64(n)
    }
}

/// [`fib_calls`] for `n <= 47` (`fib(47)` is the largest that fits `u32`).
#[inline(never)]
fn fib_calls_u32(n: u32) -> u32 {
    if n < 2 {
        return n;
    }
    fib_calls_u32(n - 1) + fib_calls_u32(n - 2)
}

/// [`fib_calls`] for `n > 47`.
#[inline(never)]
fn fib_calls_u64(n: u32) -> u64 {
    if n < 2 {
        return n as u64;
    }
    fib_calls_u64(n - 1) + fib_calls_u64(n - 2)
}

/// `fib(n)` by the recursion's own work, sequentially: the work of a cutoff task. It visits
/// the same call tree as `fib(n - 1) + fib(n - 2)` recursion (exponential on purpose: the
/// same work as the tasks it replaces), with an explicit stack instead of calls, which on
/// the GPU would go through the call ABI and spill the worker's registers at every leaf.
///
/// # Panics
/// If `n > 93` (`fib(94)` overflows `u64`).
pub fn fib_recursive(n: u32) -> u64 {
    assert!(n <= 93, "fib({n}) overflows u64");
    // Pending calls; popping `m >= 2` pushes `m - 1` and `m - 2`, so at most `n + 1` wait.
    let mut stack = [0u8; 96];
    stack[0] = n as u8;
    let mut depth = 1;
    let mut sum = 0u64;
    while depth > 0 {
        depth -= 1;
        let m = stack[depth];
        if m < 2 {
            sum += m as u64;
        } else {
            stack[depth] = m - 1;
            stack[depth + 1] = m - 2;
            depth += 2;
        }
    }
    sum
}

/// How many tasks `fib_cutoff(n, cutoff)` runs.
pub fn cutoff_task_count(n: u32, cutoff: u32) -> u64 {
    // t(m) = 1 below the cutoff, else 1 + t(m - 1) + t(m - 2); built bottom-up.
    let (mut older, mut old) = (1u64, 1u64); // t(m - 2), t(m - 1)
    for _ in cutoff.max(2)..=n {
        (older, old) = (old, 1 + old + older);
    }
    old
}

/// `fib(n)` computed sequentially (the check).
pub fn reference(n: u32) -> u64 {
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..n {
        (a, b) = (b, a + b);
    }
    a
}

/// How many tasks `fib(n)` runs: one per call.
pub fn task_count(n: u32) -> u64 {
    2 * reference(n + 1) - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequential_leaves_equal_the_reference() {
        for n in 0..=25 {
            assert_eq!(fib_calls(n), reference(n), "fib_calls({n})");
            assert_eq!(fib_recursive(n), reference(n), "fib_recursive({n})");
        }
        assert_eq!(fib_calls_u64(20), reference(20));
    }

    #[test]
    fn fib_calls_switches_to_u64_where_u32_ends() {
        // `fib_calls` runs `fib_calls_u32` up to 47: the last `fib` that fits.
        assert!(reference(47) <= u64::from(u32::MAX));
        assert!(reference(48) > u64::from(u32::MAX));
    }
}
