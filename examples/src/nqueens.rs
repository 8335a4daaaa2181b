//! N-Queens: counts the placements of `n` non-attacking queens by bitmask backtracking.
//! Rows above the cutoff depth spawn one task per free column; below it a task counts
//! sequentially.

/// The most columns supported (one bit each in a `u32`, one result slot each).
pub const MAX_N: u32 = 32;

/// The task program.
#[gtap::program(name = "nqueens")]
pub mod program {
    use super::count_seq;

    /// Solutions below a board state: `cols`, `diag_l`, `diag_r` mark attacked columns.
    #[gtap::task]
    pub fn nqueens(n: u32, row: u32, cols: u32, diag_l: u32, diag_r: u32, cutoff: u32) -> u64 {
        if row == n {
            return 1;
        }
        if row >= cutoff {
            return count_seq(n, row, cols, diag_l, diag_r);
        }
        let full = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let mut free = full & !(cols | diag_l | diag_r);
        let counts = slots!(u64; 32);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            spawn!(into counts, nqueens(n, row + 1, cols | bit, (diag_l | bit) << 1, (diag_r | bit) >> 1, cutoff));
        }
        taskwait!();
        counts.iter().sum()
    }
}

/// Solutions below a board state, sequentially, with an explicit stack (no recursion: on the
/// GPU, recursion defeats static stack sizing).
pub fn count_seq(n: u32, row: u32, cols: u32, diag_l: u32, diag_r: u32) -> u64 {
    if row >= n {
        return 1;
    }
    let full = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
    let rows_left = (n - row) as usize;
    // One entry per row below `row`: the attacked masks and the columns still to try.
    let mut stack = [(0u32, 0u32, 0u32, 0u32); MAX_N as usize];
    stack[0] = (cols, diag_l, diag_r, full & !(cols | diag_l | diag_r));
    let mut depth = 0usize;
    let mut total = 0u64;
    loop {
        let (c, l, r, free) = stack[depth];
        if free == 0 {
            if depth == 0 {
                return total;
            }
            depth -= 1;
            continue;
        }
        let bit = free & free.wrapping_neg();
        stack[depth].3 = free ^ bit;
        if depth + 1 == rows_left {
            total += 1;
            continue;
        }
        let (c, l, r) = (c | bit, (l | bit) << 1, (r | bit) >> 1);
        depth += 1;
        stack[depth] = (c, l, r, full & !(c | l | r));
    }
}

/// The known counts for n = 0..=16 (OEIS A000170).
pub const KNOWN: [u64; 17] = [
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
];
