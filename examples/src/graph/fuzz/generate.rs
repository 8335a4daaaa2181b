//! Valid Matrix Market files, each generated with the graph it must read as.
//!
//! A [`Spec`] is the matrix (size, field, symmetry, entries) and how it is written (case,
//! separators, line endings, comments and blank lines, number formats): everything the format
//! leaves free varies, so a valid file that the reader refuses, or reads wrong, shows up.
//! Values are multiples of 1/8 below 1000 in magnitude, so every value and every sum of the
//! few dozen of them prints and adds exactly, in any order: the expected graph is exact.

use std::collections::BTreeMap;
use std::string::{String, ToString};
use std::vec::Vec;
use std::{format, vec};

use proptest::prelude::*;
use proptest::sample::select;

use crate::graph::Csr;

/// The banner's field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Field {
    Pattern,
    Real,
    Integer,
}

/// A matrix and the way its file is written.
#[derive(Clone, Debug)]
pub(super) struct Spec {
    /// Rows and columns.
    pub n: u32,
    pub field: Field,
    pub symmetric: bool,
    /// `(row, col, value)`, 1-based; the value is in eighths for `Real`, an integer for
    /// `Integer`, ignored for `Pattern`.
    pub entries: Vec<(u32, u32, i32)>,
    style: Style,
}

/// How a file is written.
#[derive(Clone, Debug)]
struct Style {
    upper_case: bool,
    crlf: bool,
    final_newline: bool,
    /// Cycled over the gaps between words.
    separators: Vec<&'static str>,
    /// Whitespace before every data line.
    indent: &'static str,
    /// Indices written with leading zeros.
    zero_pad: bool,
    /// How values are printed (see [`Spec::value_text`]).
    value_format: u8,
    /// `(k, line)`: `line` goes before data line `k` (0 is the size line, `entries.len() + 1`
    /// the end of the file).
    fillers: Vec<(usize, &'static str)>,
}

/// What a line of a rendered file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Banner,
    /// A comment or blank line.
    Filler,
    Size,
    /// Entry `k` of [`Spec::entries`].
    Entry(usize),
}

/// A rendered file, line by line.
#[derive(Clone, Debug)]
pub(super) struct File {
    pub lines: Vec<(String, Kind)>,
    pub eol: &'static str,
    pub final_newline: bool,
}

impl File {
    /// The file's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        let mut text = self
            .lines
            .iter()
            .map(|(l, _)| l.as_str())
            .collect::<Vec<_>>()
            .join(self.eol);
        if self.final_newline && !self.lines.is_empty() {
            text.push_str(self.eol);
        }
        text.into_bytes()
    }

    /// The index in `lines` of the first line of kind `kind`.
    pub fn index_of(&self, kind: Kind) -> usize {
        self.lines
            .iter()
            .position(|&(_, k)| k == kind)
            .expect("the file has a line of that kind")
    }

    /// The 1-based line of the last line of kind `Entry`, if any.
    pub fn last_entry_line(&self) -> Option<usize> {
        let last = self
            .lines
            .iter()
            .rposition(|&(_, k)| matches!(k, Kind::Entry(_)))?;
        Some(last + 1)
    }
}

/// Lines other than data that may stand anywhere after the banner.
const FILLERS: [&str; 8] = [
    "%",
    "% a comment",
    "%%MatrixMarket matrix coordinate real general",
    "",
    "   ",
    "\t",
    "% caf\u{e9} 1 2 3",
    "%-1 nan x",
];

/// Whitespace between words.
const SEPARATORS: [&str; 4] = [" ", "  ", "\t", " \t "];

/// Valid files: mostly small matrices, where duplicates and mirrored pairs are common, some
/// larger ones.
pub(super) fn spec() -> impl Strategy<Value = Spec> {
    spec_where(&[Field::Pattern, Field::Real, Field::Integer], 0)
}

/// Valid files of one of `fields` with at least `min_entries` entries (generated so, not
/// filtered: a long run would exceed proptest's limit on rejected cases).
pub(super) fn spec_where(fields: &[Field], min_entries: usize) -> impl Strategy<Value = Spec> {
    let least = (min_entries > 0) as u32;
    let n = prop_oneof![3 => least..=8, 1 => least..=300];
    let field = select(fields.to_vec());
    (n, field, any::<bool>())
        .prop_flat_map(move |(n, field, symmetric)| {
            let index = 1..=n.max(1);
            let entry = (index.clone(), index, -8000i32..8000);
            let entries = if n == 0 {
                Just(Vec::new()).boxed()
            } else {
                proptest::collection::vec(entry, min_entries..40).boxed()
            };
            (Just(n), Just(field), Just(symmetric), entries)
        })
        .prop_flat_map(|(n, field, symmetric, entries)| {
            let data_lines = entries.len() + 2;
            let style = (
                (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()),
                proptest::collection::vec(select(SEPARATORS.to_vec()), 1..4),
                select(vec!["", " ", "\t"]),
                0u8..4,
                proptest::collection::vec((0..data_lines, select(FILLERS.to_vec())), 0..4),
            )
                .prop_map(
                    |(
                        (upper_case, crlf, final_newline, zero_pad),
                        separators,
                        indent,
                        value_format,
                        fillers,
                    )| Style {
                        upper_case,
                        crlf,
                        final_newline,
                        separators,
                        indent,
                        zero_pad,
                        value_format,
                        fillers,
                    },
                );
            (Just(n), Just(field), Just(symmetric), Just(entries), style)
        })
        .prop_map(|(n, field, symmetric, entries, style)| Spec {
            n,
            field,
            symmetric,
            entries: entries
                .into_iter()
                .map(|(i, j, v)| (i, j, if field == Field::Integer { v / 8 } else { v }))
                .collect(),
            style,
        })
}

impl Spec {
    /// The value of an entry as the reader must read it.
    pub fn value(&self, v: i32) -> f32 {
        match self.field {
            Field::Real => v as f32 / 8.0,
            _ => v as f32,
        }
    }

    /// The value of an entry as written.
    fn value_text(&self, v: i32) -> String {
        let x = self.value(v);
        match (self.field, self.style.value_format) {
            (Field::Integer, 0 | 1) => v.to_string(),
            (Field::Integer, _) => format!("{v:+}"),
            (_, 0) => format!("{x}"),
            (_, 1) => format!("{x:e}"),
            (_, 2) => format!("{x:.3}"),
            _ => format!("{x:+E}"),
        }
    }

    /// The file, line by line.
    pub fn render(&self) -> File {
        let s = &self.style;
        let words = |words: &[String]| {
            let mut line = String::from(s.indent);
            for (k, w) in words.iter().enumerate() {
                if k > 0 {
                    line.push_str(s.separators[k % s.separators.len()]);
                }
                line.push_str(w);
            }
            line
        };
        let mut banner = format!(
            "%%MatrixMarket matrix coordinate {} {}",
            match self.field {
                Field::Pattern => "pattern",
                Field::Real => "real",
                Field::Integer => "integer",
            },
            if self.symmetric {
                "symmetric"
            } else {
                "general"
            }
        );
        if s.upper_case {
            banner = banner.replacen("matrix coordinate", "MATRIX Coordinate", 1);
        }
        let mut lines = vec![(banner, Kind::Banner)];
        let index = |i: u32| {
            if s.zero_pad {
                format!("{i:03}")
            } else {
                i.to_string()
            }
        };
        let mut data = vec![(
            words(&[
                self.n.to_string(),
                self.n.to_string(),
                self.entries.len().to_string(),
            ]),
            Kind::Size,
        )];
        for (k, &(i, j, v)) in self.entries.iter().enumerate() {
            let mut w = vec![index(i), index(j)];
            if self.field != Field::Pattern {
                w.push(self.value_text(v));
            }
            data.push((words(&w), Kind::Entry(k)));
        }
        let fillers_at = |k: usize, lines: &mut Vec<(String, Kind)>| {
            for &(_, filler) in s.fillers.iter().filter(|&&(at, _)| at == k) {
                lines.push((filler.to_string(), Kind::Filler));
            }
        };
        let end = data.len();
        for (k, line) in data.into_iter().enumerate() {
            fillers_at(k, &mut lines);
            lines.push(line);
        }
        fillers_at(end, &mut lines);
        File {
            lines,
            eol: if s.crlf { "\r\n" } else { "\n" },
            final_newline: s.final_newline,
        }
    }

    /// The graph the file must read as, by the obvious method: a sorted map of entries.
    pub fn expected(&self) -> Csr {
        let mut map = BTreeMap::<(u32, u32), f32>::new();
        for &(i, j, v) in &self.entries {
            let (u, w, x) = (i - 1, j - 1, self.value(v));
            if u == w {
                continue;
            }
            *map.entry((u, w)).or_default() += x;
            if self.symmetric {
                *map.entry((w, u)).or_default() += x;
            }
        }
        let mut row_ptr = vec![0u32; self.n as usize + 1];
        for &(u, _) in map.keys() {
            row_ptr[u as usize + 1] += 1;
        }
        for r in 0..self.n as usize {
            row_ptr[r + 1] += row_ptr[r];
        }
        Csr {
            n: self.n,
            row_ptr,
            col: map.keys().map(|&(_, w)| w).collect(),
            val: (self.field != Field::Pattern).then(|| map.values().copied().collect()),
        }
    }
}
