//! The budget schedule of the programs split by a budget of work ([`fib::split`],
//! [`nqueens::split`]): one definition, so that both prototypes measure the same schedule.
//!
//! [`fib::split`]: crate::fib::split
//! [`nqueens::split`]: crate::nqueens::split

/// A child's budget: its parent's `budget` shifted left by `grow`, at most `max`, and never
/// below the parent's (so `max` under `budget` keeps the budget, and a shift past 31 bits
/// is the largest budget, not zero).
pub fn next_budget(budget: u32, grow: u32, max: u32) -> u32 {
    budget
        .checked_shl(grow)
        .unwrap_or(u32::MAX)
        .min(max)
        .max(budget)
}

#[cfg(test)]
mod tests {
    use super::next_budget;

    #[test]
    fn budgets_grow_by_the_shift_up_to_the_largest() {
        assert_eq!(next_budget(16, 0, 16), 16);
        assert_eq!(next_budget(16, 1, 2048), 32);
        assert_eq!(next_budget(1024, 1, 2048), 2048);
        assert_eq!(next_budget(2048, 1, 2048), 2048);
        assert_eq!(next_budget(64, 2, 100), 100);
        assert_eq!(next_budget(64, 1, 8), 64);
        assert_eq!(next_budget(3, 40, u32::MAX), u32::MAX);
        assert_eq!(next_budget(0, 3, 10), 0);
    }
}
