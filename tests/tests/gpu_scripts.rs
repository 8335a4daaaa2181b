//! The GPU machine's suite script in parts (`scripts/gpu-suite-part.sh`), run here on stub
//! binaries: its bookkeeping decides which binaries a GPU call runs and whether the suite
//! passed, so a mistake in it would report a suite that never ran in full as passed. The
//! stubs stand for `.gpu-bin/`'s test binaries and examples; the script and the ones it calls
//! are copied from the workspace into a temporary folder laid out as the repository. Unix
//! only, as the GPU machines: the script is bash, the stubs shell scripts.
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
    let dir = tempfile::tempdir().expect("a temporary folder");
    let root = dir.path();
    fs::create_dir_all(root.join("scripts")).unwrap();
    for script in ["gpu-suite-part.sh", "gpu-run.sh", "jit-cache.sh"] {
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
    for (path, status) in stubs {
        let body =
            format!("#!/bin/sh\nsleep 1\necho \"test result: status {status}\"\nexit {status}\n");
        let file = root.join(".gpu-bin").join(path);
        fs::write(&file, body).unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o755)).unwrap();
    }
    dir
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
