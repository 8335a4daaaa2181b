//! CSV input: a header row, then records, read with the `csv` crate. Lines starting with `#`
//! are comments, so results files can carry notes; fields are trimmed. Every error names the
//! file and, where there is one, the line and the column.

use std::path::{Path, PathBuf};

use csv::{ErrorKind, Position, ReaderBuilder, StringRecord, Trim};

use crate::cli::Filter;
use crate::error::{Error, Result};

/// One record and the line it starts on (1-based), for error messages.
#[derive(Debug, Clone)]
pub struct Row {
    /// Line number in the file.
    pub line: u64,
    /// The fields, as many as the header has.
    pub fields: StringRecord,
}

/// A CSV file, read whole.
#[derive(Debug, Clone)]
pub struct Table {
    /// Where it came from.
    pub path: PathBuf,
    /// Column names.
    pub header: StringRecord,
    /// The records after the header.
    pub rows: Vec<Row>,
}

impl Table {
    /// Reads the CSV file at `path`.
    pub fn read(path: &Path) -> Result<Table> {
        let text = std::fs::read(path).map_err(|source| Error::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let bad_csv = |source: csv::Error| match source.kind() {
            ErrorKind::UnequalLengths {
                pos: Some(pos),
                expected_len,
                len,
            } => Error::Ragged {
                path: path.to_path_buf(),
                line: record_line(&text, pos),
                found: *len,
                expected: *expected_len,
            },
            _ => Error::Csv {
                path: path.to_path_buf(),
                source,
            },
        };
        let mut reader = ReaderBuilder::new()
            .comment(Some(b'#'))
            .trim(Trim::All)
            .from_reader(text.as_slice());
        let header = reader.headers().map_err(bad_csv)?.clone();
        if header.is_empty() {
            return Err(Error::NoHeader {
                path: path.to_path_buf(),
            });
        }
        let mut rows = Vec::new();
        for fields in reader.records() {
            let fields = fields.map_err(bad_csv)?;
            let line = fields.position().map_or(0, |p| record_line(&text, p));
            rows.push(Row { line, fields });
        }
        Ok(Table {
            path: path.to_path_buf(),
            header,
            rows,
        })
    }

    /// Reads `path` and keeps the rows that pass `filters`: filters on one column keep rows
    /// matching any of them, filters on different columns must all match. No row left is an
    /// error naming the filters.
    pub fn read_filtered(path: &Path, filters: &[Filter]) -> Result<Table> {
        let mut table = Table::read(path)?;
        let columns = filters
            .iter()
            .map(|f| Ok((table.column(&f.column)?, f.value.as_str())))
            .collect::<Result<Vec<_>>>()?;
        table.rows.retain(|row| {
            columns.iter().all(|&(col, _)| {
                columns
                    .iter()
                    .any(|&(c, value)| c == col && &row.fields[col] == value)
            })
        });
        if table.rows.is_empty() {
            let why = if filters.is_empty() {
                "has no data rows".to_string()
            } else {
                let list: Vec<String> = filters
                    .iter()
                    .map(|f| format!("{}={}", f.column, f.value))
                    .collect();
                format!("has no rows matching --filter {}", list.join(" "))
            };
            return Err(Error::Data(format!("{} {why}", path.display())));
        }
        Ok(table)
    }

    /// The index of column `name`.
    pub fn column(&self, name: &str) -> Result<usize> {
        let mut found = self.header.iter().enumerate().filter(|(_, h)| *h == name);
        let problem = match (found.next(), found.next()) {
            (Some((i, _)), None) => return Ok(i),
            (None, _) => "no",
            (Some(_), Some(_)) => "more than one",
        };
        Err(Error::Column {
            path: self.path.clone(),
            problem,
            column: name.to_string(),
            available: self.header.iter().collect::<Vec<_>>().join(", "),
        })
    }

    /// The number in column `col` of `row`. Empty cells and `nan`/`NA` give NaN, which charts
    /// skip; anything else that is not a number is an error.
    pub fn number(&self, row: &Row, col: usize) -> Result<f64> {
        let text = &row.fields[col];
        if text.is_empty() || ["nan", "na", "n/a"].contains(&text.to_ascii_lowercase().as_str()) {
            return Ok(f64::NAN);
        }
        text.parse()
            .map_err(|_| self.bad_cell(row, col, "a number"))
    }

    /// The non-negative integer in column `col` of `row`, read exactly (nanosecond timestamps
    /// exceed what an `f64` holds exactly).
    pub fn integer(&self, row: &Row, col: usize) -> Result<u64> {
        row.fields[col]
            .parse()
            .map_err(|_| self.bad_cell(row, col, "a non-negative integer"))
    }

    fn bad_cell(&self, row: &Row, col: usize, expected: &'static str) -> Error {
        Error::BadCell {
            path: self.path.clone(),
            line: row.line,
            column: self.header[col].to_string(),
            text: row.fields[col].to_string(),
            expected,
        }
    }

    /// The rows grouped by their value in column `col`, groups in order of first appearance.
    pub fn group_by(&self, col: usize) -> Vec<(&str, Vec<&Row>)> {
        let mut groups: Vec<(&str, Vec<&Row>)> = Vec::new();
        for row in &self.rows {
            let key = &row.fields[col];
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, members)) => members.push(row),
                None => groups.push((key, vec![row])),
            }
        }
        groups
    }
}

/// The line a record of `text` starts on. The csv crate's position for a record comes before
/// the blank and comment lines it skipped to reach it, so those are skipped here too.
fn record_line(text: &[u8], pos: &Position) -> u64 {
    let mut line = pos.line();
    let start = usize::try_from(pos.byte()).map_or(text.len(), |b| b.min(text.len()));
    for this in text[start..].split(|&b| b == b'\n') {
        let this = this.strip_suffix(b"\r").unwrap_or(this);
        if !this.is_empty() && !this.starts_with(b"#") {
            break;
        }
        line += 1;
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A CSV file in a scratch folder of its own, removed with it.
    struct Csv(PathBuf);

    impl Csv {
        fn new(name: &str, text: &str) -> Csv {
            let dir = std::env::temp_dir().join(format!("gtap-plot-{}-{name}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(name), text).unwrap();
            Csv(dir.join(name))
        }

        /// The message of `result`'s error, with the file's path as `FILE`.
        fn error<T: std::fmt::Debug>(&self, result: Result<T>) -> String {
            let path = self.0.display().to_string();
            result.unwrap_err().to_string().replace(&path, "FILE")
        }
    }

    impl Drop for Csv {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(self.0.parent().unwrap());
        }
    }

    const DATA: &str = "\
# sweep of fib on two backends
n, backend ,ms
30,gpu,1.5

30,cpu,4.25
# a comment between records
35,gpu,\"8.0\"
35,\"cpu, 16 threads\",40
40,gpu,NA
";

    fn filter(column: &str, value: &str) -> Filter {
        Filter {
            column: column.into(),
            value: value.into(),
        }
    }

    #[test]
    fn comments_blank_lines_quotes_and_lines() {
        let t = Table::read(&Csv::new("sweep.csv", DATA).0).unwrap();
        assert_eq!(t.header, vec!["n", "backend", "ms"]);
        let lines: Vec<u64> = t.rows.iter().map(|r| r.line).collect();
        assert_eq!(lines, [3, 5, 7, 8, 9]);
        assert_eq!(&t.rows[3].fields[1], "cpu, 16 threads");
        assert_eq!(t.number(&t.rows[2], 2).unwrap(), 8.0);
        assert!(t.number(&t.rows[4], 2).unwrap().is_nan());
        let groups: Vec<&str> = t.group_by(1).iter().map(|g| g.0).collect();
        assert_eq!(groups, ["gpu", "cpu", "cpu, 16 threads"]);
    }

    #[test]
    fn filters_or_within_a_column_and_within_columns() {
        let csv = Csv::new("f.csv", DATA);
        let lines = |filters: &[Filter]| -> Result<Vec<u64>> {
            let t = Table::read_filtered(&csv.0, filters)?;
            Ok(t.rows.iter().map(|r| r.line).collect())
        };
        let gpu_35 = [filter("backend", "gpu"), filter("n", "35")];
        assert_eq!(lines(&gpu_35).unwrap(), [7]);
        assert_eq!(
            lines(&[filter("n", "30"), filter("n", "40")]).unwrap(),
            [3, 5, 9]
        );
        assert_eq!(
            csv.error(lines(&[filter("backend", "tpu")])),
            "FILE has no rows matching --filter backend=tpu"
        );
        assert_eq!(
            csv.error(lines(&[filter("time", "1")])),
            "FILE: no column `time`; the columns are: n, backend, ms"
        );
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let csv = Csv::new("b.csv", "a,b\n1,x\n1700000000000000001,2\n");
        let t = Table::read(&csv.0).unwrap();
        let e = csv.error(t.number(&t.rows[0], 1));
        assert_eq!(e, "FILE:2: column `b`: `x` is not a number");
        let e = csv.error(t.integer(&t.rows[0], 1));
        assert_eq!(e, "FILE:2: column `b`: `x` is not a non-negative integer");
        assert_eq!(t.integer(&t.rows[1], 0).unwrap(), 1_700_000_000_000_000_001);
        let ragged = Csv::new("r.csv", "a,b\n1,2\n\n# c\n3\n");
        let e = ragged.error(Table::read(&ragged.0));
        assert_eq!(e, "FILE:5: 1 fields, but the header has 2");
        let empty = Csv::new("e.csv", "# only a comment\n");
        assert_eq!(empty.error(Table::read(&empty.0)), "FILE: no header row");
        let dup = Csv::new("d.csv", "a,a\n1,2\n");
        let e = dup.error(Table::read(&dup.0).unwrap().column("a"));
        assert_eq!(e, "FILE: more than one column `a`; the columns are: a, a");
    }
}
