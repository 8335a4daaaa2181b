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

/// Merges the sorted `a` and `b` into `out` (`out.len() == a.len() + b.len()`).
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

/// The first index of the sorted `s` whose element is not less than `key`.
pub fn lower_bound(s: &[u32], key: u32) -> usize {
    s.partition_point(|&v| v < key)
}
