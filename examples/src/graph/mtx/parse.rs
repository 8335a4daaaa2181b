//! The banner, the size line and the entries, each checked as it is read: the first thing
//! wrong ends the read with an [`MtxError`] for the line it is on.

use std::io::BufRead;
use std::string::String;
use std::vec::Vec;

use super::super::error::MtxError;
use super::Limits;
use super::lines::{EntryLines, Lines};

/// The entries read before the first allocation grows past it; later growth follows the
/// entries that actually arrive.
const INITIAL_CAPACITY: usize = 1 << 12;

/// The quoted input in an error: at most this many bytes of it, escaped.
const QUOTE_BYTES: usize = 60;

/// A file read and checked, not yet a CSR.
pub(super) struct Parsed {
    /// The vertex count.
    pub n: u32,
    /// Whether each entry also stands for its mirror.
    pub symmetric: bool,
    /// The entries, 0-based.
    pub entries: Entries,
    /// The line of each entry.
    pub lines: EntryLines,
}

/// The entries read, 0-based.
pub(super) enum Entries {
    Pattern(Vec<(u32, u32)>),
    Valued(Vec<(u32, u32, f32)>),
}

/// The banner's field word.
#[derive(Clone, Copy, PartialEq)]
enum Field {
    Pattern,
    Real,
    Integer,
}

impl Field {
    /// The shape of an entry line, for messages.
    fn shape(self) -> &'static str {
        match self {
            Field::Pattern => "row col",
            _ => "row col value",
        }
    }
}

/// The banner, size line and entries.
pub(super) fn parse(lines: &mut Lines<impl BufRead>, limits: Limits) -> Result<Parsed, MtxError> {
    let banner = lines.first()?.ok_or(MtxError::Empty)?;
    let (field, symmetric) = parse_banner(banner)?;

    let size = lines.next_data()?.ok_or(MtxError::MissingSize)?;
    let (n, expected) = parse_size(size, symmetric, limits)?;

    let capacity = expected.min(INITIAL_CAPACITY as u64) as usize;
    let mut entries = match field {
        Field::Pattern => Entries::Pattern(Vec::with_capacity(capacity)),
        _ => Entries::Valued(Vec::with_capacity(capacity)),
    };
    let mut entry_lines = EntryLines::default();
    let mut found = 0u64;
    while let Some(line) = lines.next_data()? {
        if found == expected {
            return Err(MtxError::ExtraEntry { expected });
        }
        let remaining = expected - found;
        match &mut entries {
            Entries::Pattern(v) => {
                let (u, w, _) = parse_entry(line, n, None)?;
                push(v, (u, w), remaining);
            }
            Entries::Valued(v) => {
                let (u, w, x) = parse_entry(line, n, Some(field))?;
                push(v, (u, w, x), remaining);
            }
        }
        found += 1;
        entry_lines.push(lines.number());
    }
    if found < expected {
        return Err(MtxError::MissingEntries { expected, found });
    }
    Ok(Parsed {
        n,
        symmetric,
        entries,
        lines: entry_lines,
    })
}

/// Appends `x`, growing `v` geometrically but never past the `remaining` entries promised
/// (the caller refuses any beyond them).
fn push<T>(v: &mut Vec<T>, x: T, remaining: u64) {
    if v.len() == v.capacity() {
        let grow = (v.len().max(INITIAL_CAPACITY) as u64).min(remaining);
        v.reserve_exact(grow as usize);
    }
    v.push(x);
}

/// The field and whether the matrix is symmetric, from the banner
/// `%%MatrixMarket matrix coordinate <field> <symmetry>` (words after the first are
/// case-insensitive, as the specification says).
fn parse_banner(banner: &str) -> Result<(Field, bool), MtxError> {
    let mut words = banner.split_ascii_whitespace();
    let (Some(magic), Some(object), Some(format), Some(field), Some(symmetry), None) = (
        words.next(),
        words.next(),
        words.next(),
        words.next(),
        words.next(),
        words.next(),
    ) else {
        return Err(MtxError::BadBanner(quote(banner)));
    };
    if magic != "%%MatrixMarket" {
        return Err(MtxError::BadBanner(quote(banner)));
    }
    let unsupported = |what, found: &str, supported| MtxError::Unsupported {
        what,
        found: quote(found),
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

/// The vertex count and the declared entries, from `rows cols entries`, within `limits`.
fn parse_size(line: &str, symmetric: bool, limits: Limits) -> Result<(u32, u64), MtxError> {
    let bad = || MtxError::BadSize(quote(line));
    let mut words = line.split_ascii_whitespace();
    let mut count = || {
        words
            .next()
            .and_then(|w| w.parse::<u64>().ok())
            .ok_or_else(bad)
    };
    let (rows, cols, declared) = (count()?, count()?, count()?);
    if words.next().is_some() {
        return Err(bad());
    }
    if rows != cols {
        return Err(MtxError::NotSquare { rows, cols });
    }
    let max = limits.max_vertices;
    let n = u32::try_from(rows)
        .ok()
        .filter(|&n| n <= max)
        .ok_or(MtxError::TooManyRows { rows, max })?;
    let stored = declared.saturating_mul(if symmetric { 2 } else { 1 });
    if stored > limits.max_entries as u64 {
        return Err(MtxError::TooManyEntries {
            declared,
            stored,
            max: limits.max_entries,
        });
    }
    Ok((n, declared))
}

/// One entry `row col [value]`, 0-based; the value is read when `field` is given.
fn parse_entry(line: &str, n: u32, field: Option<Field>) -> Result<(u32, u32, f32), MtxError> {
    let shape = field.unwrap_or(Field::Pattern).shape();
    let mut words = line.split_ascii_whitespace();
    let mut word = || words.next();
    let (i, j, value, extra) = (word(), word(), word(), word());
    let bad = || MtxError::BadEntry {
        expected: shape,
        found: quote(line),
    };
    let (Some(i), Some(j)) = (i, j) else {
        return Err(bad());
    };
    if extra.is_some() || value.is_some() != field.is_some() {
        return Err(bad());
    }
    let (row, col) = (index(i, "row", n)?, index(j, "column", n)?);
    let in_range = |k: u64| (1..=n as u64).contains(&k);
    if !in_range(row) || !in_range(col) {
        return Err(MtxError::IndexOutOfRange {
            row,
            col,
            n: n as u64,
        });
    }
    let x = match (field, value) {
        (Some(field), Some(word)) => parse_value(word, field)?,
        _ => 0.0,
    };
    // Both are in `1..=n`, so they fit `u32` less one.
    Ok(((row - 1) as u32, (col - 1) as u32, x))
}

/// A 1-based index as written (range checked by the caller).
fn index(word: &str, what: &'static str, n: u32) -> Result<u64, MtxError> {
    word.parse().map_err(|_| MtxError::BadIndex {
        what,
        found: quote(word),
        n: n as u64,
    })
}

/// A value of the banner's field, as a finite `f32`.
fn parse_value(word: &str, field: Field) -> Result<f32, MtxError> {
    let (expected, name) = match field {
        Field::Integer => ("an integer", "integer"),
        _ => ("a real number", "real"),
    };
    let digits = word.strip_prefix(['+', '-']).unwrap_or(word);
    let integer = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    let parsed = match field {
        Field::Integer if !integer => None,
        // Rounded once, to the nearest `f32`: an `f64` in between could round twice.
        _ => word.parse::<f32>().ok(),
    };
    let x = parsed.ok_or_else(|| MtxError::BadValue {
        found: quote(word),
        expected,
        field: name,
    })?;
    if !x.is_finite() {
        return Err(MtxError::NonFiniteValue { found: quote(word) });
    }
    Ok(x)
}

/// `s` as an error quotes it: escaped (control characters and all), cut to [`QUOTE_BYTES`]
/// with `...` if there was more.
fn quote(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        let escaped = c.escape_debug();
        if out.len() + escaped.len() > QUOTE_BYTES {
            out.push_str("...");
            break;
        }
        out.extend(escaped);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_short_and_printable() {
        assert_eq!(quote("1 2"), "1 2");
        assert_eq!(quote("a\u{0}b\tc"), "a\\0b\\tc");
        let long = "7".repeat(100);
        assert_eq!(quote(&long), std::format!("{}...", &long[..QUOTE_BYTES]));
        let wide = quote(&"\u{10ffff}".repeat(100));
        assert!(
            wide.len() <= QUOTE_BYTES + 3 && wide.ends_with("..."),
            "{wide}"
        );
    }

    #[test]
    fn values_round_once_and_must_be_finite() {
        assert_eq!(parse_value("0.1", Field::Real).unwrap(), 0.1f32);
        assert_eq!(parse_value("-3", Field::Integer).unwrap(), -3.0);
        assert_eq!(parse_value("+3", Field::Integer).unwrap(), 3.0);
        for word in ["nan", "-inf", "infinity", "1e39", "-3.5e38"] {
            assert!(
                matches!(
                    parse_value(word, Field::Real),
                    Err(MtxError::NonFiniteValue { .. })
                ),
                "{word}"
            );
        }
        // Integers too large for `f32` are not finite either, not "not integers".
        assert!(matches!(
            parse_value(&"9".repeat(50), Field::Integer),
            Err(MtxError::NonFiniteValue { .. })
        ));
        for word in ["1.5", "1e3", "nan", "", "-", "0x10"] {
            assert!(
                matches!(
                    parse_value(word, Field::Integer),
                    Err(MtxError::BadValue { .. })
                ),
                "{word}"
            );
        }
        assert!(matches!(
            parse_value("one", Field::Real),
            Err(MtxError::BadValue { .. })
        ));
    }
}
