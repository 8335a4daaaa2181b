//! A reader for the Matrix Market coordinate format, the format of the SuiteSparse Matrix
//! Collection (and of the graphs GAP, Gunrock and the GTaP paper's peers benchmark on).
//!
//! ```text
//! %%MatrixMarket matrix coordinate pattern symmetric
//! % comments
//! 3 3 2          <- rows, columns, entries
//! 2 1            <- row, column (1-based), and a value unless the field is `pattern`
//! 3 2
//! ```
//!
//! It reads square `coordinate` matrices with field `pattern`, `real` or `integer` and
//! symmetry `general` or `symmetric`; anything else in the banner is refused with an error
//! that names it. A `symmetric` file stores one triangle: each entry is also read mirrored.
//! The matrix becomes a [`Csr`] as a graph would: a `general` matrix as a directed graph, the
//! diagonal dropped and duplicate entries merged (values summed), as [`Csr::from_edges`]
//! does. The CPU references and the GPU programs read the same `Csr`, so they agree on what
//! the matrix is.
//!
//! Specification: Boisvert, Pozo and Remington, *The Matrix Market Exchange Formats: Initial
//! Design*, NIST IR 5935, 1996.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::string::{String, ToString};
use std::vec::Vec;

use super::csr::Csr;
use super::error::{GraphError, MtxError};

/// Reads a Matrix Market matrix from `input`.
///
/// # Errors
/// [`GraphError::Mtx`] with the line and what is wrong there, or [`GraphError::Csr`] if the
/// matrix has more entries than `u32` offsets address.
pub fn read(input: impl BufRead) -> Result<Csr, GraphError> {
    let mut lines = Lines {
        input,
        buf: String::new(),
        number: 0,
        ended: false,
    };
    let (n, entries) = match parse(&mut lines) {
        Ok(parsed) => parsed,
        Err(kind) => {
            return Err(GraphError::Mtx {
                path: None,
                line: lines.number,
                kind,
            });
        }
    };
    Ok(match entries {
        Entries::Pattern(edges, symmetric) => Csr::from_edges(n, &edges, symmetric)?,
        Entries::Valued(edges, symmetric) => Csr::from_weighted_edges(n, &edges, symmetric)?,
    })
}

/// Reads a Matrix Market file.
///
/// # Errors
/// [`GraphError::Open`] if the file cannot be opened; otherwise as [`read`], with the path in
/// the error.
pub fn read_path(path: impl AsRef<Path>) -> Result<Csr, GraphError> {
    let path = path.as_ref();
    let file = File::open(path).map_err(|source| GraphError::Open {
        path: path.to_path_buf(),
        source,
    })?;
    read(BufReader::new(file)).map_err(|e| match e {
        GraphError::Mtx { line, kind, .. } => GraphError::Mtx {
            path: Some(path.to_path_buf()),
            line,
            kind,
        },
        other => other,
    })
}

/// The entries read, 0-based, and whether to mirror them.
enum Entries {
    Pattern(Vec<(u32, u32)>, bool),
    Valued(Vec<(u32, u32, f32)>, bool),
}

/// The banner's field word.
#[derive(Clone, Copy, PartialEq)]
enum Field {
    Pattern,
    Real,
    Integer,
}

/// Lines of the input, counted.
struct Lines<R> {
    input: R,
    buf: String,
    /// The 1-based number of the line last read (the one an error is about); at the end of
    /// the input, one more, for "the line after the last".
    number: usize,
    /// Whether the end of the input has been reached (and counted in `number`).
    ended: bool,
}

impl<R: BufRead> Lines<R> {
    /// Reads the next line into `buf` and counts it; `false` at the end of the input.
    fn read(&mut self) -> Result<bool, MtxError> {
        self.buf.clear();
        if !self.ended {
            self.number += 1;
        }
        if self.input.read_line(&mut self.buf)? == 0 {
            self.ended = true;
            return Ok(false);
        }
        Ok(true)
    }

    /// The next line without its line ending, or `None` at the end of the input.
    fn next(&mut self) -> Result<Option<&str>, MtxError> {
        if !self.read()? {
            return Ok(None);
        }
        Ok(Some(self.buf.trim_end_matches(['\n', '\r'])))
    }

    /// The next line that is not blank and not a `%` comment, trimmed.
    fn next_data(&mut self) -> Result<Option<&str>, MtxError> {
        loop {
            if !self.read()? {
                return Ok(None);
            }
            let line = self.buf.trim();
            if !line.is_empty() && !line.starts_with('%') {
                // Borrow again: returning `line` from inside the loop would hold `buf`
                // across iterations.
                return Ok(Some(self.buf.trim()));
            }
        }
    }
}

/// The banner, size line and entries.
fn parse(lines: &mut Lines<impl BufRead>) -> Result<(u32, Entries), MtxError> {
    let banner = lines.next()?.unwrap_or_default();
    let (field, symmetric) = parse_banner(banner)?;

    let size = lines.next_data()?.unwrap_or_default();
    let [rows, cols, expected] =
        parse_words::<3>(size).ok_or_else(|| MtxError::BadSize(size.to_string()))?;
    if rows != cols {
        return Err(MtxError::NotSquare { rows, cols });
    }
    let n = u32::try_from(rows).map_err(|_| MtxError::TooManyRows { rows })?;

    // Trust the size line for the allocation only up to a point: it may be wrong.
    let capacity = expected.min(1 << 24) as usize;
    let mut pattern = Vec::new();
    let mut valued = Vec::new();
    match field {
        Field::Pattern => pattern.reserve(capacity),
        _ => valued.reserve(capacity),
    }
    let mut found = 0u64;
    while let Some(line) = lines.next_data()? {
        if found == expected {
            return Err(MtxError::ExtraEntry { expected });
        }
        found += 1;
        let bad = || MtxError::BadEntry {
            expected: if field == Field::Pattern {
                "row col"
            } else {
                "row col value"
            },
            found: line.to_string(),
        };
        let mut words = line.split_ascii_whitespace();
        let i = number::<u64>(words.next()).ok_or_else(bad)?;
        let j = number::<u64>(words.next()).ok_or_else(bad)?;
        if !(1..=rows).contains(&i) || !(1..=rows).contains(&j) {
            return Err(MtxError::IndexOutOfRange {
                row: i,
                col: j,
                n: rows,
            });
        }
        let (u, v) = ((i - 1) as u32, (j - 1) as u32);
        let value = match field {
            Field::Pattern => None,
            Field::Real => Some(number::<f64>(words.next()).ok_or_else(bad)? as f32),
            Field::Integer => Some(number::<i64>(words.next()).ok_or_else(bad)? as f32),
        };
        if words.next().is_some() {
            return Err(bad());
        }
        match value {
            None => pattern.push((u, v)),
            Some(x) => valued.push((u, v, x)),
        }
    }
    if found < expected {
        return Err(MtxError::MissingEntries { expected, found });
    }
    let entries = match field {
        Field::Pattern => Entries::Pattern(pattern, symmetric),
        _ => Entries::Valued(valued, symmetric),
    };
    Ok((n, entries))
}

/// The field and whether the matrix is symmetric, from the banner
/// `%%MatrixMarket matrix coordinate <field> <symmetry>` (words after the first are
/// case-insensitive, as the specification says).
fn parse_banner(banner: &str) -> Result<(Field, bool), MtxError> {
    let words: Vec<&str> = banner.split_ascii_whitespace().collect();
    let [magic, object, format, field, symmetry] = words[..] else {
        return Err(MtxError::BadBanner(banner.to_string()));
    };
    if magic != "%%MatrixMarket" {
        return Err(MtxError::BadBanner(banner.to_string()));
    }
    let unsupported = |what, found: &str, supported| MtxError::Unsupported {
        what,
        found: found.to_string(),
        supported,
    };
    if !object.eq_ignore_ascii_case("matrix") {
        return Err(unsupported("object", object, "`matrix`"));
    }
    if !format.eq_ignore_ascii_case("coordinate") {
        return Err(unsupported("format", format, "`coordinate`"));
    }
    let field = match field.to_ascii_lowercase().as_str() {
        "pattern" => Field::Pattern,
        "real" => Field::Real,
        "integer" => Field::Integer,
        _ => {
            return Err(unsupported(
                "field",
                field,
                "`pattern`, `real` and `integer`",
            ));
        }
    };
    let symmetric = match symmetry.to_ascii_lowercase().as_str() {
        "general" => false,
        "symmetric" => true,
        _ => {
            return Err(unsupported(
                "symmetry",
                symmetry,
                "`general` and `symmetric`",
            ));
        }
    };
    Ok((field, symmetric))
}

/// A word parsed as a number, if there is a word and it is one.
fn number<T: core::str::FromStr>(word: Option<&str>) -> Option<T> {
    word?.parse().ok()
}

/// Exactly `N` unsigned integers separated by whitespace.
fn parse_words<const N: usize>(line: &str) -> Option<[u64; N]> {
    let mut words = line.split_ascii_whitespace();
    let mut out = [0; N];
    for slot in &mut out {
        *slot = words.next()?.parse().ok()?;
    }
    words.next().is_none().then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::CsrError;
    use std::vec;

    fn read_str(s: &str) -> Result<Csr, GraphError> {
        read(s.as_bytes())
    }

    /// The line and kind of a parse error.
    fn mtx_error(s: &str) -> (usize, MtxError) {
        match read_str(s) {
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
        let g =
            read_str("%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n2 1 3\n2 1 -1\n")
                .unwrap();
        assert_eq!(g.col, vec![1, 0]);
        assert_eq!(g.val, Some(vec![2.0, 2.0]));
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

    #[test]
    fn malformed_files_name_the_line() {
        let banner = "%%MatrixMarket matrix coordinate real general\n";
        let h = |body: &str| std::format!("{banner}% c\n{body}");
        type Case = (String, usize, fn(&MtxError) -> bool);
        let cases: [Case; 11] = [
            ("".into(), 1, |k| matches!(k, MtxError::BadBanner(_))),
            ("%%MatrixMarket matrix\n".into(), 1, |k| {
                matches!(k, MtxError::BadBanner(_))
            }),
            ("3 3 1\n".into(), 1, |k| matches!(k, MtxError::BadBanner(_))),
            // The end of the input counts as the line after the last.
            (banner.into(), 2, |k| matches!(k, MtxError::BadSize(_))),
            (h("\n3 x 1\n"), 4, |k| matches!(k, MtxError::BadSize(_))),
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
        ];
        for (input, line, is_expected) in cases {
            let (got_line, kind) = mtx_error(&input);
            assert!(is_expected(&kind), "{input:?}: got {kind:?}");
            assert_eq!(got_line, line, "{input:?}: {kind}");
        }
    }

    #[test]
    fn too_many_entries_surface_as_a_csr_error() {
        // Not constructible cheaply for real; the conversion path is what is checked.
        let e: GraphError = CsrError::TooManyEntries { entries: 1 << 33 }.into();
        assert!(e.to_string().contains("do not fit u32"));
    }

    #[test]
    fn the_sample_file_loads() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/small.mtx");
        let g = read_path(path).unwrap();
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
}
