//! The sorts' CPU versions: the GPU programs' algorithms (mergesort's halves and sequential
//! merge; cilksort's quarters and parallel merges), sequential or with rayon joins, with
//! `sort_unstable` at the leaves, since a CPU leaf of thousands of elements is where a good
//! sequential sort pays and insertion sort does not.

use gtap_examples::sorting::merge_into;

/// Sorts `data` (scratch `tmp`, as long): halves recursively, leaves of at most `cutoff`
/// elements by `sort_unstable`, each merge sequential; the halves by rayon joins if `par`.
pub fn mergesort(data: &mut [u32], tmp: &mut [u32], cutoff: usize, par: bool) {
    let n = data.len();
    if n <= cutoff.max(1) {
        data.sort_unstable();
        return;
    }
    let mid = n / 2;
    {
        let (dl, dr) = data.split_at_mut(mid);
        let (tl, tr) = tmp.split_at_mut(mid);
        if par {
            rayon::join(
                || mergesort(dl, tl, cutoff, true),
                || mergesort(dr, tr, cutoff, true),
            );
        } else {
            mergesort(dl, tl, cutoff, false);
            mergesort(dr, tr, cutoff, false);
        }
    }
    let (a, b) = data.split_at(mid);
    merge_into(a, b, tmp);
    data.copy_from_slice(tmp);
}

/// Merges the sorted `x` and `y` into `out`: split at the longer run's middle and the other's
/// lower bound, in parallel if `par`, sequentially at or below `cutoff` elements.
fn merge(x: &[u32], y: &[u32], out: &mut [u32], cutoff: usize, par: bool) {
    let (x, y) = if x.len() < y.len() { (y, x) } else { (x, y) };
    if !par || x.len() + y.len() <= cutoff.max(2) || x.len() < 2 {
        merge_into(x, y, out);
        return;
    }
    let xm = x.len() / 2;
    let ym = y.partition_point(|&v| v < x[xm]);
    let (ol, or) = out.split_at_mut(xm + ym);
    rayon::join(
        || merge(&x[..xm], &y[..ym], ol, cutoff, true),
        || merge(&x[xm..], &y[ym..], or, cutoff, true),
    );
}

/// Sorts `data` (scratch `tmp`, as long) as cilksort: four quarters recursively (leaves of at
/// most `cutoff` elements by `sort_unstable`), two merges into `tmp`, one back; with rayon
/// joins and parallel merges if `par`.
pub fn cilksort(data: &mut [u32], tmp: &mut [u32], cutoff: usize, par: bool) {
    let n = data.len();
    if n <= cutoff.max(4) {
        data.sort_unstable();
        return;
    }
    let q = n / 4;
    {
        let (d01, d23) = data.split_at_mut(2 * q);
        let (d0, d1) = d01.split_at_mut(q);
        let (d2, d3) = d23.split_at_mut(q);
        let (t01, t23) = tmp.split_at_mut(2 * q);
        let (t0, t1) = t01.split_at_mut(q);
        let (t2, t3) = t23.split_at_mut(q);
        let s = |d: &mut [u32], t: &mut [u32]| cilksort(d, t, cutoff, par);
        if par {
            rayon::join(
                || rayon::join(|| s(d0, t0), || s(d1, t1)),
                || rayon::join(|| s(d2, t2), || s(d3, t3)),
            );
        } else {
            s(d0, t0);
            s(d1, t1);
            s(d2, t2);
            s(d3, t3);
        }
    }
    {
        let (d01, d23) = data.split_at(2 * q);
        let (t01, t23) = tmp.split_at_mut(2 * q);
        let m = |a: &[u32], b: &[u32], o: &mut [u32]| merge(a, b, o, cutoff, par);
        if par {
            rayon::join(
                || m(&d01[..q], &d01[q..], t01),
                || m(&d23[..q], &d23[q..], t23),
            );
        } else {
            m(&d01[..q], &d01[q..], t01);
            m(&d23[..q], &d23[q..], t23);
        }
    }
    let (t01, t23) = tmp.split_at(2 * q);
    merge(t01, t23, data, cutoff, par);
}

#[cfg(test)]
mod tests {
    use super::*;
    use gtap_examples::rng::Rng;

    #[test]
    fn sorts() {
        let mut rng = Rng::new(3);
        for n in [0, 1, 5, 17, 1000, 4099] {
            let input: Vec<u32> = (0..n).map(|_| rng.next() as u32 % 100).collect();
            let mut want = input.clone();
            want.sort_unstable();
            for cutoff in [1, 16, 1 << 20] {
                for par in [false, true] {
                    let (mut d, mut t) = (input.clone(), vec![0; n]);
                    mergesort(&mut d, &mut t, cutoff, par);
                    assert_eq!(d, want);
                    let (mut d, mut t) = (input.clone(), vec![0; n]);
                    cilksort(&mut d, &mut t, cutoff, par);
                    assert_eq!(d, want);
                }
            }
        }
    }
}
