//! A task program that uses every feature of the task language, for the CPU and GPU tests
//! (`tests/language_cpu.rs`, `tests/language_gpu.rs`): taskwait in loops, branches and match
//! arms, several taskwaits per task, early returns, tasks without results, a variable number
//! of children, mutual recursion, EPAQ queue choices, and deliberate limit violations and
//! tasks that do not return.

use gtap::device::arch::{DeviceAtomicU64, Relaxed};

/// The program.
#[gtap::program(name = "lang")]
pub mod program {
    use super::Counter;

    /// Sums `f(i)` for `i` in `0..n`, one child per iteration, joined inside the loop.
    #[gtap::task]
    pub fn loop_join(n: u32) -> u64 {
        let mut total = 0;
        for i in 0..n {
            let h = spawn!(square(i));
            taskwait!();
            total += h.get();
        }
        total
    }

    /// `i * i`.
    #[gtap::task]
    pub fn square(i: u32) -> u64 {
        (i as u64) * (i as u64)
    }

    /// A taskwait in each branch of an `if` and of a `match`, and one after both.
    #[gtap::task]
    pub fn branches(n: u32) -> u64 {
        if n == 0 {
            return 1;
        }
        let mut acc = 0;
        if n % 2 == 0 {
            let a = spawn!(branches(n - 1));
            taskwait!();
            acc += a.get();
        } else {
            let a = spawn!(branches(n - 1));
            let b = spawn!(square(n));
            taskwait!();
            acc += a.get() + b.get();
        }
        match n % 3 {
            0 => {
                let c = spawn!(square(n + 1));
                taskwait!();
                acc += c.get();
            }
            1 => acc += 7,
            _ => {
                let d = spawn!(branches(n / 2));
                taskwait!();
                acc += 2 * d.get();
            }
        }
        let e = spawn!(square(2));
        taskwait!();
        acc + e.get()
    }

    /// Several sequential taskwaits, with handles from earlier joins read at the end.
    #[gtap::task]
    pub fn staged(n: u32) -> u64 {
        let a = spawn!(square(n));
        taskwait!();
        let b = spawn!(square(n + 1));
        let c = spawn!(square(n + 2));
        taskwait!();
        let d = spawn!(square(n + 3));
        taskwait!();
        a.get() + b.get() + c.get() + d.get()
    }

    /// Fire and forget: children without results, never joined by this task.
    #[gtap::task]
    pub fn scatter(counter: Counter, depth: u32) {
        counter.add(1);
        if depth > 0 {
            spawn!(scatter(counter, depth - 1));
            spawn!(scatter(counter, depth - 1));
        }
    }

    /// Waits for fire-and-forget children, which the taskwait covers too.
    #[gtap::task]
    pub fn scatter_then_read(counter: Counter, depth: u32) -> u64 {
        spawn!(scatter(counter, depth));
        taskwait!();
        counter.get()
    }

    /// A variable number of children per task, into slots, with a loop-carried sum.
    #[gtap::task]
    pub fn fan(n: u32, width: u32) -> u64 {
        if n == 0 {
            return 1;
        }
        let kids = slots!(u64; 16);
        for _ in 0..width {
            spawn!(into kids, fan(n - 1, width));
        }
        taskwait!();
        1 + kids.iter().sum::<u64>()
    }

    /// Whether `n` is even: mutual recursion between two tasks, with early returns.
    #[gtap::task]
    pub fn even(n: u32) -> bool {
        if n == 0 {
            return true;
        }
        let r = spawn!(odd(n - 1));
        taskwait!();
        r.get()
    }

    /// Whether `n` is odd (calls `even`).
    #[gtap::task]
    pub fn odd(n: u32) -> bool {
        if n == 0 {
            return false;
        }
        let r = spawn!(even(n - 1));
        taskwait!();
        r.get()
    }

    /// Fibonacci with EPAQ queue selectors computed at run time (they only move tasks
    /// between queues; the result must not change).
    #[gtap::task]
    pub fn fib_q(n: u32, salt: u32) -> u64 {
        if n < 2 {
            return n as u64;
        }
        let a = spawn!(queue((n ^ salt) % 3), fib_q(n - 1, salt));
        let b = spawn!(queue((n + salt) % 3), fib_q(n - 2, salt));
        taskwait!(queue(salt % 3));
        a.get() + b.get()
    }

    /// A taskwait with nothing to wait for, and locals (a borrow among them) that live
    /// across joins without type annotations.
    #[gtap::task]
    pub fn locals(n: u32) -> u64 {
        taskwait!();
        let table = [n as u64, 2, 3, 4];
        let first = &table[0];
        let h = spawn!(square(n));
        taskwait!();
        *first + table.iter().sum::<u64>() + h.get()
    }

    /// Indexes a 4-element array with `i`: panics (on the GPU: traps) for `i >= 4`.
    #[gtap::task]
    pub fn index(i: u32) -> u32 {
        let table = [10u32, 11, 12, 13];
        table[i as usize]
    }

    /// Spawns `children` children (up to 16), then spins until `release` is nonzero, then
    /// joins them and returns the sum of their squares: a task body that does not return until
    /// the test says so (CPU tests of stuck tasks). Started as the root, it is sure to be
    /// running when the run's time is up: worker 0 starts the root before anything else.
    #[gtap::task]
    pub fn spin(release: Counter, children: u32) -> u64 {
        let kids = slots!(u64; 16);
        for i in 0..children {
            spawn!(into kids, square(i));
        }
        // An atomic load per round: the loop cannot be optimized into one that never reads.
        while release.get() == 0 {
            core::hint::spin_loop();
        }
        taskwait!();
        kids.iter().sum::<u64>()
    }

    /// `fib(n)` with every spawn a task whatever the granularity policy says.
    #[gtap::task]
    pub fn fib_forced(n: u32) -> u64 {
        if n < 2 {
            return n as u64;
        }
        let a = spawn!(task, fib_forced(n - 1));
        let b = spawn!(task, queue(0), fib_forced(n - 2));
        taskwait!();
        a.get() + b.get()
    }

    /// `fib(n)` run from queue `q` of two, whose children go to the other queue when `flip`
    /// and to `q` otherwise; the continuation comes back to `q`. With `flip`, no spawn goes
    /// to the queue its spawner came from, which the granularity policy never runs inline.
    #[gtap::task]
    pub fn fib_queues(n: u32, q: u32, flip: bool) -> u64 {
        if n < 2 {
            return n as u64;
        }
        let child = if flip { 1 - q } else { q };
        let a = spawn!(queue(child), fib_queues(n - 1, child, flip));
        let b = spawn!(queue(child), fib_queues(n - 2, child, flip));
        taskwait!(queue(q));
        a.get() + b.get()
    }

    /// One child in queue 0, resumed in queue `q`: with `q` past the run's queues, only the
    /// taskwait is out of range (the spawn is not), for the tests of where that is caught.
    #[gtap::task]
    pub fn wait_in(q: u32) -> u64 {
        let h = spawn!(square(3));
        taskwait!(queue(q));
        h.get()
    }

    /// Fails `depth` levels below itself, with a `spawn!(into ..)` past its slots: for the
    /// tests of batches, which name the root a failing task belongs to.
    #[gtap::task]
    pub fn fail_below(depth: u32) -> u64 {
        if depth == 0 {
            let kids = slots!(u64; 2);
            for i in 0..3 {
                spawn!(into kids, square(i));
            }
            taskwait!();
            return kids.iter().sum();
        }
        let below = spawn!(fail_below(depth - 1));
        taskwait!();
        below.get()
    }

    /// `depth` levels of one child each, then at the bottom indexes a 4-element array with
    /// `i`, as `index` does: panics (on the GPU: traps) `depth` tasks below its root when
    /// `i >= 4`, else returns `10 + i`. For the tests of batches that name a panic's root.
    #[gtap::task]
    pub fn panic_below(depth: u32, i: u32) -> u32 {
        if depth == 0 {
            let table = [10u32, 11, 12, 13];
            return table[i as usize];
        }
        let below = spawn!(panic_below(depth - 1, i));
        taskwait!();
        below.get()
    }

    /// The sum of `weight + offset` over the nodes of a tree of `width` children per node
    /// (at most 16) and `depth` levels below this one, where a node's children have its
    /// offset plus their index: a task that sums its children, whose sequential version is
    /// the summing loop. Its arguments are 32 bytes, so that a tree of width 6 and depth 5
    /// keeps more calls pending than the loop's stack holds.
    #[gtap::task]
    pub fn weights(depth: u64, width: u64, weight: u64, offset: u64) -> u64 {
        if depth == 0 {
            return weight + offset;
        }
        let parts = slots!(u64; 16);
        let mut i = 0;
        while i < width {
            spawn!(into parts, weights(depth - 1, width, weight, offset + i));
            i += 1;
        }
        taskwait!();
        parts.iter().sum::<u64>() + weight + offset
    }

    /// Spawns more children than its program allows between two taskwaits.
    #[gtap::task]
    pub fn too_many(n: u32) {
        for _ in 0..n {
            spawn!(square(1));
        }
        taskwait!();
    }
}

/// A shared counter in memory that outlives the run (host memory on the CPU backend,
/// device memory on the GPU), passed to children by address.
#[derive(Clone, Copy, Debug)]
pub struct Counter(*const DeviceAtomicU64);

// SAFETY: the counter is only ever accessed atomically (`add`, `get`), so tasks on any thread
// may share it.
unsafe impl Send for Counter {}
// SAFETY: as above.
unsafe impl Sync for Counter {}

impl Counter {
    /// A counter at `p`.
    ///
    /// # Safety
    /// `p` points to a zeroed, 8-byte aligned `u64` that lives as long as the counter is used.
    pub unsafe fn from_ptr(p: *mut u64) -> Counter {
        Counter(p as *const DeviceAtomicU64)
    }

    fn atomic(self) -> &'static DeviceAtomicU64 {
        // SAFETY: valid for the run (`from_ptr`); `DeviceAtomic` has `u64`'s layout.
        unsafe { &*self.0 }
    }

    /// Adds `v`.
    pub fn add(self, v: u64) {
        self.atomic().fetch_add::<Relaxed>(v);
    }

    /// The current value.
    pub fn get(self) -> u64 {
        self.atomic().load::<Relaxed>()
    }
}

/// What [`program::weights`] computes, and how many nodes its tree has, by plain recursion.
pub fn weights_reference(depth: u64, width: u64, weight: u64, offset: u64) -> (u64, u64) {
    if depth == 0 {
        return (weight + offset, 1);
    }
    (0..width)
        .map(|i| weights_reference(depth - 1, width, weight, offset + i))
        .fold((weight + offset, 1), |(s, n), (cs, cn)| (s + cs, n + cn))
}

/// What [`program::branches`] computes, sequentially.
pub fn branches_reference(n: u32) -> u64 {
    if n == 0 {
        return 1;
    }
    let mut acc = if n.is_multiple_of(2) {
        branches_reference(n - 1)
    } else {
        branches_reference(n - 1) + (n as u64).pow(2)
    };
    acc += match n % 3 {
        0 => (n as u64 + 1).pow(2),
        1 => 7,
        _ => 2 * branches_reference(n / 2),
    };
    acc + 4
}
