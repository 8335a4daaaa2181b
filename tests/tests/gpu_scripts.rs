//! The GPU machine's scripts, run here on stub binaries. The suite in parts
//! (`scripts/gpu-suite-part.sh`): its bookkeeping decides which binaries a GPU call runs and
//! whether the suite passed, so a mistake in it would report a suite that never ran in full
//! as passed. The A/B helper of call scripts (`scripts/ab-flags.sh`, with
//! `scripts/ab-common.sh`, which `scripts/ab-ptx.sh` shares): a row that fails must be
//! reported and must not stop the rows after it. GTaP's runs for the size sweep and the
//! leaf comparison (`scripts/anchor-runs.sh`): a median, and failed runs reported. The stubs
//! stand for GTaP's program binaries and `.gpu-bin/`'s test
//! binaries, examples and bench; the scripts are copied from the workspace into a temporary
//! folder laid out as the repository. Unix only, as the GPU machines: the scripts are bash,
//! the stubs shell scripts.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is in the workspace")
        .to_path_buf()
}

/// A folder laid out as the repository for the script: its scripts, and a `.gpu-bin/` with
/// the bundle's commit and one stub binary per `(path, exit status)` (each prints a test
/// result line and waits a second, so that a one-second deadline leaves binaries unrun).
fn repository(commit: &str, stubs: &[(&str, i32)]) -> tempfile::TempDir {
    let dir = with_scripts(&["gpu-suite-part.sh", "gpu-run.sh", "jit-cache.sh"], commit);
    for (path, status) in stubs {
        let body =
            format!("#!/bin/sh\nsleep 1\necho \"test result: status {status}\"\nexit {status}\n");
        stub(dir.path(), path, &body);
    }
    dir
}

/// A temporary folder with these scripts of the workspace in `scripts/`, and a `.gpu-bin/`
/// with `tests/`, `examples/` and the bundle's commit.
fn with_scripts(scripts: &[&str], commit: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let root = dir.path();
    fs::create_dir_all(root.join("scripts")).unwrap();
    for script in scripts {
        fs::copy(
            workspace().join("scripts").join(script),
            root.join("scripts").join(script),
        )
        .unwrap();
    }
    for sub in ["tests", "examples"] {
        fs::create_dir_all(root.join(".gpu-bin").join(sub)).unwrap();
    }
    fs::write(root.join(".gpu-bin/COMMIT"), commit).unwrap();
    dir
}

/// An executable shell script at `.gpu-bin/PATH`.
fn stub(root: &Path, path: &str, body: &str) {
    let file = root.join(".gpu-bin").join(path);
    fs::write(&file, body).unwrap();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o755)).unwrap();
}

/// One part, with a one-second deadline and the state in `state`: its exit status and its
/// last line.
fn part(root: &Path, state: &Path) -> (i32, String) {
    let out = Command::new("bash")
        .arg("scripts/gpu-suite-part.sh")
        .current_dir(root)
        .env("GTAP_DEADLINE_S", "1")
        .env("GTAP_SUITE_STATE", state)
        .env_remove("OUT")
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default().to_string();
    (out.status.code().expect("an exit status"), last)
}

#[test]
fn parts_run_what_the_parts_before_left_until_the_suite_is_complete() {
    let stubs = [
        ("tests/programs_gpu-1111", 0),
        ("tests/alpha_cpu-2222", 0),
        ("examples/smoke", 0),
    ];
    let repo = repository("abc", &stubs);
    let state = repo.path().join("state");
    // The first part runs `programs_gpu` first (FIRST) and nothing after the deadline.
    assert_eq!(
        part(repo.path(), &state),
        (
            2,
            "gpu-suite-part: after part 1: 1 passed, 0 failed, 2 left at abc".into()
        )
    );
    assert_eq!(
        part(repo.path(), &state),
        (
            2,
            "gpu-suite-part: after part 2: 2 passed, 0 failed, 1 left at abc".into()
        )
    );
    assert_eq!(
        part(repo.path(), &state),
        (
            0,
            "gpu-suite-part: after part 3: 3 passed, 0 failed, 0 left at abc".into()
        )
    );
    // Once complete, a part runs nothing and says so.
    let (status, last) = part(repo.path(), &state);
    assert_eq!(status, 0);
    assert!(
        last.contains("complete: 3 passed, 0 failed (3 parts)"),
        "{last}"
    );
    // Another bundle starts the suite over.
    fs::write(repo.path().join(".gpu-bin/COMMIT"), "def").unwrap();
    assert_eq!(
        part(repo.path(), &state),
        (
            2,
            "gpu-suite-part: after part 1: 1 passed, 0 failed, 2 left at def".into()
        )
    );
}

#[test]
fn a_failed_binary_fails_the_suite_in_every_later_part() {
    let stubs = [("tests/programs_gpu-1111", 101), ("tests/zeta_cpu-2222", 0)];
    let repo = repository("abc", &stubs);
    let state = repo.path().join("state");
    assert_eq!(
        part(repo.path(), &state),
        (
            1,
            "gpu-suite-part: after part 1: 0 passed, 1 failed, 1 left at abc".into()
        )
    );
    assert_eq!(
        part(repo.path(), &state),
        (
            1,
            "gpu-suite-part: after part 2: 1 passed, 1 failed, 0 left at abc".into()
        )
    );
    let (status, last) = part(repo.path(), &state);
    assert_eq!(status, 1);
    assert!(last.contains("complete: 1 passed, 1 failed"), "{last}");
}

/// A stub bench: prints its arguments (the row's table), a median line on stderr (the log),
/// writes a CSV header where `--out` says, and fails when given `--fail`.
const STUB_BENCH: &str = r#"#!/bin/sh
out= prev=
for a in "$@"; do [ "$prev" = --out ] && out=$a; prev=$a; done
echo "args: $*"
echo "fib(40): median 1.000 ms" >&2
[ -n "$out" ] && echo "benchmark,median_ms" > "$out"
case " $* " in *" --fail "*) echo "error: failed on purpose" >&2; exit 1 ;; esac
exit 0
"#;

#[test]
fn ab_flags_runs_every_row_and_reports_the_ones_that_fail() {
    let repo = with_scripts(&["ab-flags.sh", "ab-common.sh", "jit-cache.sh"], "abc");
    let root = repo.path();
    stub(root, "examples/bench", STUB_BENCH);
    let script = "set -u\n\
        AB_OUT=out . scripts/ab-flags.sh\n\
        ab_run first epaq fib --n 40\n\
        ab_run broken --fail fib\n\
        ab_run last --no-auto-granularity fib\n\
        ab_summary\n";
    let out = Command::new("bash")
        .args(["-c", script])
        .current_dir(root)
        .env("CUDA_CACHE_PATH", root.join("cache"))
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("ab-flags: abc compiled"), "{stdout}");
    let failure = stdout.split("FAIL broken:").nth(1).unwrap_or_default();
    assert!(failure.contains("error: failed on purpose"), "{stdout}");
    assert!(
        stdout.contains("== last"),
        "the row after a failure ran: {stdout}"
    );
    let read = |name: &str| fs::read_to_string(root.join("out").join(name)).unwrap();
    assert_eq!(
        read("first.md").trim(),
        "args: --gpu-only --out out/first.csv --config-name first epaq fib --n 40"
    );
    assert_eq!(read("last.csv").trim(), "benchmark,median_ms");
    assert_eq!(read("commit.txt").trim(), "abc");
    let summary = read("summary.txt");
    for row in ["first", "broken", "last"] {
        assert!(summary.contains(&format!("## {row}.log")), "{summary}");
    }
    assert!(summary.contains("error: failed on purpose"), "{summary}");
    assert_eq!(summary.matches("median 1.000 ms").count(), 3, "{summary}");
}

/// A stub GTaP program: prints the anchor's CSV line with its first argument as the time
/// (`fib N` takes `N`), or fails for `fib 0`; each run appends how CUDA would load its module
/// to `loading.log` beside it.
const STUB_ANCHOR: &str = r#"#!/bin/sh
echo "${CUDA_MODULE_LOADING:-unset}" >>"$(dirname "$0")/loading.log"
[ "$1" = 0 ] && { echo "ANCHOR ERROR: on purpose" >&2; exit 3; }
echo "fib,$1,1,$1.000"
"#;

/// GTaP's runs as the size sweep and the leaf comparison make them (`scripts/anchor-runs.sh`):
/// one row with the median of the runs, every run's time on a `#` line, a failed run
/// reported (and returned) rather than dropped in silence, and every run with its CUDA module
/// loaded eagerly unless `ANCHOR_MODULE_LOADING` says otherwise.
#[test]
fn anchor_runs_prints_the_median_and_reports_failed_runs() {
    let repo = with_scripts(&["anchor-runs.sh"], "abc");
    let root = repo.path();
    stub(root, "examples/fib", STUB_ANCHOR);
    let script = ". scripts/anchor-runs.sh\n\
        anchor_runs fib 7 fib 7; echo \"rc $?\"\n\
        anchor_runs fib 0 fib 0; echo \"rc $?\"\n\
        printf '3\\n1\\n2\\n10\\n' | median; echo\n";
    let out = Command::new("bash")
        .args(["-c", script])
        .current_dir(root)
        .env("GTAP_ANCHOR_BUILD", root.join(".gpu-bin/examples"))
        .env("ANCHOR_RUNS", "3")
        .env("ANCHOR_ERR", root.join("err.log"))
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            "# runs fib 7 1: 7.000 7.000 7.000",
            "fib,7,1,7.000",
            "rc 0",
            "# FAIL fib 0 run 1",
            "# FAIL fib 0 run 2",
            "# FAIL fib 0 run 3",
            "# runs fib 0 1: none",
            "rc 1",
            "2.500",
        ],
        "{stdout}"
    );
    let err = fs::read_to_string(root.join("err.log")).unwrap();
    assert_eq!(err.matches("on purpose").count(), 3, "{err}");
    let loading = root.join(".gpu-bin/examples/loading.log");
    let read_loading = || fs::read_to_string(&loading).unwrap();
    assert_eq!(read_loading(), "EAGER\n".repeat(6));

    fs::remove_file(&loading).unwrap();
    let out = Command::new("bash")
        .args([
            "-c",
            ". scripts/anchor-runs.sh; anchor_runs fib 7 fib 7; anchor_loading_line",
        ])
        .current_dir(root)
        .env("GTAP_ANCHOR_BUILD", root.join(".gpu-bin/examples"))
        .env("ANCHOR_RUNS", "2")
        .env("ANCHOR_MODULE_LOADING", "LAZY")
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("# module loading: CUDA_MODULE_LOADING=LAZY"),
        "{stdout}"
    );
    assert_eq!(read_loading(), "LAZY\n".repeat(2));
}
