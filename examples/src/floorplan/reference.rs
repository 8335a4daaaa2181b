//! Floorplan instances, and the references: an exhaustive search without pruning, and the
//! task program's search sequentially and on rayon, with the same sharing of the best area.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::vec::Vec;

use super::{BELOW_PREVIOUS, BOARD, Board, Cell, Footprint, MAX_SHAPES, RIGHT_OF_PREVIOUS, Rect};
use super::{places, rect};
use crate::rng::Rng;

/// `n` cells from `seed`: each of an area from 2 to `max_area`, in every shape of that area
/// that fits `max_side` (up to [`MAX_SHAPES`] of them, both orientations), each going right
/// of or below the one before, at random.
///
/// # Panics
/// If `max_side` is not in `2..=BOARD` or `max_area < 2`.
pub fn generate(n: usize, max_area: u32, max_side: u32, seed: u64) -> Vec<Cell> {
    assert!((2..=BOARD).contains(&max_side) && max_area >= 2);
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            loop {
                let area = rng.range(2, max_area);
                let mut cell = Cell {
                    count: 0,
                    side: if rng.next() & 1 == 0 {
                        RIGHT_OF_PREVIOUS
                    } else {
                        BELOW_PREVIOUS
                    },
                    shapes: [[0; 2]; MAX_SHAPES],
                };
                for rows in 1..=max_side {
                    if area.is_multiple_of(rows)
                        && area / rows <= max_side
                        && (cell.count as usize) < MAX_SHAPES
                    {
                        cell.shapes[cell.count as usize] = [rows, area / rows];
                        cell.count += 1;
                    }
                }
                if cell.count > 0 {
                    break cell;
                }
            }
        })
        .collect()
}

/// The smallest footprint area of a complete placement of `cells`, trying every placement
/// (no pruning), or `None` when none fits the board.
pub fn exhaustive(cells: &[Cell]) -> Option<u32> {
    fn go(
        cells: &[Cell],
        id: usize,
        prev: Option<Rect>,
        board: Board,
        foot: Footprint,
    ) -> Option<u32> {
        let Some(cell) = cells.get(id) else {
            return Some(foot.area());
        };
        let mut best = None;
        for &[rows, cols] in &cell.shapes[..cell.count as usize] {
            for (top, lhs) in places(prev, cell.side, rows, cols) {
                let r = rect(top, lhs, rows, cols);
                if let Some(b) = board.lay_down(r)
                    && let Some(a) = go(cells, id + 1, Some(r), b, foot.with(r))
                {
                    best = Some(best.map_or(a, |x: u32| x.min(a)));
                }
            }
        }
        best
    }
    if cells.is_empty() {
        return None;
    }
    go(cells, 0, None, Board::default(), Footprint::default())
}

/// The task program's search, sequential and in its order, sharing `best` (start it at
/// `u32::MAX`) and counting the placements tried in `nodes`.
pub fn search(cells: &[Cell], best: &AtomicU32, nodes: &AtomicU64) {
    step(
        cells,
        0,
        None,
        (Board::default(), Footprint::default()),
        best,
        nodes,
        &mut |c| search_from(cells, c, best, nodes),
    );
}

/// The same search on rayon: every child placement a `rayon::scope` spawn while fewer than
/// `levels` cells are placed, sequential below; one best for all, as on the GPU.
pub fn search_rayon(cells: &[Cell], best: &AtomicU32, nodes: &AtomicU64, levels: u32) {
    rayon::scope(|s| {
        rayon_from(
            s,
            cells,
            (0, None, (Board::default(), Footprint::default())),
            best,
            nodes,
            levels,
        )
    });
}

/// A placement to continue from: the next cell's index, the previous cell, the board and
/// footprint so far.
type Child = (u32, Option<Rect>, (Board, Footprint));

fn search_from(cells: &[Cell], (id, prev, placed): Child, best: &AtomicU32, nodes: &AtomicU64) {
    step(cells, id, prev, placed, best, nodes, &mut |c| {
        search_from(cells, c, best, nodes)
    });
}

fn rayon_from<'s>(
    s: &rayon::Scope<'s>,
    cells: &'s [Cell],
    (id, prev, placed): Child,
    best: &'s AtomicU32,
    nodes: &'s AtomicU64,
    levels: u32,
) {
    if id >= levels {
        return search_from(cells, (id, prev, placed), best, nodes);
    }
    step(cells, id, prev, placed, best, nodes, &mut |c| {
        s.spawn(move |s| rayon_from(s, cells, c, best, nodes, levels));
    });
}

/// One task of the program: counts itself, places cell `id` every way, records complete
/// placements in `best`, and hands each partial one that can still beat `best` to `child`.
fn step(
    cells: &[Cell],
    id: u32,
    prev: Option<Rect>,
    placed: (Board, Footprint),
    best: &AtomicU32,
    nodes: &AtomicU64,
    child: &mut dyn FnMut(Child),
) {
    // Relaxed: a count, and a bound (see the module docs).
    nodes.fetch_add(1, Ordering::Relaxed);
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
            if area >= best.load(Ordering::Relaxed) {
                continue;
            }
            if last {
                best.fetch_min(area, Ordering::Relaxed);
            } else {
                child((id + 1, Some(r), (board, footprint)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pruned_search_finds_what_trying_everything_finds() {
        for seed in 0..30 {
            let cells = generate(6, 8, 4, seed);
            let want = exhaustive(&cells);
            let (best, nodes) = (AtomicU32::new(u32::MAX), AtomicU64::new(0));
            search(&cells, &best, &nodes);
            let got = best.load(Ordering::Relaxed);
            assert_eq!(Some(got).filter(|&a| a != u32::MAX), want, "seed {seed}");
            let (best, nodes2) = (AtomicU32::new(u32::MAX), AtomicU64::new(0));
            search_rayon(&cells, &best, &nodes2, 3);
            assert_eq!(best.load(Ordering::Relaxed), got, "rayon, seed {seed}");
            assert!(nodes.load(Ordering::Relaxed) >= 1);
        }
    }

    #[test]
    fn a_lone_cell_takes_its_smallest_shape_in_the_corner() {
        let mut cells = generate(1, 6, 6, 3);
        cells[0].count = 2;
        cells[0].shapes[..2].copy_from_slice(&[[2, 3], [1, 6]]);
        assert_eq!(exhaustive(&cells), Some(6));
        let wide = Cell {
            count: 1,
            side: RIGHT_OF_PREVIOUS,
            shapes: [[1, BOARD + 1], [0; 2], [0; 2], [0; 2]],
        };
        assert_eq!(exhaustive(&[wide]), None);
    }
}
