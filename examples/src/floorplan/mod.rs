//! Floorplan: place cells on a board, each of one of a few shapes and against the cell
//! before it, so that the rectangle from the board's corner that covers them all is as small
//! as it can be; a search with pruning against the smallest area found by any task. A
//! simplified, faithful variant of BOTS's `floorplan` (the Barcelona OpenMP Tasks Suite).
//!
//! What is BOTS's: cells are placed one after another; a cell has a few alternative shapes
//! (rows × columns); it is placed against an earlier cell, either to its right with its top
//! row anywhere along that cell's right edge, or below it with its left column anywhere along
//! that cell's bottom edge (BOTS's `starts`); a placement must stay on the board and not
//! overlap a placed cell (BOTS's `lay_down`); the footprint is the rectangle from the board's
//! corner to the farthest row and column used, and its area is what is minimised; a task per
//! placement that the footprint's area does not already rule out; the smallest area of a
//! complete placement is shared, and every task prunes with it.
//!
//! What is simplified: each cell is placed against the cell just before it (BOTS reads, per
//! cell, which cell it goes to the right of and which it goes below, and may ask for both at
//! once), the board is 16 × 16 (BOTS's is 64 × 64), and a task gets its board as 16
//! bitmask rows (32 bytes) by value, where BOTS copies a 4 KiB array of chars into each task.
//! BOTS also keeps the best board, which is not computed here.
//!
//! Tasks return nothing and wait for nothing: the answer and the node count are shared
//! atomics ([`AtomicView`](gtap::AtomicView)s: the smallest area with `fetch_min`, the
//! visited placements with `fetch_add`), and the run ends when every task has.
//!
//! # Memory ordering
//! `Relaxed` at GPU scope (see [`gtap::device::data::AtomicView`]): a stale smallest area
//! only prunes less; the count is a sum of increments; the host reads both after the run.

#[cfg(not(target_arch = "nvptx64"))]
pub mod reference;

/// The board's side: placements stay within `BOARD × BOARD` cells.
pub const BOARD: u32 = 16;

/// The most shapes a cell may have.
pub const MAX_SHAPES: usize = 4;

/// Which side of the previous cell a cell goes on.
pub const RIGHT_OF_PREVIOUS: u32 = 0;
/// See [`RIGHT_OF_PREVIOUS`].
pub const BELOW_PREVIOUS: u32 = 1;

/// A cell to place: its shapes, and the side of the previous cell it goes on (the first
/// cell goes in the board's corner).
#[derive(Clone, Copy, Debug, PartialEq, Eq, gtap::Plain)]
#[repr(C)]
pub struct Cell {
    /// How many of `shapes` the cell has (1 to [`MAX_SHAPES`]).
    pub count: u32,
    /// [`RIGHT_OF_PREVIOUS`] or [`BELOW_PREVIOUS`].
    pub side: u32,
    /// Each shape's rows and columns (1 to [`BOARD`]).
    pub shapes: [[u32; 2]; MAX_SHAPES],
}

/// A placed cell: its first and last row and column (inclusive, as BOTS keeps them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// First row.
    pub top: u32,
    /// Last row.
    pub bot: u32,
    /// First column.
    pub lhs: u32,
    /// Last column.
    pub rhs: u32,
}

/// The board: which cells are taken, one bit per column of each row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Board {
    rows: [u16; BOARD as usize],
}

impl Board {
    /// The board with `r` laid down on it, or `None` if `r` leaves the board or overlaps a
    /// placed cell.
    #[inline(always)]
    pub fn lay_down(mut self, r: Rect) -> Option<Board> {
        if r.bot >= BOARD || r.rhs >= BOARD {
            return None;
        }
        let width = r.rhs - r.lhs + 1;
        let mask = (((1u32 << width) - 1) << r.lhs) as u16;
        for row in &mut self.rows[r.top as usize..=r.bot as usize] {
            if *row & mask != 0 {
                return None;
            }
            *row |= mask;
        }
        Some(self)
    }
}

/// The footprint: how many rows and columns from the board's corner the placed cells use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Footprint {
    /// Rows used.
    pub rows: u32,
    /// Columns used.
    pub cols: u32,
}

impl Footprint {
    /// The footprint with `r` placed too.
    #[inline(always)]
    pub fn with(self, r: Rect) -> Footprint {
        Footprint {
            rows: self.rows.max(r.bot + 1),
            cols: self.cols.max(r.rhs + 1),
        }
    }

    /// Its area.
    #[inline(always)]
    pub fn area(self) -> u32 {
        self.rows * self.cols
    }
}

/// The places of a cell of `rows × cols` going on `side` of `prev` (BOTS's `starts`): its
/// top-left corner for each, in order. The first cell (`prev` is `None`) goes in the corner.
#[inline(always)]
pub fn places(prev: Option<Rect>, side: u32, rows: u32, cols: u32) -> Places {
    let Some(p) = prev else {
        return Places {
            fixed: 0,
            along: 0,
            end: 0,
            right: true,
        };
    };
    if side == RIGHT_OF_PREVIOUS {
        // Top row from `rows - 1` above the previous cell's top to its bottom row.
        Places {
            fixed: p.rhs + 1,
            along: (p.top + 1).saturating_sub(rows),
            end: p.bot.min(BOARD - 1),
            right: true,
        }
    } else {
        Places {
            fixed: p.bot + 1,
            along: (p.lhs + 1).saturating_sub(cols),
            end: p.rhs.min(BOARD - 1),
            right: false,
        }
    }
}

/// An iterator over a cell's places: see [`places`].
#[derive(Clone, Copy, Debug)]
pub struct Places {
    /// The column (right of) or row (below) the cell starts at.
    fixed: u32,
    /// The next row (right of) or column (below) to try.
    along: u32,
    /// The last one.
    end: u32,
    right: bool,
}

impl Iterator for Places {
    /// `(top, lhs)`.
    type Item = (u32, u32);

    #[inline(always)]
    fn next(&mut self) -> Option<(u32, u32)> {
        if self.along > self.end {
            return None;
        }
        let a = self.along;
        self.along += 1;
        Some(if self.right {
            (a, self.fixed)
        } else {
            (self.fixed, a)
        })
    }
}

/// The rectangle of a `rows × cols` cell whose top-left corner is `(top, lhs)`.
#[inline(always)]
pub fn rect(top: u32, lhs: u32, rows: u32, cols: u32) -> Rect {
    Rect {
        top,
        bot: top + rows - 1,
        lhs,
        rhs: lhs + cols - 1,
    }
}

/// The program.
#[gtap::program(name = "floorplan")]
pub mod program {
    use gtap::device::data::{DeviceAtomic, Relaxed};
    use gtap::{AtomicView, View};

    use super::{Board, Cell, Footprint, Rect, places, rect};

    /// Places `cells` (a first and every later one against the one before): `best` (one
    /// `u32`, start it at `u32::MAX`) ends at the smallest footprint area of a complete
    /// placement, and `nodes` (one `u64`, from 0) counts the placements tried.
    #[gtap::task]
    pub fn floorplan(cells: View<'_, Cell>, best: AtomicView<'_, u32>, nodes: AtomicView<'_, u64>) {
        let start = (Board::default(), Footprint::default());
        spawn!(add_cell(
            cells.as_slice(),
            0,
            None,
            start,
            best.get(0),
            nodes.get(0)
        ));
    }

    /// Places cell `id` of `cells` in each of its shapes and places, given the cells placed
    /// so far (`board`, `footprint`, and the previous cell `prev`), and spawns the placement
    /// of the next cell from each one that can still beat `best`.
    #[gtap::task]
    pub fn add_cell(
        cells: &[Cell],
        id: u32,
        prev: Option<Rect>,
        placed: (Board, Footprint),
        best: &DeviceAtomic<u32>,
        nodes: &DeviceAtomic<u64>,
    ) {
        nodes.fetch_add::<Relaxed>(1);
        let cell = cells[id as usize];
        let last = id as usize + 1 == cells.len();
        for &[rows, cols] in &cell.shapes[..cell.count as usize] {
            for (top, lhs) in places(prev, cell.side, rows, cols) {
                let r = rect(top, lhs, rows, cols);
                let Some(board) = placed.0.lay_down(r) else {
                    continue;
                };
                let footprint = placed.1.with(r);
                let area = footprint.area();
                if area >= best.load::<Relaxed>() {
                    continue;
                }
                if last {
                    best.fetch_min::<Relaxed>(area);
                } else {
                    let next = id + 1;
                    // Always a task, as knapsack's (see its module): how much a placement
                    // leads to is set by the pruning, which the granularity policy cannot see.
                    spawn!(
                        task,
                        add_cell(cells, next, Some(r), (board, footprint), best, nodes)
                    );
                }
            }
        }
    }
}
