//! The little CSV the bench needs: fields quoted where they hold a comma or a quote, and a
//! reader for the bench's own CSVs and GTaP's anchor output (which has `#` comment lines).

/// `s` as a CSV field.
pub fn field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The fields of one line (quoted fields may hold commas and doubled quotes).
pub fn split(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    fields.push(cur);
    fields
}

/// A CSV table: a header and rows, addressed by column name.
pub struct Table {
    header: Vec<String>,
    /// The rows, each as long as the header.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// Reads `text`: blank lines and lines starting with `#` are skipped, the first other
    /// line is the header, and it must hold every column of `needed`.
    pub fn parse(text: &str, needed: &[&str]) -> Result<Table, String> {
        let mut lines = text
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.is_empty() && !l.starts_with('#'));
        let header = split(lines.next().ok_or("no header line")?);
        for col in needed {
            if !header.iter().any(|h| h == col) {
                return Err(format!("no column `{col}` in the header {header:?}"));
            }
        }
        let mut rows = Vec::new();
        for line in lines {
            let mut row = split(line);
            if row.len() > header.len() {
                return Err(format!("more fields than the header has: {line}"));
            }
            row.resize(header.len(), String::new());
            rows.push(row);
        }
        Ok(Table { header, rows })
    }

    /// `row`'s value of column `col` (empty when the table lacks the column).
    pub fn get<'a>(&self, row: &'a [String], col: &str) -> &'a str {
        self.header
            .iter()
            .position(|h| h == col)
            .map_or("", |i| row[i].as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let s = "a \"b\", c";
        let line = format!("{},x,", field(s));
        assert_eq!(split(&line), [s, "x", ""]);
        let t = Table::parse("# c\nk,v\n\n1,\"2,3\"\n4\n", &["k"]).unwrap();
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.get(&t.rows[0], "v"), "2,3");
        assert_eq!(t.get(&t.rows[1], "v"), "");
        assert!(Table::parse("k\n", &["v"]).is_err());
    }
}
