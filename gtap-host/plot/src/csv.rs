//! A small CSV reader for benchmark results: a header row, then records.
//!
//! It handles what spreadsheets and `format!` write: quoted fields with `""` escapes, commas and
//! newlines inside quotes, CRLF, spaces around fields. Blank lines and lines starting with `#`
//! are skipped, so results files can carry comments. Every error names the file, the line and,
//! where there is one, the column, because a bad cell in a thousand-line sweep is otherwise hard
//! to find.

use std::path::{Path, PathBuf};

/// Why a CSV file could not be read or used.
#[derive(Debug, thiserror::Error)]
pub enum CsvError {
    /// The file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// No header row (the file is empty or holds only comments).
    #[error("{}: no header row", path.display())]
    NoHeader {
        /// The file.
        path: PathBuf,
    },
    /// A quoted field runs to the end of the file.
    #[error("{}:{line}: quoted field is never closed", path.display())]
    UnterminatedQuote {
        /// The file.
        path: PathBuf,
        /// Line where the field starts.
        line: usize,
    },
    /// A record with a different number of fields than the header.
    #[error("{}:{line}: {found} fields, but the header has {expected}", path.display())]
    Ragged {
        /// The file.
        path: PathBuf,
        /// Line of the record.
        line: usize,
        /// Fields in the record.
        found: usize,
        /// Fields in the header.
        expected: usize,
    },
    /// A column asked for is not in the header (or is there twice).
    #[error("{}: {problem} column `{column}`; the columns are: {available}", path.display())]
    Column {
        /// The file.
        path: PathBuf,
        /// `"no"` or `"more than one"`.
        problem: &'static str,
        /// The name asked for.
        column: String,
        /// The header, comma-separated.
        available: String,
    },
    /// A cell that should hold a number does not.
    #[error("{}:{line}: column `{column}`: `{text}` is not {expected}", path.display())]
    BadCell {
        /// The file.
        path: PathBuf,
        /// Line of the record.
        line: usize,
        /// Column name.
        column: String,
        /// The cell.
        text: String,
        /// What it should be, e.g. "a number".
        expected: &'static str,
    },
}

/// One record and the line it starts on (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Line number in the file, for error messages.
    pub line: usize,
    /// The fields, unquoted; unquoted fields are trimmed.
    pub fields: Vec<String>,
}

/// A parsed CSV file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// Where it came from, for error messages.
    pub path: PathBuf,
    /// Column names.
    pub header: Vec<String>,
    /// The records after the header, each with `header.len()` fields.
    pub records: Vec<Record>,
}

impl Table {
    /// Reads and parses the file at `path`.
    pub fn read(path: impl AsRef<Path>) -> Result<Table, CsvError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| CsvError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(&text, path)
    }

    /// Parses `text`; `path` only names it in errors.
    pub fn parse(text: &str, path: impl AsRef<Path>) -> Result<Table, CsvError> {
        let path = path.as_ref().to_path_buf();
        let mut records = split_records(text)
            .map_err(|line| CsvError::UnterminatedQuote {
                path: path.clone(),
                line,
            })?
            .into_iter();
        let Some(header) = records.next() else {
            return Err(CsvError::NoHeader { path });
        };
        let header = header.fields;
        let records: Vec<Record> = records.collect();
        for r in &records {
            if r.fields.len() != header.len() {
                return Err(CsvError::Ragged {
                    path,
                    line: r.line,
                    found: r.fields.len(),
                    expected: header.len(),
                });
            }
        }
        Ok(Table {
            path,
            header,
            records,
        })
    }

    /// The index of column `name`.
    pub fn column(&self, name: &str) -> Result<usize, CsvError> {
        let mut found = self
            .header
            .iter()
            .enumerate()
            .filter(|(_, h)| *h == name)
            .map(|(i, _)| i);
        let problem = match (found.next(), found.next()) {
            (Some(i), None) => return Ok(i),
            (None, _) => "no",
            (Some(_), Some(_)) => "more than one",
        };
        Err(CsvError::Column {
            path: self.path.clone(),
            problem,
            column: name.to_string(),
            available: self.header.join(", "),
        })
    }

    /// The number in column `col` of `record`. Empty cells and `nan`/`NA` give NaN (charts
    /// skip those); anything else that is not a number is an error.
    pub fn number(&self, record: &Record, col: usize) -> Result<f64, CsvError> {
        let text = record.fields[col].trim();
        if text.is_empty() || ["nan", "na", "n/a"].contains(&text.to_ascii_lowercase().as_str()) {
            return Ok(f64::NAN);
        }
        text.parse()
            .map_err(|_| self.bad_cell(record, col, "a number"))
    }

    /// The non-negative integer in column `col` of `record`, read exactly (nanosecond
    /// timestamps exceed what an `f64` holds exactly).
    pub fn integer(&self, record: &Record, col: usize) -> Result<u64, CsvError> {
        let text = record.fields[col].trim();
        text.parse()
            .map_err(|_| self.bad_cell(record, col, "a non-negative integer"))
    }

    fn bad_cell(&self, record: &Record, col: usize, expected: &'static str) -> CsvError {
        CsvError::BadCell {
            path: self.path.clone(),
            line: record.line,
            column: self.header[col].clone(),
            text: record.fields[col].trim().to_string(),
            expected,
        }
    }

    /// Keeps only the records whose column `name` equals `value` exactly.
    pub fn filter(self, name: &str, value: &str) -> Result<Table, CsvError> {
        self.filter_any(name, &[value])
    }

    /// Keeps only the records whose column `name` equals one of `values` exactly.
    pub fn filter_any(mut self, name: &str, values: &[&str]) -> Result<Table, CsvError> {
        let col = self.column(name)?;
        self.records
            .retain(|r| values.contains(&r.fields[col].as_str()));
        Ok(self)
    }

    /// The records grouped by their value in column `col`, groups in order of first
    /// appearance, records in file order.
    pub fn group_by(&self, col: usize) -> Vec<(&str, Vec<&Record>)> {
        let mut groups: Vec<(&str, Vec<&Record>)> = Vec::new();
        for r in &self.records {
            let key = r.fields[col].as_str();
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, members)) => members.push(r),
                None => groups.push((key, vec![r])),
            }
        }
        groups
    }
}

/// Splits `text` into records, dropping blank and `#` lines. `Err(line)` names the line where
/// an unterminated quoted field starts.
fn split_records(text: &str) -> Result<Vec<Record>, usize> {
    let mut out = Vec::new();
    let mut fields: Vec<String> = Vec::new();
    let mut field = String::new();
    let mut quoted = false; // the current field was quoted (keep its spaces)
    let mut in_quotes = false;
    let mut line = 1;
    let mut record_line = 1;
    let mut quote_line = 1;
    let mut chars = text.chars().peekable();
    let finish_field = |field: &mut String, quoted: &mut bool, fields: &mut Vec<String>| {
        let f = std::mem::take(field);
        fields.push(if *quoted { f } else { f.trim().to_string() });
        *quoted = false;
    };
    let mut finish_record = |fields: &mut Vec<String>, record_line: usize| {
        let f = std::mem::take(fields);
        let blank = f.len() == 1 && f[0].is_empty();
        let comment = f.first().is_some_and(|s| s.starts_with('#'));
        if !blank && !comment {
            out.push(Record {
                line: record_line,
                fields: f,
            });
        }
    };
    while let Some(c) = chars.next() {
        if in_quotes {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => in_quotes = false,
                '\n' => {
                    line += 1;
                    field.push(c);
                }
                _ => field.push(c),
            }
            continue;
        }
        match c {
            '"' if !quoted && field.trim().is_empty() => {
                field.clear();
                in_quotes = true;
                quoted = true;
                quote_line = line;
            }
            // Text after a closing quote (normally spaces) is dropped.
            _ if quoted && c != ',' && c != '\n' => {}
            ',' => finish_field(&mut field, &mut quoted, &mut fields),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                finish_field(&mut field, &mut quoted, &mut fields);
                finish_record(&mut fields, record_line);
                line += 1;
                record_line = line;
            }
            _ => field.push(c),
        }
    }
    if in_quotes {
        return Err(quote_line);
    }
    if !field.is_empty() || !fields.is_empty() || quoted {
        finish_field(&mut field, &mut quoted, &mut fields);
        finish_record(&mut fields, record_line);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DATA: &str = "\
# sweep of fib on two backends
n, backend ,ms
30,gpu,1.5

30,cpu,4.25
35,gpu,\"8.0\"
35,\"cpu, 16 threads\",40
40,gpu,
";

    fn table() -> Table {
        Table::parse(DATA, "sweep.csv").unwrap()
    }

    #[test]
    fn parses_header_quotes_comments_and_blank_lines() {
        let t = table();
        assert_eq!(t.header, ["n", "backend", "ms"]);
        assert_eq!(t.records.len(), 5);
        assert_eq!(
            t.records[0],
            Record {
                line: 3,
                fields: vec!["30".into(), "gpu".into(), "1.5".into()]
            }
        );
        assert_eq!(t.records[1].line, 5);
        assert_eq!(t.records[3].fields[1], "cpu, 16 threads");
        assert_eq!(t.number(&t.records[2], 2).unwrap(), 8.0);
        assert!(t.number(&t.records[4], 2).unwrap().is_nan());
    }

    #[test]
    fn quotes_escapes_newlines_and_crlf() {
        let t = Table::parse("a,b\r\n\"x \"\"y\"\"\",\"line\nbreak\"\r\n1,2", "q.csv").unwrap();
        assert_eq!(t.records[0].fields, ["x \"y\"", "line\nbreak"]);
        assert_eq!(
            t.records[1],
            Record {
                line: 4,
                fields: vec!["1".into(), "2".into()]
            }
        );
    }

    #[test]
    fn grouping_keeps_first_appearance_order() {
        let t = table();
        let col = t.column("backend").unwrap();
        let groups = t.group_by(col);
        let names: Vec<&str> = groups.iter().map(|g| g.0).collect();
        assert_eq!(names, ["gpu", "cpu", "cpu, 16 threads"]);
        let lines: Vec<usize> = groups[0].1.iter().map(|r| r.line).collect();
        assert_eq!(lines, [3, 6, 8]);
    }

    #[test]
    fn filter_keeps_matching_records() {
        let t = table()
            .filter("backend", "gpu")
            .unwrap()
            .filter("n", "35")
            .unwrap();
        assert_eq!(t.records.len(), 1);
        assert_eq!(t.records[0].line, 6);
        let t = table()
            .filter_any("backend", &["cpu", "cpu, 16 threads"])
            .unwrap();
        assert_eq!(t.records.len(), 2);
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let t = table();
        let e = t.column("time").unwrap_err().to_string();
        assert_eq!(
            e,
            "sweep.csv: no column `time`; the columns are: n, backend, ms"
        );
        let bad = Table::parse("a,b\n1,x\n", "b.csv").unwrap();
        let e = bad.number(&bad.records[0], 1).unwrap_err().to_string();
        assert_eq!(e, "b.csv:2: column `b`: `x` is not a number");
        let e = bad.integer(&bad.records[0], 1).unwrap_err().to_string();
        assert_eq!(e, "b.csv:2: column `b`: `x` is not a non-negative integer");
        let big = Table::parse("t\n1700000000000000001\n", "t.csv").unwrap();
        assert_eq!(
            big.integer(&big.records[0], 0).unwrap(),
            1_700_000_000_000_000_001
        );
        let e = Table::parse("a,b\n1,2\n3\n", "r.csv")
            .unwrap_err()
            .to_string();
        assert_eq!(e, "r.csv:3: 1 fields, but the header has 2");
        let e = Table::parse("a\n\"open\n", "u.csv")
            .unwrap_err()
            .to_string();
        assert_eq!(e, "u.csv:2: quoted field is never closed");
        let e = Table::parse("# only a comment\n", "e.csv")
            .unwrap_err()
            .to_string();
        assert_eq!(e, "e.csv: no header row");
        let dup = Table::parse("a,a\n1,2\n", "d.csv").unwrap();
        assert!(
            dup.column("a")
                .unwrap_err()
                .to_string()
                .contains("more than one column `a`")
        );
    }
}
