//! Knapsack instances, generated from a seed: the items sorted as the search wants them.

#[cfg(not(target_arch = "nvptx64"))]
use std::vec::Vec;

use super::Item;

/// How item values relate to weights. The stronger the correlation, the closer the items'
/// ratios, the weaker the bound, and the larger the search tree for the same number of items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Correlation {
    /// Values and weights independent, both uniform in `1..=range`.
    None,
    /// Each value within `range / 10` of its weight.
    Weak,
    /// Each value its weight plus `range / 10`: every item nearly as good as any other.
    Strong,
}

/// Whether item `a` is worth more per unit of weight than `b` (exactly, in integers).
pub fn better_ratio(a: Item, b: Item) -> bool {
    u64::from(a.value) * u64::from(b.weight) > u64::from(b.value) * u64::from(a.weight)
}

/// A knapsack instance: items sorted by ratio, best first (ties by weight, lighter first),
/// and the capacity.
#[cfg(not(target_arch = "nvptx64"))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// The items, best ratio first.
    pub items: Vec<Item>,
    /// What the knapsack holds.
    pub capacity: u32,
}

#[cfg(not(target_arch = "nvptx64"))]
impl Instance {
    /// `n` items with weights uniform in `1..=range` and values by `correlation`, and a
    /// capacity of half their total weight; the same `seed` gives the same instance.
    ///
    /// # Panics
    /// If `range` is below 10.
    pub fn generate(n: usize, range: u32, correlation: Correlation, seed: u64) -> Instance {
        assert!(range >= 10, "a value range of at least 10");
        let mut rng = crate::rng::Rng::new(seed);
        let tenth = range / 10;
        let items: Vec<Item> = (0..n)
            .map(|_| {
                let weight = rng.range(1, range);
                let value = match correlation {
                    Correlation::None => rng.range(1, range),
                    Correlation::Weak => {
                        let lo = weight.saturating_sub(tenth).max(1);
                        rng.range(lo, weight + tenth)
                    }
                    Correlation::Strong => weight + tenth,
                };
                Item { weight, value }
            })
            .collect();
        let total: u64 = items.iter().map(|i| u64::from(i.weight)).sum();
        Instance::new(items, (total / 2) as u32)
    }

    /// The instance of `items` (any order) and `capacity`.
    ///
    /// # Panics
    /// If an item weighs 0.
    pub fn new(mut items: Vec<Item>, capacity: u32) -> Instance {
        assert!(
            items.iter().all(|i| i.weight > 0),
            "every item weighs something"
        );
        items.sort_by(|a, b| {
            let ab = u64::from(a.value) * u64::from(b.weight);
            let ba = u64::from(b.value) * u64::from(a.weight);
            ba.cmp(&ab).then(a.weight.cmp(&b.weight))
        });
        Instance { items, capacity }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_come_best_ratio_first_and_the_seed_decides() {
        for c in [Correlation::None, Correlation::Weak, Correlation::Strong] {
            let a = Instance::generate(40, 1000, c, 7);
            assert_eq!(a, Instance::generate(40, 1000, c, 7));
            assert_ne!(a, Instance::generate(40, 1000, c, 8));
            assert!(a.items.windows(2).all(|w| !better_ratio(w[1], w[0])));
            assert!(a.items.iter().all(|i| (1..=1000).contains(&i.weight)));
            let total: u32 = a.items.iter().map(|i| i.weight).sum();
            assert_eq!(a.capacity, total / 2);
        }
    }
}
