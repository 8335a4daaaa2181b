//! The `gtap-plot` binary as a user runs it: exit codes and messages.

use std::process::Command;

fn gtap_plot(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gtap-plot"))
        .args(args)
        .output()
        .unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (
        out.status.code().unwrap_or(-1),
        text(out.stdout),
        text(out.stderr),
    )
}

#[test]
fn help_succeeds() {
    let (code, stdout, _) = gtap_plot(&["--help"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("gtap-plot line <data.csv>"));
}

#[test]
fn usage_error_exits_2() {
    let (code, _, stderr) = gtap_plot(&["line", "x.csv", "--x", "a"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("missing -o"), "{stderr}");
    assert!(stderr.contains("--help"), "{stderr}");
}

#[test]
fn missing_column_exits_1_naming_file_and_column() {
    let dir = std::env::temp_dir().join(format!("gtap-plot-it-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("d.csv");
    std::fs::write(&data, "n,ms\n1,2\n").unwrap();
    let out = dir.join("o.png");
    let (code, _, stderr) = gtap_plot(&[
        "line",
        data.to_str().unwrap(),
        "--x",
        "n",
        "--y",
        "seconds",
        "-o",
        out.to_str().unwrap(),
    ]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, 1);
    assert_eq!(
        stderr.trim(),
        format!(
            "gtap-plot: {}: no column `seconds`; the columns are: n, ms",
            data.display()
        )
    );
}
