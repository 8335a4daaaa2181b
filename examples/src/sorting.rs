//! The sequential pieces of the sorts: the leaf sort below a cutoff, a merge, a binary search.

/// Sorts `s` in place by insertion: the sequential sort below a program's cutoff.
pub fn insertion_sort(s: &mut [u32]) {
    for i in 1..s.len() {
        let x = s[i];
        let mut j = i;
        while j > 0 && s[j - 1] > x {
            s[j] = s[j - 1];
            j -= 1;
        }
        s[j] = x;
    }
}

/// Merges the sorted `a` and `b` into `out` (`out.len() == a.len() + b.len()`), taking from
/// `a` on ties.
pub fn merge_into(a: &[u32], b: &[u32], out: &mut [u32]) {
    let (mut i, mut j) = (0, 0);
    for slot in out.iter_mut() {
        if j >= b.len() || (i < a.len() && a[i] <= b[j]) {
            *slot = a[i];
            i += 1;
        } else {
            *slot = b[j];
            j += 1;
        }
    }
}

/// [`merge_into`], run as two halves at once from [`SPLIT_MERGE`] outputs on: where the first
/// half of the outputs ends in `a` and `b` is found by [`merge_path`], and one loop takes a
/// step of each half in turn. A merge step waits for its last load, and on a GPU thread that
/// wait is most of the step; the two halves' loads are independent, so each half's load is
/// in flight while the other half steps. What the block merges' threads use; for short
/// merges (thread tasks' leaves) the extra binary search costs more than it saves.
pub fn merge_into_halves(a: &[u32], b: &[u32], out: &mut [u32]) {
    if out.len() < SPLIT_MERGE {
        merge_into(a, b, out);
        return;
    }
    let h = out.len() / 2;
    let p = merge_path(a, b, h);
    let (mut x, mut y) = (
        Merge::new(&a[..p], &b[..h - p]),
        Merge::new(&a[p..], &b[h - p..]),
    );
    let (o0, o1) = out.split_at_mut(h);
    for (s0, s1) in o0.iter_mut().zip(o1.iter_mut()) {
        *s0 = x.next();
        *s1 = y.next();
    }
    if let Some(last) = o1.get_mut(h) {
        *last = y.next();
    }
}

/// The output length from which [`merge_into_halves`] merges two halves at once.
pub const SPLIT_MERGE: usize = 32;

/// One half of [`merge_into_halves`] in progress: the next element of each run held in a
/// register, so that a step loads one element (the successor of the one it takes).
struct Merge<'a> {
    a: &'a [u32],
    b: &'a [u32],
    i: usize,
    j: usize,
    va: u32,
    vb: u32,
}

impl<'a> Merge<'a> {
    fn new(a: &'a [u32], b: &'a [u32]) -> Self {
        Merge {
            a,
            b,
            i: 0,
            j: 0,
            va: a.first().copied().unwrap_or(0),
            vb: b.first().copied().unwrap_or(0),
        }
    }

    /// The next output. The caller asks for at most `a.len() + b.len()` of them.
    #[inline(always)]
    fn next(&mut self) -> u32 {
        if self.i < self.a.len() && (self.j >= self.b.len() || self.va <= self.vb) {
            let v = self.va;
            self.i += 1;
            self.va = self.a.get(self.i).copied().unwrap_or(0);
            v
        } else {
            let v = self.vb;
            self.j += 1;
            self.vb = self.b.get(self.j).copied().unwrap_or(0);
            v
        }
    }
}

/// Where the merge path crosses diagonal `diag` of the merge of `a` and `b`: how many of its
/// first `diag` outputs come from `a` (ties go to `a`, so the merge is stable).
pub fn merge_path(a: &[u32], b: &[u32], diag: usize) -> usize {
    let mut lo = diag.saturating_sub(b.len());
    let mut hi = diag.min(a.len());
    while lo < hi {
        let i = lo + (hi - lo) / 2;
        // `i < a.len()` and `1 <= diag - i <= b.len()` by the bounds above.
        if a[i] <= b[diag - i - 1] {
            lo = i + 1;
        } else {
            hi = i;
        }
    }
    lo
}

/// The first index of the sorted `s` whose element is not less than `key`.
pub fn lower_bound(s: &[u32], key: u32) -> usize {
    s.partition_point(|&v| v < key)
}

#[cfg(all(test, not(target_arch = "nvptx64")))]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use super::*;

    #[test]
    fn merges_of_every_split_and_tie_pattern_match_a_sort() {
        let mut rng = crate::rng::Rng::new(5);
        for (la, lb) in [
            (0, 0),
            (0, 5),
            (7, 0),
            (1, 1),
            (16, 15),
            (16, 16),
            (40, 3),
            (100, 157),
        ] {
            for range in [2, 1 << 31] {
                let mut run = |n: usize| {
                    let mut v: Vec<u32> = (0..n).map(|_| (rng.next() % range) as u32).collect();
                    v.sort_unstable();
                    v
                };
                let (a, b) = (run(la), run(lb));
                let mut expected = [a.clone(), b.clone()].concat();
                expected.sort_unstable();
                for merge in [merge_into, merge_into_halves] {
                    let mut out = std::vec![0; la + lb];
                    merge(&a, &b, &mut out);
                    assert_eq!(out, expected, "{la} + {lb}, values below {range}");
                }
                for diag in 0..=la + lb {
                    let i = merge_path(&a, &b, diag);
                    assert!(i <= la && diag - i <= lb, "path {i} at {diag}");
                }
            }
        }
    }
}
