//! [`Csr`]'s constructors and checker against obvious models: a sorted map of entries for the
//! constructors, the invariants checked one by one in order for [`Csr::check`].

use std::collections::BTreeMap;
use std::vec;
use std::vec::Vec;

use proptest::prelude::*;

use super::config;
use crate::graph::{Csr, CsrError};

/// The graph on `0..n` with `edges` (weights in eighths), by a sorted map; `None` weights
/// for a pattern graph.
fn model(n: u32, edges: &[(u32, u32, i32)], symmetrize: bool, weighted: bool) -> Csr {
    let mut map = BTreeMap::<(u32, u32), f32>::new();
    for &(u, v, w) in edges {
        if u != v {
            *map.entry((u, v)).or_default() += w as f32 / 8.0;
            if symmetrize {
                *map.entry((v, u)).or_default() += w as f32 / 8.0;
            }
        }
    }
    let mut row_ptr = vec![0u32; n as usize + 1];
    for &(u, _) in map.keys() {
        row_ptr[u as usize + 1] += 1;
    }
    for r in 0..n as usize {
        row_ptr[r + 1] += row_ptr[r];
    }
    Csr {
        n,
        row_ptr,
        col: map.keys().map(|&(_, v)| v).collect(),
        val: weighted.then(|| map.values().copied().collect()),
    }
}

/// [`Csr::check`]'s verdict, one invariant after another.
fn check_model(g: &Csr) -> Result<(), CsrError> {
    let (n, rp) = (g.n as usize, &g.row_ptr);
    if rp.len() != n + 1 {
        return Err(CsrError::RowPtrLen {
            len: rp.len(),
            expected: n as u64 + 1,
        });
    }
    if rp[0] != 0 {
        return Err(CsrError::RowPtrStart { first: rp[0] });
    }
    for r in 0..n {
        if rp[r + 1] < rp[r] {
            return Err(CsrError::RowPtrDecreasing { row: r as u32 });
        }
    }
    if rp[n] as usize != g.col.len() {
        return Err(CsrError::RowPtrEnd {
            last: rp[n],
            len: g.col.len(),
        });
    }
    if let Some(val) = &g.val
        && val.len() != g.col.len()
    {
        return Err(CsrError::ValLen {
            len: val.len(),
            expected: g.col.len(),
        });
    }
    for r in 0..n {
        for i in rp[r] as usize..rp[r + 1] as usize {
            let (row, col) = (r as u32, g.col[i]);
            if col >= g.n {
                return Err(CsrError::ColumnOutOfRange { row, col, n: g.n });
            }
            if i > rp[r] as usize && col <= g.col[i - 1] {
                return Err(CsrError::UnsortedRow { row, index: i, col });
            }
        }
    }
    Ok(())
}

/// A vertex count and edges whose endpoints are mostly below it, a few not.
fn edges() -> impl Strategy<Value = (u32, Vec<(u32, u32, i32)>, bool)> {
    (0u32..40, any::<bool>()).prop_flat_map(|(n, stray)| {
        // With `stray`, endpoints reach one past the vertices, and some edge likely does.
        let ends = 0..n + stray as u32;
        let edge = (ends.clone(), ends, -8000i32..8000);
        let edges = if n + stray as u32 == 0 {
            Just(Vec::new()).boxed()
        } else {
            proptest::collection::vec(edge, 0..120).boxed()
        };
        (Just(n), edges, any::<bool>())
    })
}

/// A change to a valid CSR that may break it.
#[derive(Clone, Debug)]
enum Tweak {
    RowPtr(usize, u32),
    Col(usize, u32),
    PopRowPtr,
    PushCol(u32),
    Val(Option<usize>),
    N(u32),
}

fn tweak() -> impl Strategy<Value = Tweak> {
    prop_oneof![
        (any::<usize>(), 0u32..50).prop_map(|(i, x)| Tweak::RowPtr(i, x)),
        (any::<usize>(), 0u32..50).prop_map(|(i, x)| Tweak::Col(i, x)),
        Just(Tweak::PopRowPtr),
        (0u32..50).prop_map(Tweak::PushCol),
        proptest::option::of(0usize..50).prop_map(Tweak::Val),
        (0u32..50).prop_map(Tweak::N),
    ]
}

impl Tweak {
    fn apply(&self, g: &mut Csr) {
        match *self {
            Tweak::RowPtr(i, x) => {
                let len = g.row_ptr.len();
                g.row_ptr[i % len] = x;
            }
            Tweak::Col(i, x) if !g.col.is_empty() => {
                let len = g.col.len();
                g.col[i % len] = x;
            }
            Tweak::Col(..) => g.col.push(0),
            Tweak::PopRowPtr => {
                g.row_ptr.pop();
            }
            Tweak::PushCol(x) => g.col.push(x),
            Tweak::Val(len) => g.val = len.map(|l| vec![1.0; l]),
            Tweak::N(n) => g.n = n,
        }
    }
}

proptest! {
    #![proptest_config(config())]

    /// The constructors build the model's graph, or name the first edge out of range.
    #[test]
    fn constructors_match_the_model((n, edges, symmetrize) in edges()) {
        let stray = edges.iter().position(|&(u, v, _)| u >= n || v >= n);
        let pattern: Vec<(u32, u32)> = edges.iter().map(|&(u, v, _)| (u, v)).collect();
        let weighted: Vec<(u32, u32, f32)> =
            edges.iter().map(|&(u, v, w)| (u, v, w as f32 / 8.0)).collect();
        let built = Csr::from_edges(n, &pattern, symmetrize);
        let built_weighted = Csr::from_weighted_edges(n, &weighted, symmetrize);
        match stray {
            Some(index) => {
                let (u, v, _) = edges[index];
                let expected = Err(CsrError::VertexOutOfRange { index, u, v, n });
                prop_assert_eq!(built, expected.clone());
                prop_assert_eq!(built_weighted, expected);
            }
            None => {
                let g = built.unwrap();
                prop_assert_eq!(g.check(), Ok(()));
                prop_assert_eq!(g, model(n, &edges, symmetrize, false));
                prop_assert_eq!(built_weighted, Ok(model(n, &edges, symmetrize, true)));
            }
        }
    }

    /// On arbitrary small arrays, `check` never panics and agrees with the model.
    #[test]
    fn check_agrees_with_the_model_on_random_arrays(
        n in 0u32..6,
        row_ptr in proptest::collection::vec(0u32..10, 0..9),
        col in proptest::collection::vec(0u32..8, 0..10),
        val in proptest::option::of(proptest::collection::vec(-1.0f32..1.0, 0..10)),
    ) {
        let g = Csr { n, row_ptr, col, val };
        prop_assert_eq!(g.check(), check_model(&g));
    }

    /// A valid CSR, changed a little: `check` agrees with the model.
    #[test]
    fn check_agrees_with_the_model_on_tweaked_graphs(
        (n, edges, symmetrize) in edges(),
        tweaks in proptest::collection::vec(tweak(), 1..3),
    ) {
        let edges: Vec<_> = edges.into_iter().filter(|&(u, v, _)| u < n && v < n).collect();
        let mut g = model(n, &edges, symmetrize, true);
        for t in &tweaks {
            if g.row_ptr.is_empty() {
                break;
            }
            t.apply(&mut g);
        }
        prop_assert_eq!(g.check(), check_model(&g));
    }
}
