//! Task programs whose arguments borrow: arrays split among children and whole again after
//! the join, shared read-only arrays, slots of children over chunks, children without a
//! handle given what their parent holds for its whole life, views at the root, and an array
//! of flags that tasks set at once. Each has a plain sequential reference; `borrow_cpu.rs`
//! and `borrow_gpu.rs` run them (the GPU with `DeviceVec`s).

/// The task program (thread tasks).
#[gtap::program(name = "borrow")]
pub mod program {
    use gtap::{AtomicView, View, ViewMut};

    /// The root: doubles `data` by halves ([`double`]), then adds `bias` to every element
    /// of it, reading `bias` through a shared view; returns the sum of `data` afterwards.
    #[gtap::task]
    pub fn root(data: ViewMut<'_, u32>, bias: View<'_, u32>, grain: usize) -> u64 {
        let data = data.into_mut_slice();
        let bias = bias.as_slice();
        let doubled = spawn!(double(data, grain));
        taskwait!();
        // Whole again: the child lent its parts to its own children, and they are joined.
        let adds = spawn!(add(data, bias, grain));
        taskwait!();
        let _ = (doubled.get(), adds.get());
        data.iter().map(|&x| u64::from(x)).sum()
    }

    /// Doubles every element: halves to two children down to `grain` elements, and counts
    /// the elements after the join, when the whole slice is back.
    #[gtap::task]
    pub fn double(data: &mut [u32], grain: usize) -> u64 {
        if data.len() <= grain.max(1) {
            data.iter_mut().for_each(|x| *x = x.wrapping_mul(2));
            return data.len() as u64;
        }
        let mid = data.len() / 2;
        let (lo, hi) = data.split_at_mut(mid);
        let a = spawn!(double(lo, grain));
        let b = spawn!(double(hi, grain));
        taskwait!();
        assert_eq!(a.get() + b.get(), data.len() as u64, "a child's count");
        data.len() as u64
    }

    /// Adds `bias[i % bias.len()]` to `data[i]`, in chunks of `grain` elements, one child per
    /// chunk (slots); `bias` is shared by every child.
    #[gtap::task]
    pub fn add(data: &mut [u32], bias: &[u32], grain: usize) -> u64 {
        let grain = grain.max(1);
        if data.len() <= grain {
            return add_from(data, bias, 0);
        }
        let hs = slots!(u64; 16);
        let chunk = data.len().div_ceil(16).max(grain);
        for (k, part) in data.chunks_mut(chunk).enumerate() {
            spawn!(into hs, add_chunk(part, bias, k * chunk));
        }
        taskwait!();
        hs.iter().sum()
    }

    /// [`add`]'s leaf: elements `first..` of the whole array are `data`.
    #[gtap::task]
    pub fn add_chunk(data: &mut [u32], bias: &[u32], first: usize) -> u64 {
        add_from(data, bias, first)
    }

    /// Sets `data[i] = i + 1` everywhere, splitting into children without handles down to
    /// `grain` (each gets a part for the whole life of its parent, `into_split_at`), and
    /// returns without waiting for them.
    #[gtap::task]
    pub fn fill(data: ViewMut<'_, u32>, first: u32, grain: usize) {
        if data.len() <= grain.max(1) {
            let n = data.len() as u32;
            let out = data.into_mut_slice();
            for (x, i) in out.iter_mut().zip(first..first + n) {
                *x = i + 1;
            }
            return;
        }
        let mid = data.len() / 2;
        let (lo, hi) = data.into_split_at(mid);
        spawn!(fill(lo, first, grain));
        spawn!(fill(hi, first + mid as u32, grain));
    }

    /// Marks every vertex reachable from `v` in the graph of `row_ptr`/`col` (compressed
    /// rows) in `visited` (one flag per vertex): a child per neighbour whose flag this task
    /// set first, so each vertex is expanded exactly once; returns nothing, waits for nothing.
    /// Its children are always tasks (`spawn!(task, ..)`): a walk's recursion has no depth
    /// bound, and run inline by the granularity policy it would be a depth-first search as
    /// deep as the longest path it finds (over a thousand calls on the tests' graph), more
    /// than a GPU thread's stack holds.
    #[gtap::task]
    pub fn reach(row_ptr: View<'_, u32>, col: View<'_, u32>, visited: AtomicView<'_, u32>, v: u32) {
        let (rows, cols) = (row_ptr.as_slice(), col.as_slice());
        for &u in &cols[rows[v as usize] as usize..rows[v as usize + 1] as usize] {
            if visited.set_bit(u as usize) {
                spawn!(task, reach(row_ptr, col, visited, u));
            }
        }
    }

    /// Adds `bias[(first + i) % bias.len()]` to each `data[i]`; returns how many.
    fn add_from(data: &mut [u32], bias: &[u32], first: usize) -> u64 {
        for (i, x) in data.iter_mut().enumerate() {
            *x = x.wrapping_add(bias[(first + i) % bias.len()]);
        }
        data.len() as u64
    }
}

/// What [`program::root`] leaves in `data` and returns.
pub fn root_reference(data: &mut [u32], bias: &[u32]) -> u64 {
    for (i, x) in data.iter_mut().enumerate() {
        *x = x.wrapping_mul(2).wrapping_add(bias[i % bias.len()]);
    }
    data.iter().map(|&x| u64::from(x)).sum()
}

/// A block program: the team sums a shared array into an atomic, each thread a stride.
#[gtap::program(name = "borrow_block")]
pub mod block_program {
    use gtap::{AtomicView, Block, View};

    /// Adds every element of `xs` to `total[0]`, splitting ranges longer than `grain`
    /// between two block tasks (spawned by the leader).
    #[gtap::task(block)]
    pub fn sum(b: Block, xs: View<'_, u32>, total: AtomicView<'_, u64>, grain: u32) {
        if xs.len() > grain.max(1) as usize {
            if b.is_leader() {
                let (lo, hi) = xs.split_at(xs.len() / 2);
                spawn!(sum(lo, total, grain));
                spawn!(sum(hi, total, grain));
            }
            return;
        }
        let part: u64 = xs
            .as_slice()
            .iter()
            .skip(b.index() as usize)
            .step_by(b.size() as usize)
            .map(|&x| u64::from(x))
            .sum();
        total.fetch_add(0, part);
    }
}
