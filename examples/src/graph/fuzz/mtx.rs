//! Valid generated files read as exactly their graph; a file with one known defect fails
//! with the error for that defect, on the line that holds it.

use std::io::BufReader;
use std::string::{String, ToString};
use std::vec::Vec;
use std::{format, vec};

use proptest::prelude::*;
use proptest::sample::{Index, select};

use super::config;
use super::end_line;
use super::generate::{Field, File, Kind, Spec, spec, spec_where};
use crate::graph::mtx::{self, Limits};
use crate::graph::{GraphError, MtxError};

/// The line and kind of the error that reading `bytes` within `limits` gives.
fn error(bytes: &[u8], limits: Limits) -> (usize, MtxError) {
    match mtx::read_with(bytes, limits) {
        Err(GraphError::Mtx {
            path: None,
            line,
            kind,
        }) => (line, kind),
        other => panic!(
            "expected a Matrix Market error for {:?}, got {other:?}",
            String::from_utf8_lossy(bytes)
        ),
    }
}

/// `line` with word `k` replaced by `word`, or with `word` appended when `k` is past the
/// end; words joined by single spaces.
fn replace_word(line: &str, k: usize, word: &str) -> String {
    let mut words: Vec<&str> = line.split_ascii_whitespace().collect();
    match words.get_mut(k) {
        Some(w) => *w = word,
        None => words.push(word),
    }
    words.join(" ")
}

/// A spec with at least one entry.
fn with_entries() -> impl Strategy<Value = Spec> {
    spec_where(&[Field::Pattern, Field::Real, Field::Integer], 1)
}

/// The 1-based line of entry `k`.
fn entry_line(file: &File, k: usize) -> usize {
    file.index_of(Kind::Entry(k)) + 1
}

/// A word in place of an index, and what the reader must make of it.
#[derive(Clone, Debug)]
enum IndexWord {
    /// 0: parsed, then out of range.
    Zero,
    /// `n + k`: parsed, then out of range.
    Above(u64),
    /// Anything else: not an index at all.
    Bad(String),
}

fn index_word() -> impl Strategy<Value = IndexWord> {
    let bad = prop_oneof![
        (1u32..).prop_map(|k| format!("-{k}")),
        select(vec![
            "-0",
            "18446744073709551616",
            "99999999999999999999999999999",
            "x",
            "1.0",
            "1e3",
            "nan",
            "inf",
            "0x1",
            "+",
            "1_0",
            "\u{663}",
            "\u{feff}1",
        ])
        .prop_map(String::from),
    ];
    prop_oneof![
        Just(IndexWord::Zero),
        (1u64..1000).prop_map(IndexWord::Above),
        Just(IndexWord::Above(u64::MAX)),
        bad.prop_map(IndexWord::Bad),
    ]
}

/// A word in place of a value, and whether the reader must call it non-finite (rather than
/// not a number of the field).
fn value_word(field: Field) -> impl Strategy<Value = (&'static str, bool)> {
    let huge = "99999999999999999999999999999999999999999";
    let mut words = vec![
        (huge, true),
        ("x", false),
        ("1..5", false),
        ("0x10", false),
        ("1,5", false),
        ("--1", false),
        ("e5", false),
        ("", false),
    ];
    // "nan" and the like are numbers to `real` (and refused as not finite), not integers.
    let real = field == Field::Real;
    for word in ["nan", "NaN", "inf", "-inf", "+infinity", "1e39", "-3.5e38"] {
        words.push((word, real));
    }
    if !real {
        words.extend([("1.5", false), ("2e3", false), ("1.", false)]);
    }
    select(
        words
            .into_iter()
            .filter(|(w, _)| !w.is_empty())
            .collect::<Vec<_>>(),
    )
}

proptest! {
    #![proptest_config(config())]

    /// A valid file reads as its graph, through any buffer size, and within limits set at
    /// its own sizes; one vertex or entry less in the limits refuses it on its size line.
    #[test]
    fn valid_files_read_exactly(spec in spec(), buffer in 1usize..16) {
        let file = spec.render();
        let bytes = file.bytes();
        let expected = spec.expected();
        let got = mtx::read_bytes(&bytes).map_err(|e| e.to_string());
        prop_assert_eq!(got, Ok(expected.clone()));
        let slow = BufReader::with_capacity(buffer, &bytes[..]);
        prop_assert_eq!(mtx::read(slow).map_err(|e| e.to_string()), Ok(expected));

        let stored = spec.entries.len() as u32 * if spec.symmetric { 2 } else { 1 };
        let tight = Limits { max_vertices: spec.n, max_entries: stored };
        prop_assert!(mtx::read_with(&bytes[..], tight).is_ok());
        let size_line = file.index_of(Kind::Size) + 1;
        if spec.n > 0 {
            let fewer = Limits { max_vertices: spec.n - 1, ..tight };
            let (line, kind) = error(&bytes, fewer);
            prop_assert_eq!(line, size_line);
            prop_assert!(matches!(kind, MtxError::TooManyRows { .. }), "{kind:?}");
        }
        if stored > 0 {
            let fewer = Limits { max_entries: stored - 1, ..tight };
            let (line, kind) = error(&bytes, fewer);
            prop_assert_eq!(line, size_line);
            prop_assert!(matches!(kind, MtxError::TooManyEntries { .. }), "{kind:?}");
        }
    }

    /// Without one of its entry lines, a file ends short of its count.
    #[test]
    fn a_deleted_entry_is_missing_at_the_end(spec in with_entries(), k in any::<Index>()) {
        let mut file = spec.render();
        file.lines.remove(file.index_of(Kind::Entry(k.index(spec.entries.len()))));
        let bytes = file.bytes();
        let (line, kind) = error(&bytes, Limits::MAX);
        prop_assert_eq!(line, end_line(&bytes));
        let m = spec.entries.len() as u64;
        prop_assert!(
            matches!(kind, MtxError::MissingEntries { expected, found } if expected == m && found == m - 1),
            "{kind:?}"
        );
    }

    /// With one entry line twice, a file has one too many, reported at the last.
    #[test]
    fn a_duplicated_entry_is_one_too_many(spec in with_entries(), k in any::<Index>()) {
        let mut file = spec.render();
        let at = file.index_of(Kind::Entry(k.index(spec.entries.len())));
        file.lines.insert(at, file.lines[at].clone());
        let bytes = file.bytes();
        let (line, kind) = error(&bytes, Limits::MAX);
        prop_assert_eq!(Some(line), file.last_entry_line());
        let m = spec.entries.len() as u64;
        prop_assert!(matches!(kind, MtxError::ExtraEntry { expected } if expected == m), "{kind:?}");
    }

    /// A bad row or column index is reported on its line, as out of range if it is an
    /// integer, else as not an index.
    #[test]
    fn a_bad_index_is_reported_on_its_line(
        spec in with_entries(),
        k in any::<Index>(),
        column in any::<bool>(),
        word in index_word(),
    ) {
        let mut file = spec.render();
        let k = k.index(spec.entries.len());
        let n = spec.n as u64;
        let text = match &word {
            IndexWord::Zero => "0".to_string(),
            IndexWord::Above(d) => n.saturating_add(*d).to_string(),
            IndexWord::Bad(w) => w.clone(),
        };
        let at = file.index_of(Kind::Entry(k));
        file.lines[at].0 = replace_word(&file.lines[at].0, column as usize, &text);
        let (line, kind) = error(&file.bytes(), Limits::MAX);
        prop_assert_eq!(line, entry_line(&file, k));
        let (i, j, _) = spec.entries[k];
        match word {
            IndexWord::Bad(w) => prop_assert!(
                matches!(&kind, MtxError::BadIndex { what, found, n: m }
                    if *what == if column { "column" } else { "row" }
                        && *found == w.chars().flat_map(char::escape_debug).collect::<String>()
                        && *m == n),
                "{kind:?}"
            ),
            _ => {
                let bad: u64 = text.parse().unwrap();
                let (row, col) = if column { (i as u64, bad) } else { (bad, j as u64) };
                prop_assert!(
                    matches!(kind, MtxError::IndexOutOfRange { row: r, col: c, n: m }
                        if (r, c, m) == (row, col, n)),
                    "{kind:?}"
                );
            }
        }
    }

    /// A bad value is reported on its line: not finite, or not a number of the field.
    #[test]
    fn a_bad_value_is_reported_on_its_line(
        (spec, (word, non_finite)) in spec_where(&[Field::Real, Field::Integer], 1)
            .prop_flat_map(|s| { let f = s.field; (Just(s), value_word(f)) }),
        k in any::<Index>(),
    ) {
        let mut file = spec.render();
        let k = k.index(spec.entries.len());
        let at = file.index_of(Kind::Entry(k));
        file.lines[at].0 = replace_word(&file.lines[at].0, 2, word);
        let (line, kind) = error(&file.bytes(), Limits::MAX);
        prop_assert_eq!(line, entry_line(&file, k));
        if non_finite {
            prop_assert!(matches!(kind, MtxError::NonFiniteValue { .. }), "{word}: {kind:?}");
        } else {
            prop_assert!(matches!(kind, MtxError::BadValue { .. }), "{word}: {kind:?}");
        }
    }

    /// An entry with a word too many or too few is reported on its line.
    #[test]
    fn a_wrong_word_count_is_reported_on_its_line(
        spec in with_entries(),
        k in any::<Index>(),
        more in any::<bool>(),
    ) {
        let mut file = spec.render();
        let k = k.index(spec.entries.len());
        let at = file.index_of(Kind::Entry(k));
        let line = &mut file.lines[at].0;
        let mut words: Vec<&str> = line.split_ascii_whitespace().collect();
        if more {
            words.push("1");
        } else {
            words.pop();
        }
        *line = words.join(" ");
        let (line, kind) = error(&file.bytes(), Limits::MAX);
        prop_assert_eq!(line, entry_line(&file, k));
        prop_assert!(matches!(kind, MtxError::BadEntry { .. }), "{kind:?}");
    }

    /// A banner word that is no banner word anywhere is reported on line 1, as a bad banner
    /// in the first place and as an unsupported variant in the others.
    #[test]
    fn a_bad_banner_word_is_reported_on_line_1(
        spec in spec(),
        k in 0usize..6,
        word in select(vec!["array", "complex", "hermitian", "skew-symmetric", "vector", "x", "0"]),
    ) {
        let mut file = spec.render();
        file.lines[0].0 = replace_word(&file.lines[0].0, k, word);
        let (line, kind) = error(&file.bytes(), Limits::MAX);
        prop_assert_eq!(line, 1);
        let what = ["", "object", "format", "field", "symmetry"].get(k).copied().unwrap_or("");
        if what.is_empty() {
            prop_assert!(matches!(kind, MtxError::BadBanner(_)), "{kind:?}");
        } else {
            prop_assert!(
                matches!(kind, MtxError::Unsupported { what: w, ref found, .. } if w == what && found == word),
                "{kind:?}"
            );
        }
    }

    /// A byte that is not UTF-8 in the banner, size or an entry is reported on its line and
    /// column.
    #[test]
    fn a_byte_not_utf8_is_reported_at_its_column(
        spec in spec(),
        line in any::<Index>(),
        column in any::<Index>(),
        byte in 0x80u8..,
    ) {
        let file = spec.render();
        let data: Vec<usize> = (0..file.lines.len())
            .filter(|&i| file.lines[i].1 != Kind::Filler)
            .collect();
        let at = *line.get(&data);
        let mut lines: Vec<Vec<u8>> =
            file.lines.iter().map(|(l, _)| l.clone().into_bytes()).collect();
        let column = column.index(lines[at].len() + 1);
        lines[at].insert(column, byte);
        let mut bytes = lines.join(file.eol.as_bytes());
        if file.final_newline {
            bytes.extend_from_slice(file.eol.as_bytes());
        }
        let (got, kind) = error(&bytes, Limits::MAX);
        prop_assert_eq!(got, at + 1);
        prop_assert!(matches!(kind, MtxError::NotUtf8 { column: c } if c == column + 1), "{kind:?}");
    }
}

/// A change to the size line, and what the reader must make of it.
#[derive(Clone, Debug)]
enum SizeChange {
    /// Columns `n + d`.
    NotSquare(u32),
    /// Rows and columns `2^32 + d`.
    TooManyRows(u32),
    /// Word `k` replaced by a word that is not a count.
    BadWord(usize, &'static str),
    /// Entries `m + d`.
    MoreDeclared(u32),
    /// Entries `m - d` (taken modulo `m`).
    FewerDeclared(Index),
    /// Entries `2^32 + d`.
    TooManyEntries(u32),
}

fn size_change() -> impl Strategy<Value = SizeChange> {
    prop_oneof![
        (1u32..1000).prop_map(SizeChange::NotSquare),
        any::<u32>().prop_map(SizeChange::TooManyRows),
        (
            0usize..4,
            select(vec!["-1", "x", "1.5", "18446744073709551616", "nan", "0x3"])
        )
            .prop_map(|(k, w)| SizeChange::BadWord(k, w)),
        (1u32..1000).prop_map(SizeChange::MoreDeclared),
        any::<Index>().prop_map(SizeChange::FewerDeclared),
        any::<u32>().prop_map(SizeChange::TooManyEntries),
    ]
}

proptest! {
    #![proptest_config(config())]

    /// Each change to the size line gives its own error, on the size line unless the
    /// declared count is only found wrong as the entries arrive.
    #[test]
    fn a_bad_size_line_is_reported(spec in spec(), change in size_change()) {
        let mut file = spec.render();
        let at = file.index_of(Kind::Size);
        let size_line = at + 1;
        let (n, m) = (spec.n as u64, spec.entries.len() as u64);
        let size = |rows: u64, cols: u64, entries: u64| format!("{rows} {cols} {entries}");
        let new = match &change {
            SizeChange::NotSquare(d) => size(n, n + *d as u64, m),
            SizeChange::TooManyRows(d) => {
                let rows = (1u64 << 32) + *d as u64;
                size(rows, rows, m)
            }
            SizeChange::BadWord(k, w) => replace_word(&file.lines[at].0, *k, w),
            SizeChange::MoreDeclared(d) => size(n, n, m + *d as u64),
            SizeChange::FewerDeclared(d) if m > 0 => size(n, n, m - 1 - d.index(m as usize) as u64),
            SizeChange::FewerDeclared(_) => size(n, n, m + 1),
            SizeChange::TooManyEntries(d) => size(n, n, (1u64 << 32) + *d as u64),
        };
        file.lines[at].0 = new;
        let bytes = file.bytes();
        let (line, kind) = error(&bytes, Limits::MAX);
        match change {
            SizeChange::NotSquare(d) => {
                prop_assert_eq!(line, size_line);
                prop_assert!(
                    matches!(kind, MtxError::NotSquare { rows, cols } if rows == n && cols == n + d as u64),
                    "{kind:?}"
                );
            }
            SizeChange::TooManyRows(_) => {
                prop_assert_eq!(line, size_line);
                prop_assert!(matches!(kind, MtxError::TooManyRows { .. }), "{kind:?}");
            }
            SizeChange::BadWord(..) => {
                prop_assert_eq!(line, size_line);
                prop_assert!(matches!(kind, MtxError::BadSize(_)), "{kind:?}");
            }
            SizeChange::MoreDeclared(_) => {
                prop_assert_eq!(line, end_line(&bytes));
                prop_assert!(matches!(kind, MtxError::MissingEntries { found, .. } if found == m), "{kind:?}");
            }
            SizeChange::FewerDeclared(d) if m > 0 => {
                let declared = m - 1 - d.index(m as usize) as u64;
                prop_assert_eq!(line, entry_line(&file, declared as usize));
                prop_assert!(
                    matches!(kind, MtxError::ExtraEntry { expected } if expected == declared),
                    "{kind:?}"
                );
            }
            SizeChange::FewerDeclared(_) => {
                prop_assert_eq!(line, end_line(&bytes));
                prop_assert!(matches!(kind, MtxError::MissingEntries { .. }), "{kind:?}");
            }
            SizeChange::TooManyEntries(_) => {
                prop_assert_eq!(line, size_line);
                prop_assert!(matches!(kind, MtxError::TooManyEntries { .. }), "{kind:?}");
            }
        }
    }
}
