//! N-Queens: counts the placements of `n` non-attacking queens by bitmask backtracking.
//! Rows above the cutoff depth spawn one task per free column; below it a task counts
//! sequentially. Module [`epaq`] is the same search with EPAQ queues (GTaP section 6.4), and
//! [`detached`] the same search with no joins, counting into a shared counter (GTaP's form);
//! [`split`] the search with no cutoff, split by a budget of placements (a prototype), and
//! [`auto`] the search with no cutoff, its leaves left to the runtime.

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

/// N-Queens as GTaP's evaluation writes it (`gtap_nq.cu`): no task waits for its children.
/// A task above the cutoff spawns one child per free column and ends; a task at the cutoff
/// counts its subtree sequentially and adds the count to one shared counter, the first
/// element of `count` (what the host reads after the run). So no task is ever resumed, and
/// a task's record is free as soon as it returns: half the rounds of [`program`], whose
/// parents resume to sum their children's counts.
///
/// The counter is an [`AtomicView`](gtap::AtomicView) element, added to with one `Relaxed`
/// `fetch_add` per leaf that found solutions (GTaP adds once per solution): the adds need
/// only be atomic, and the host reads the sum after the run, which orders every add before
/// it ([`gtap::device::data::AtomicView`]'s docs).
#[gtap::program(name = "nqueens_detached")]
pub mod detached {
    use gtap::AtomicView;

    use super::{count_seq, is_leaf};

    /// Adds the solutions below a board state to `count[0]` (`cols`, `diag_l`, `diag_r` as
    /// in [`program::nqueens`](super::program::nqueens)).
    #[gtap::task]
    #[allow(clippy::too_many_arguments)]
    pub fn nqueens(
        n: u32,
        row: u32,
        cols: u32,
        diag_l: u32,
        diag_r: u32,
        cutoff: u32,
        count: AtomicView<'_, u64>,
    ) {
        if is_leaf(n, row, cutoff) {
            let found = count_seq(n, row, cols, diag_l, diag_r);
            if found != 0 {
                count.fetch_add(0, found);
            }
            return;
        }
        let full = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let mut free = full & !(cols | diag_l | diag_r);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            spawn!(nqueens(
                n,
                row + 1,
                cols | bit,
                (diag_l | bit) << 1,
                (diag_r | bit) >> 1,
                cutoff,
                count
            ));
        }
    }
}

/// N-Queens with no cutoff in the source: every placement spawns a task, and the runtime's
/// granularity policy decides which spawns to run inline instead. The task names
/// [`count_seq`] as its sequential version (`#[gtap::task(seq = ..)]`), so an inline call
/// runs the same count as [`program`]'s leaves, where the version the macro would generate
/// from the body (a loop over a stack of board states, `program` with `cutoff = n`) keeps
/// every pending state in memory. The cutoff is the runtime's; the leaf is the user's.
#[gtap::program(name = "nqueens_auto")]
pub mod auto {
    use super::count_seq;

    /// Solutions below a board state (as [`program::nqueens`](super::program::nqueens)).
    #[gtap::task(seq = count_seq)]
    pub fn nqueens(n: u32, row: u32, cols: u32, diag_l: u32, diag_r: u32) -> u64 {
        if row == n {
            return 1;
        }
        let full = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let mut free = full & !(cols | diag_l | diag_r);
        let counts = slots!(u64; 32);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            spawn!(into counts, nqueens(n, row + 1, cols | bit, (diag_l | bit) << 1, (diag_r | bit) >> 1));
        }
        taskwait!();
        counts.iter().sum()
    }
}

/// N-Queens with no cutoff, split by a budget of placements (as `fib::split`): a task
/// walks its subtree from the board state it was given, one placement at a time, for at
/// most `budget` placements, then makes a task of every board state still pending and sums
/// their counts after its taskwait. A child's budget is its parent's shifted left by
/// `grow`, up to `max`. A hand-written prototype of splitting by work (issue 20); its
/// spawns are `task`, since it is its own granularity.
#[gtap::program(name = "nqueens_split")]
pub mod split {
    /// The most board states a task keeps pending (one result slot each).
    pub const PENDING: usize = 32;

    /// Solutions below a board state (as [`program::nqueens`](super::program::nqueens)),
    /// walked for at most `budget` placements per task.
    #[gtap::task]
    #[allow(clippy::too_many_arguments)]
    pub fn nqueens(
        n: u32,
        row: u32,
        cols: u32,
        diag_l: u32,
        diag_r: u32,
        budget: u32,
        grow: u32,
        max: u32,
    ) -> u64 {
        let kids = slots!(u64; 32);
        let sum = {
            let full = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
            // Pending board states: row, columns and both diagonals.
            let mut stack = [(0u32, 0u32, 0u32, 0u32); PENDING];
            stack[0] = (row, cols, diag_l, diag_r);
            let mut len = 1;
            let mut sum = 0u64;
            let mut left = budget.max(1);
            while len > 0 && left > 0 {
                let (r, c, l, d) = stack[len - 1];
                if r == n {
                    sum += 1;
                    len -= 1;
                    continue;
                }
                let mut free = full & !(c | l | d);
                // A state whose placements would not fit stays pending, for a task.
                if len - 1 + free.count_ones() as usize > PENDING {
                    break;
                }
                len -= 1;
                left -= 1;
                while free != 0 {
                    let bit = free & free.wrapping_neg();
                    free ^= bit;
                    stack[len] = (r + 1, c | bit, (l | bit) << 1, (d | bit) >> 1);
                    len += 1;
                }
            }
            let next = crate::split_budget::next_budget(budget, grow, max);
            let mut i = 0;
            while i < len {
                let (r, c, l, d) = stack[i];
                spawn!(into kids, task, nqueens(n, r, c, l, d, next, grow, max));
                i += 1;
            }
            sum
        };
        taskwait!();
        sum + kids.iter().sum::<u64>()
    }
}

/// N-Queens with EPAQ queues, GTaP's section 6.4 benchmark (its Fig. 10 sweeps the cutoff
/// depth at n = 16). The search is [`program`]'s; only the queues differ. A task of row
/// `row` counts sequentially when [`is_leaf`] (at or below the cutoff, or a full board),
/// and otherwise spawns one child per free column, all of row `row + 1`: so a parent knows
/// at the spawn which path its children will take, and EPAQ puts the two kinds in different
/// queues, so that the lanes of a warp run either sequential counts or spawning tasks, not
/// a divergent mix of both.
///
/// `epaq` picks the classifier (run with `num_queues` of at least what it uses):
/// - `0`: everything in queue 0 (the one-queue baseline);
/// - `1`: children that spawn in queue 0, children that count sequentially in queue 1,
///   continuations after the taskwait in queue 0: two queues, GTaP's classifier for this
///   program (its version has no taskwait: its tasks add their counts to a global counter);
/// - `2`: the same, with continuations in queue 2: three queues, as for fib.
///
/// The cutoff counts differently from GTaP's: here the tasks of row `cutoff` count
/// sequentially, there those of rows above `cutoff_depth`, so GTaP's cutoff `d` is ours
/// `d + 1` (the same tasks, [`cutoff_task_count`]).
#[gtap::program(name = "nqueens_epaq")]
pub mod epaq {
    use super::{count_seq, is_leaf};

    /// Solutions below a board state (as [`program::nqueens`](super::program::nqueens)),
    /// its children queued by the classifier `epaq`.
    #[gtap::task]
    #[allow(clippy::too_many_arguments)]
    pub fn nqueens(
        n: u32,
        row: u32,
        cols: u32,
        diag_l: u32,
        diag_r: u32,
        cutoff: u32,
        epaq: u32,
    ) -> u64 {
        if is_leaf(n, row, cutoff) {
            return count_seq(n, row, cols, diag_l, diag_r);
        }
        let full = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let mut free = full & !(cols | diag_l | diag_r);
        // All children are of row `row + 1`: one path, one queue.
        let child_queue = if epaq != 0 && is_leaf(n, row + 1, cutoff) {
            1
        } else {
            0
        };
        let counts = slots!(u64; 32);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            spawn!(into counts, queue(child_queue), nqueens(n, row + 1, cols | bit, (diag_l | bit) << 1, (diag_r | bit) >> 1, cutoff, epaq));
        }
        taskwait!(queue(if epaq >= 2 { 2 } else { 0 }));
        counts.iter().sum()
    }
}

/// Whether the task of row `row` counts sequentially instead of spawning: at the cutoff
/// depth or below it, or on a full board. The EPAQ classifier asks the same question of a
/// child before spawning it.
pub fn is_leaf(n: u32, row: u32, cutoff: u32) -> bool {
    row >= n || row >= cutoff
}

/// How many tasks the search of an `n` board with this cutoff runs: the partial placements
/// of rows `0..=min(cutoff, n)` (each a task; those of the last row count sequentially).
pub fn cutoff_task_count(n: u32, cutoff: u32) -> u64 {
    let full = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
    // Depth-first over the placements, with an explicit stack as in `count_with_stack`: (row,
    // attacked columns and diagonals) of the states still to visit: at most `n - row` of each
    // row, so under 32 * 33 / 2 in all.
    let mut stack = [(0u32, 0u32, 0u32, 0u32); 32 * 32];
    let mut depth = 1;
    let mut tasks = 0u64;
    while depth > 0 {
        depth -= 1;
        let (row, c, l, r) = stack[depth];
        tasks += 1;
        if is_leaf(n, row, cutoff) {
            continue;
        }
        let mut free = full & !(c | l | r);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            stack[depth] = (row + 1, c | bit, (l | bit) << 1, (r | bit) >> 1);
            depth += 1;
        }
    }
    tasks
}

/// Solutions below a board state, sequentially (no recursion: on the GPU, recursion defeats
/// static stack sizing). On a GPU, boards of up to 16 columns (all the benchmarks') keep the
/// whole search in registers ([`count_in_registers`]); on a CPU, and for larger boards, the
/// search keeps a stack of rows in memory ([`count_with_stack`]), which a CPU's cache and
/// branch prediction serve better than the register count's selects.
pub fn count_seq(n: u32, row: u32, cols: u32, diag_l: u32, diag_r: u32) -> u64 {
    if row >= n {
        return 1;
    }
    if cfg!(target_arch = "nvptx64") && n <= REGISTER_COLUMNS {
        count_in_registers(n, row, cols, diag_l, diag_r)
    } else {
        count_with_stack(n, row, cols, diag_l, diag_r)
    }
}

/// The widest board [`count_in_registers`] takes: one row's column fits in 4 bits, so a path
/// of up to 16 rows fits in a `u64`, and a diagonal mask shifted left once per row stays
/// inside a `u32`.
pub const REGISTER_COLUMNS: u32 = 16;

/// One step of [`count_in_registers`] keeps one of three values: the move down a row
/// (`down`), the next column of the same row (`placed`, not `down`), or the move back up.
/// A macro rather than a function: its `if` chain evaluates only the arm it keeps (a
/// function's arguments would all be computed, `depth - 1` at depth 0 among them), and it
/// leaves the code the compiler sees as written out.
macro_rules! pick {
    ($down:expr, $placed:expr; $d:expr, $s:expr, $u:expr) => {
        if $down {
            $d
        } else if $placed {
            $s
        } else {
            $u
        }
    };
}

/// [`count_seq`] for boards of up to [`REGISTER_COLUMNS`] columns (`row < n`), with no
/// memory: instead of a stack of every row's masks, it keeps the column of the queen it
/// placed in each row above the current one (4 bits a row) and undoes that row's masks on
/// the way back up. On a GPU the stack of [`count_with_stack`] lives in local memory, and
/// every step that goes back up waits for a load; here every step is a few integer
/// operations on registers. Each step works out both moves, a row down and a row back up,
/// and keeps the one that applies (selects rather than branches), so that the lanes of a
/// warp counting different subtrees run the same instructions at every step: with branches
/// they drift apart and take turns.
///
/// Undoing is exact: a row's columns and left diagonals come back by clearing the queen's
/// bit (the left mask only ever shifts left, and with at most 16 columns and 16 rows its
/// bits stay inside 31); the right mask shifts right and drops its lowest bit, which `lost`
/// keeps, a bit per row. The columns left to try in a row are those above the queen just
/// taken off, since a row takes its free columns from the lowest up.
pub fn count_in_registers(n: u32, row: u32, cols: u32, diag_l: u32, diag_r: u32) -> u64 {
    debug_assert!(n <= REGISTER_COLUMNS && row < n);
    let full = (1u32 << n) - 1;
    // The row searched now is `row + depth`; the last row is `row + last`.
    let last = n - row - 1;
    let (mut c, mut l, mut r) = (cols, diag_l, diag_r);
    let mut free = full & !(c | l | r);
    // The queens' columns of the rows `row .. row + depth`, the newest in the low 4 bits, and
    // the right mask's bit each of those rows dropped, the newest lowest.
    let (mut path, mut lost) = (0u64, 0u32);
    let mut depth = 0u32;
    let mut total = 0u64;
    loop {
        let placed = free != 0;
        if !placed && depth == 0 {
            return total;
        }
        let bit = free & free.wrapping_neg();
        let at_last = depth == last;
        let down = placed & !at_last;
        total += u64::from(placed & at_last);
        // Down: a queen at `bit`, in the next row. Up: the queen of the row above, `up`,
        // taken off. Neither, at the last row: one solution, and the next column.
        let up = 1u32 << (path & 0xF) as u32;
        let (dc, dl, dr) = (c | bit, (l | bit) << 1, (r | bit) >> 1);
        let (uc, ul, ur) = (c ^ up, (l >> 1) ^ up, ((r << 1) | (lost & 1)) ^ up);
        let dlost = (lost << 1) | ((r | bit) & 1);
        let dpath = (path << 4) | u64::from(bit.trailing_zeros());
        let dfree = full & !(dc | dl | dr);
        let ufree = full & !(uc | ul | ur) & !(up | up.wrapping_sub(1));
        c = pick!(down, placed; dc, c, uc);
        l = pick!(down, placed; dl, l, ul);
        r = pick!(down, placed; dr, r, ur);
        lost = pick!(down, placed; dlost, lost, lost >> 1);
        path = pick!(down, placed; dpath, path, path >> 4);
        free = pick!(down, placed; dfree, free ^ bit, ufree);
        depth = pick!(down, placed; depth + 1, depth, depth - 1);
    }
}

/// [`count_seq`] for any board up to [`MAX_N`] columns, with an explicit stack of every
/// row's masks.
pub fn count_with_stack(n: u32, row: u32, cols: u32, diag_l: u32, diag_r: u32) -> u64 {
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

#[cfg(test)]
mod tests {
    use std::vec;
    use std::vec::Vec;

    use super::*;

    /// Every partial placement of the first `rows` rows of an `n` board, as `count_seq`'s
    /// arguments: the states the search hands its leaves.
    fn states(n: u32, rows: u32) -> Vec<(u32, u32, u32, u32)> {
        let full = (1u32 << n) - 1;
        let mut at = vec![(0, 0, 0, 0)];
        for _ in 0..rows {
            let mut next = Vec::new();
            for &(row, c, l, r) in &at {
                let mut free = full & !(c | l | r);
                while free != 0 {
                    let bit = free & free.wrapping_neg();
                    free ^= bit;
                    next.push((row + 1, c | bit, (l | bit) << 1, (r | bit) >> 1));
                }
            }
            at = next;
        }
        at
    }

    #[test]
    fn both_counts_give_the_known_totals() {
        for n in 1..=12u32 {
            let want = KNOWN[n as usize];
            assert_eq!(
                count_in_registers(n, 0, 0, 0, 0),
                want,
                "registers, n = {n}"
            );
            assert_eq!(count_with_stack(n, 0, 0, 0, 0), want, "stack, n = {n}");
            assert_eq!(count_seq(n, 0, 0, 0, 0), want, "count_seq, n = {n}");
        }
    }

    /// From every state a few rows down (the leaves a cutoff makes) both counts agree, and
    /// their sum is the total; on the widest board the register count takes, from a sample
    /// of the states of a cutoff at row 6.
    #[test]
    fn the_register_count_agrees_with_the_stack_below_every_cutoff() {
        for n in [8u32, 11, 13] {
            for rows in [1u32, 3, n / 2 + 1, n - 1] {
                let mut sum = 0;
                for (row, c, l, r) in states(n, rows) {
                    let got = count_in_registers(n, row, c, l, r);
                    assert_eq!(got, count_with_stack(n, row, c, l, r), "n {n} row {row}");
                    sum += got;
                }
                assert_eq!(sum, KNOWN[n as usize], "n {n} from row {rows}");
            }
        }
        for (row, c, l, r) in states(16, 6).into_iter().step_by(499) {
            let got = count_in_registers(16, row, c, l, r);
            assert_eq!(got, count_with_stack(16, row, c, l, r), "n 16 row {row}");
        }
    }

    /// Masks with bits outside the board (as a caller may pass) change nothing.
    #[test]
    fn bits_outside_the_board_are_ignored() {
        for (row, c, l, r) in states(10, 3) {
            let want = count_with_stack(10, row, c, l, r);
            let (l2, r2) = (l | 0xFFFF_0000, r | 0x8000_0000);
            assert_eq!(count_in_registers(10, row, c, l2, r2), want);
        }
    }
}
