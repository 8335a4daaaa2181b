//! The results table: markdown on stdout, CSV for `--out`.

use std::path::Path;

use crate::csv::field;
use crate::harness::Row;

/// The CSV columns, in order.
pub const CSV_HEADER: &str = "benchmark,size,cutoff,queues,backend,variant,config,runs,\
median_ms,min_ms,max_ms,e2e_median_ms,e2e_min_ms,e2e_max_ms,tasks";

/// `rows` as CSV, header first.
pub fn csv(rows: &[Row]) -> String {
    let mut out = format!("{CSV_HEADER}\n");
    for r in rows {
        let k = &r.key;
        let fields = [
            field(&k.benchmark),
            field(&k.size),
            field(&k.cutoff),
            k.queues.map_or(String::new(), |q| q.to_string()),
            k.backend.to_string(),
            field(&k.variant),
            field(&r.config),
            r.runs.to_string(),
            format!("{:.4}", r.time.median),
            format!("{:.4}", r.time.min),
            format!("{:.4}", r.time.max),
            format!("{:.4}", r.e2e.median),
            format!("{:.4}", r.e2e.min),
            format!("{:.4}", r.e2e.max),
            r.tasks.to_string(),
        ];
        out += &fields.join(",");
        out.push('\n');
    }
    out
}

/// `rows` as a markdown table.
pub fn markdown(rows: &[Row]) -> String {
    let mut out = String::from(
        "| benchmark | size | cutoff | queues | backend | variant | config | runs | median ms | min ms | max ms | e2e median ms | tasks |\n\
         |---|---|---|---|---|---|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let k = &r.key;
        out += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {} |\n",
            k.benchmark,
            k.size,
            k.cutoff,
            k.queues.map_or(String::new(), |q| q.to_string()),
            k.backend,
            k.variant,
            r.config,
            r.runs,
            r.time.median,
            r.time.min,
            r.time.max,
            r.e2e.median,
            r.tasks
        );
    }
    out
}

/// Prints `rows` as markdown and writes them to `out` as CSV when given.
pub fn write(rows: &[Row], out: Option<&Path>) -> Result<(), String> {
    print!("{}", markdown(rows));
    if let Some(path) = out {
        std::fs::write(path, csv(rows))
            .map_err(|e| format!("could not write {}: {e}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::csv::Table;
    use crate::harness::{Key, Stat};

    #[test]
    fn csv_reads_back() {
        let stat = Stat {
            median: 1.5,
            min: 1.0,
            max: 2.0,
        };
        let rows = [Row {
            key: Key::new(
                "mergesort",
                "1e7",
                "rayon",
                "mergesort, sort_unstable leaves",
            )
            .cutoff(16384),
            config: String::new(),
            runs: 3,
            time: stat,
            e2e: stat,
            tasks: 0,
        }];
        let text = csv(&rows);
        let t = Table::parse(&text, &["variant", "e2e_median_ms"]).unwrap();
        assert_eq!(
            t.get(&t.rows[0], "variant"),
            "mergesort, sort_unstable leaves"
        );
        assert_eq!(t.get(&t.rows[0], "cutoff"), "16384");
        assert_eq!(t.get(&t.rows[0], "e2e_median_ms"), "1.5000");
    }
}
