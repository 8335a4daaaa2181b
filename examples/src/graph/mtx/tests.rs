//! The reader on hand-written files: each variant it reads, and each way a file can be
//! wrong, with the line the error names. The property tests in `graph/fuzz` cover the rest.

use super::*;
use crate::graph::CsrError;
use std::string::{String, ToString};
use std::vec;
use std::vec::Vec;

/// The line and kind of a parse error.
fn mtx_error(input: impl AsRef<[u8]>) -> (usize, MtxError) {
    match read_bytes(input.as_ref()) {
        Err(GraphError::Mtx {
            path: None,
            line,
            kind,
        }) => (line, kind),
        other => panic!("expected a Matrix Market error, got {other:?}"),
    }
}

#[test]
fn symmetric_pattern_reads_both_directions() {
    let g = read_str(
        "%%MatrixMarket matrix coordinate pattern symmetric\n\
         % a comment\n\
         %\n\
         \n\
         4 4 3\n\
         2 1\n\
         3 1\n\
         4 4\n",
    )
    .unwrap();
    assert_eq!(g.row_ptr, vec![0, 2, 3, 4, 4]);
    assert_eq!(g.col, vec![1, 2, 0, 0]);
    assert_eq!(g.val, None);
}

#[test]
fn general_real_is_directed_with_values() {
    let g = read_str(
        "%%MatrixMarket MATRIX Coordinate REAL general\r\n\
         3 3 3\r\n\
         1 2 0.5\r\n\
         3 1 -2e1\r\n\
         1 3   4  \r\n",
    )
    .unwrap();
    assert_eq!(g.col, vec![1, 2, 0]);
    assert_eq!(g.val, Some(vec![0.5, 4.0, -20.0]));
    assert!(!g.is_symmetric());
}

#[test]
fn integer_values_and_duplicates_are_summed() {
    let g = read_str("%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n2 1 3\n2 1 -1\n")
        .unwrap();
    assert_eq!(g.col, vec![1, 0]);
    assert_eq!(g.val, Some(vec![2.0, 2.0]));
}

#[test]
fn comments_may_hold_any_bytes_and_the_last_line_needs_no_newline() {
    let mut file = b"%%MatrixMarket matrix coordinate pattern general\n% caf\xe9\n".to_vec();
    file.extend_from_slice(b"2 2 1\n% \xff\xfe\n2 1");
    let g = read_bytes(&file).unwrap();
    assert_eq!(g.col, vec![0]);
}

#[test]
fn an_empty_matrix_reads() {
    let g = read_str("%%MatrixMarket matrix coordinate real general\n0 0 0\n").unwrap();
    assert_eq!((g.n, g.row_ptr), (0, vec![0]));
}

#[test]
fn unsupported_variants_are_named() {
    let (line, kind) = mtx_error("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n");
    assert_eq!(line, 1);
    assert!(
        matches!(kind, MtxError::Unsupported { what: "format", ref found, .. } if found == "array")
    );
    let (line, kind) = mtx_error("%%MatrixMarket matrix coordinate complex general\n");
    assert_eq!(line, 1);
    assert!(
        matches!(kind, MtxError::Unsupported { what: "field", ref found, .. } if found == "complex")
    );
    let (_, kind) = mtx_error("%%MatrixMarket matrix coordinate real hermitian\n");
    assert!(matches!(
        kind,
        MtxError::Unsupported {
            what: "symmetry",
            ..
        }
    ));
    let (_, kind) = mtx_error("%%MatrixMarket vector coordinate real general\n");
    assert!(matches!(kind, MtxError::Unsupported { what: "object", .. }));
    assert_eq!(
        read_str("%%MatrixMarket matrix coordinate complex general\n")
            .unwrap_err()
            .to_string(),
        "line 1: unsupported field `complex` (this reader supports `pattern`, `real` and \
         `integer`)"
    );
}

/// One malformed input: the input, the line the error should name, and a test of its kind.
type Case = (Vec<u8>, usize, fn(&MtxError) -> bool);

#[test]
fn malformed_files_name_the_line() {
    let banner = "%%MatrixMarket matrix coordinate real general\n";
    let h = |body: &str| std::format!("{banner}% c\n{body}").into_bytes();
    let cases: Vec<Case> = vec![
        (b"".to_vec(), 1, |k| matches!(k, MtxError::Empty)),
        (b"%%MatrixMarket matrix\n".to_vec(), 1, |k| {
            matches!(k, MtxError::BadBanner(_))
        }),
        (b"3 3 1\n".to_vec(), 1, |k| {
            matches!(k, MtxError::BadBanner(_))
        }),
        (
            b"%%matrixmarket matrix coordinate real general\n".to_vec(),
            1,
            |k| matches!(k, MtxError::BadBanner(_)),
        ),
        (b"\x1f\x8b\x08\x00\x00".to_vec(), 1, |k| {
            matches!(k, MtxError::Compressed)
        }),
        (b"%%MatrixMarket matrix \xff\n".to_vec(), 1, |k| {
            matches!(k, MtxError::NotUtf8 { column: 23 })
        }),
        // The end of the input counts as the line after the last.
        (banner.into(), 2, |k| matches!(k, MtxError::MissingSize)),
        (h("\n3 x 1\n"), 4, |k| matches!(k, MtxError::BadSize(_))),
        (h("3 3 -1\n"), 3, |k| matches!(k, MtxError::BadSize(_))),
        (h("3 3 1 1\n"), 3, |k| matches!(k, MtxError::BadSize(_))),
        (h("99999999999999999999 99999999999999999999 1\n"), 3, |k| {
            matches!(k, MtxError::BadSize(_))
        }),
        (h("2 3 1\n"), 3, |k| {
            matches!(k, MtxError::NotSquare { rows: 2, cols: 3 })
        }),
        (h("3 3 2\n1 1 1.0\n1 2\n"), 5, |k| {
            matches!(k, MtxError::BadEntry { .. })
        }),
        (h("3 3 1\n1 2 1.0 7\n"), 4, |k| {
            matches!(k, MtxError::BadEntry { .. })
        }),
        (h("3 3 1\n0 1 1.0\n"), 4, |k| {
            matches!(k, MtxError::IndexOutOfRange { row: 0, .. })
        }),
        (h("3 3 1\n1 4 1.0\n"), 4, |k| {
            matches!(k, MtxError::IndexOutOfRange { col: 4, .. })
        }),
        (h("3 3 1\n-1 1 1.0\n"), 4, |k| {
            matches!(k, MtxError::BadIndex { what: "row", .. })
        }),
        (h("3 3 1\n1 1.5 1.0\n"), 4, |k| {
            matches!(k, MtxError::BadIndex { what: "column", .. })
        }),
        (h("3 3 1\n1 99999999999999999999 1.0\n"), 4, |k| {
            matches!(k, MtxError::BadIndex { what: "column", .. })
        }),
        (h("3 3 1\n1 2 x\n"), 4, |k| {
            matches!(k, MtxError::BadValue { .. })
        }),
        (h("3 3 2\n1 2 1\n1 3 NaN\n"), 5, |k| {
            matches!(k, MtxError::NonFiniteValue { .. })
        }),
        (h("3 3 1\n1 2 -inf\n"), 4, |k| {
            matches!(k, MtxError::NonFiniteValue { .. })
        }),
        (h("3 3 1\n1 2 1e39\n"), 4, |k| {
            matches!(k, MtxError::NonFiniteValue { .. })
        }),
        (h("3 3 1\n1 \u{e9} 1\n"), 4, |k| {
            matches!(k, MtxError::BadIndex { .. })
        }),
        (h("3 3 2\n1 2 1.0\n"), 5, |k| {
            matches!(
                k,
                MtxError::MissingEntries {
                    expected: 2,
                    found: 1
                }
            )
        }),
        (h("3 3 1\n1 2 1.0\n2 3 1.0\n"), 5, |k| {
            matches!(k, MtxError::ExtraEntry { expected: 1 })
        }),
        (h("3 3 3\n1 2 3e38\n% between\n2 3 1\n1 2 3e38\n"), 7, |k| {
            matches!(k, MtxError::SumNotFinite { row: 1, col: 2 })
        }),
    ];
    for (input, line, is_expected) in cases {
        let (got_line, kind) = mtx_error(&input);
        let shown = String::from_utf8_lossy(&input);
        assert!(is_expected(&kind), "{shown:?}: got {kind:?}");
        assert_eq!(got_line, line, "{shown:?}: {kind}");
    }
}

#[test]
fn mirrored_entries_count_toward_an_overflowing_sum() {
    let (line, kind) = mtx_error(
        "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n2 1 3e38\n3 1 1\n1 2 3e38\n",
    );
    assert_eq!(line, 5);
    assert!(matches!(kind, MtxError::SumNotFinite { .. }), "{kind:?}");
}

#[test]
fn huge_declared_sizes_are_refused_before_anything_is_built() {
    let banner = "%%MatrixMarket matrix coordinate pattern symmetric\n";
    let (line, kind) = mtx_error(std::format!("{banner}1000000000000 1000000000000 1\n1 1\n"));
    assert_eq!(line, 2);
    assert!(matches!(
        kind,
        MtxError::TooManyRows {
            rows: 1_000_000_000_000,
            max: u32::MAX
        }
    ));
    assert!(kind.to_string().contains("u32 CSR can hold"), "{kind}");
    // Twice the declared entries for a symmetric file.
    let (line, kind) = mtx_error(std::format!("{banner}% c\n5 5 3000000000\n1 1\n"));
    assert_eq!(line, 3);
    assert!(matches!(
        kind,
        MtxError::TooManyEntries {
            declared: 3_000_000_000,
            stored: 6_000_000_000,
            ..
        }
    ));
    // A declared count that fits is believed only as far as the entries go.
    let (line, kind) = mtx_error(std::format!("{banner}5 5 2000000000\n1 1\n"));
    assert_eq!(line, 4);
    assert!(matches!(kind, MtxError::MissingEntries { found: 1, .. }));
}

#[test]
fn limits_bound_the_declared_sizes() {
    let limits = Limits {
        max_vertices: 10,
        max_entries: 4,
    };
    let file =
        |size: &str| std::format!("%%MatrixMarket matrix coordinate pattern general\n{size}\n");
    let err = |size: &str| match read_with(file(size).as_bytes(), limits) {
        Err(GraphError::Mtx { line: 2, kind, .. }) => kind,
        other => panic!("{size}: {other:?}"),
    };
    assert!(matches!(
        err("11 11 0"),
        MtxError::TooManyRows { rows: 11, max: 10 }
    ));
    let kind = err("10 10 5");
    assert!(matches!(kind, MtxError::TooManyEntries { max: 4, .. }));
    assert!(
        kind.to_string().contains("raise `Limits::max_entries`"),
        "{kind}"
    );
    assert_eq!(read_with(file("10 10 0").as_bytes(), limits).unwrap().n, 10);
}

#[test]
fn overlong_lines_are_refused() {
    let long = std::format!("% {}\n", "x".repeat(MAX_LINE));
    let (line, kind) = mtx_error(std::format!(
        "%%MatrixMarket matrix coordinate pattern general\n{long}"
    ));
    assert_eq!(line, 2);
    assert!(matches!(kind, MtxError::LineTooLong { limit: MAX_LINE }));
    // A line right at the limit is fine, whatever its line ending.
    let pad = |n: usize| " ".repeat(n);
    for ending in ["\n", "\r\n"] {
        let size = std::format!("1 1 0{}", pad(MAX_LINE - 5));
        let file = std::format!("%%MatrixMarket matrix coordinate pattern general\n{size}{ending}");
        assert_eq!(read_str(&file).unwrap().n, 1);
    }
}

#[test]
fn garbage_is_quoted_briefly() {
    let (_, kind) = mtx_error(std::format!("\u{1}{}\n", "z".repeat(500)));
    let message = kind.to_string();
    assert!(message.contains("`\\u{1}zzz"), "{message}");
    assert!(message.len() < 300, "{message}");
}

#[test]
fn too_many_entries_surface_as_a_csr_error() {
    // Not constructible cheaply for real; the conversion path is what is checked.
    let e: GraphError = CsrError::TooManyEntries { entries: 1 << 33 }.into();
    assert!(e.to_string().contains("do not fit u32"));
}

#[test]
fn the_sample_file_loads() {
    let g = read_str(include_str!("../../../data/small.mtx")).unwrap();
    assert_eq!(g.n, 10);
    // Nine off-diagonal entries, each read both ways; the diagonal entry is dropped.
    assert_eq!(g.num_edges(), 18);
    assert!(g.is_symmetric());
    assert_eq!(g.degree(9), 0);
    g.check().unwrap();
}

#[test]
fn file_errors_carry_the_path() {
    let e = read_path("/nonexistent/graph.mtx").unwrap_err();
    assert!(matches!(e, GraphError::Open { .. }));
    assert!(
        e.to_string()
            .starts_with("cannot open /nonexistent/graph.mtx: ")
    );
    let dir = std::env::temp_dir().join(std::format!("gtap-mtx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.mtx");
    std::fs::write(
        &file,
        "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n3 1\n",
    )
    .unwrap();
    let e = read_path(&file).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(matches!(
        e,
        GraphError::Mtx {
            path: Some(_),
            line: 3,
            ..
        }
    ));
    assert!(
        e.to_string()
            .starts_with(&std::format!("{}: line 3: entry (3, 1)", file.display()))
    );
}
