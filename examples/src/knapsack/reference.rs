//! The knapsack's references: the exact answer by dynamic programming, and the same branch
//! and bound as the task program, sequential and on rayon with the same bound sharing.

use std::sync::atomic::{AtomicU32, Ordering};

use super::{Found, Item, bound};

/// The best value of a packing of `items` into `capacity`, by dynamic programming over the
/// capacities (`O(items × capacity)` time, `O(capacity)` memory).
pub fn dp_best(items: &[Item], capacity: u32) -> u32 {
    let mut best = std::vec![0u32; capacity as usize + 1];
    for item in items {
        let w = item.weight as usize;
        for c in (w..best.len()).rev() {
            best[c] = best[c].max(best[c - w] + item.value);
        }
    }
    best[capacity as usize]
}

/// The value of the greedy packing: the items in order (best ratio first), each taken if it
/// still fits. A packing that exists, so a sound starting value for the shared best of every
/// search (the sequential one, rayon's and the GPU's alike): with it, the bound prunes from
/// the first node instead of after the first packings are found.
pub fn greedy(items: &[Item], capacity: u32) -> u32 {
    let mut left = capacity;
    let mut value = 0;
    for item in items {
        if item.weight <= left {
            left -= item.weight;
            value += item.value;
        }
    }
    value
}

/// The task program's search, sequential: the same nodes in the same order as the task
/// program's sequential version (without-child first), sharing the best through `best`.
pub fn search(items: &[Item], capacity: u32, value: u32, best: &AtomicU32) -> Found {
    let Some((&next, rest)) = items.split_first() else {
        // Relaxed: see the module docs of `knapsack` (a bound only).
        best.fetch_max(value, Ordering::Relaxed);
        return Found::leaf(value);
    };
    if capacity == 0 {
        best.fetch_max(value, Ordering::Relaxed);
        return Found::leaf(value);
    }
    if bound(next, capacity, value) < u64::from(best.load(Ordering::Relaxed)) {
        return Found::leaf(0);
    }
    let mut found = Found::leaf(0).with(search(rest, capacity, value, best));
    if next.weight <= capacity {
        let with = search(rest, capacity - next.weight, value + next.value, best);
        found = found.with(with);
    }
    found
}

/// The same search on rayon: both children of a node with `join` while fewer than `levels`
/// items are decided, sequential ([`search`]) below; one best for all, as on the GPU.
pub fn search_rayon(
    items: &[Item],
    capacity: u32,
    value: u32,
    best: &AtomicU32,
    levels: u32,
) -> Found {
    if levels == 0 {
        return search(items, capacity, value, best);
    }
    let Some((&next, rest)) = items.split_first() else {
        best.fetch_max(value, Ordering::Relaxed);
        return Found::leaf(value);
    };
    if capacity == 0 {
        best.fetch_max(value, Ordering::Relaxed);
        return Found::leaf(value);
    }
    if bound(next, capacity, value) < u64::from(best.load(Ordering::Relaxed)) {
        return Found::leaf(0);
    }
    let (without, with) = rayon::join(
        || search_rayon(rest, capacity, value, best, levels - 1),
        || {
            (next.weight <= capacity).then(|| {
                let (c, v) = (capacity - next.weight, value + next.value);
                search_rayon(rest, c, v, best, levels - 1)
            })
        },
    );
    let found = Found::leaf(0).with(without);
    with.map_or(found, |w| found.with(w))
}

#[cfg(test)]
mod tests {
    use super::super::instance::{Correlation, Instance};
    use super::*;

    /// The best value of every packing, by trying each subset (small instances only).
    fn exhaustive(items: &[Item], capacity: u32) -> u32 {
        (0u32..1 << items.len())
            .filter_map(|set| {
                let (mut w, mut v) = (0u64, 0u32);
                for (i, item) in items.iter().enumerate() {
                    if set & (1 << i) != 0 {
                        w += u64::from(item.weight);
                        v += item.value;
                    }
                }
                (w <= u64::from(capacity)).then_some(v)
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn dynamic_programming_agrees_with_trying_every_subset() {
        for seed in 0..20 {
            for c in [Correlation::None, Correlation::Weak, Correlation::Strong] {
                let inst = Instance::generate(12, 50, c, seed);
                let want = exhaustive(&inst.items, inst.capacity);
                assert_eq!(
                    dp_best(&inst.items, inst.capacity),
                    want,
                    "seed {seed} {c:?}"
                );
                assert_eq!(dp_best(&inst.items, 0), 0);
            }
        }
    }

    #[test]
    fn a_greedy_start_is_a_packing_and_prunes_more() {
        for seed in 0..10 {
            for c in [Correlation::None, Correlation::Weak, Correlation::Strong] {
                let inst = Instance::generate(28, 1000, c, seed);
                let want = dp_best(&inst.items, inst.capacity);
                let start = greedy(&inst.items, inst.capacity);
                assert!(start <= want, "greedy {start} above the best {want}");
                let from_zero = search(&inst.items, inst.capacity, 0, &AtomicU32::new(0));
                let from_greedy = search(&inst.items, inst.capacity, 0, &AtomicU32::new(start));
                // The search only reports packings it reached; with a start at the best it may
                // reach none, and the best is the start's.
                assert_eq!(from_greedy.best.max(start), want, "seed {seed} {c:?}");
                assert!(
                    from_greedy.nodes <= from_zero.nodes,
                    "seed {seed} {c:?}: {} nodes from greedy, {} from zero",
                    from_greedy.nodes,
                    from_zero.nodes
                );
            }
        }
    }

    #[test]
    fn branch_and_bound_finds_the_best_sequentially_and_on_rayon() {
        for seed in 0..10 {
            for c in [Correlation::None, Correlation::Weak, Correlation::Strong] {
                let inst = Instance::generate(24, 1000, c, seed);
                let want = dp_best(&inst.items, inst.capacity);
                let best = AtomicU32::new(0);
                let seq = search(&inst.items, inst.capacity, 0, &best);
                assert_eq!((seq.best, best.load(Ordering::Relaxed)), (want, want));
                let best = AtomicU32::new(0);
                let par = search_rayon(&inst.items, inst.capacity, 0, &best, 8);
                assert_eq!(par.best, want, "rayon, seed {seed} {c:?}");
                assert!(par.nodes > 0);
            }
        }
    }
}
