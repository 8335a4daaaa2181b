//! The starter crate (`template/`), as a new user starts from it: copied to a fresh folder
//! outside the workspace, built (the GPU build of its library included) and run on the CPU
//! backend; and two mistakes made in it, which the build reports as errors that point at
//! the user's code and say what to change.
//!
//! The copies share this workspace's target folder and lock file, so they reuse what the
//! workspace build compiled (gtap's dependencies, `core` for the GPU) and compile what
//! differs: gtap-host without the test harness, gtap, and the copy itself.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is in the workspace")
        .to_path_buf()
}

/// The target folder this test binary was built in (`<target>/debug/deps/<binary>`).
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let target = exe
        .ancestors()
        .nth(3)
        .expect("<target>/<profile>/deps/<binary>");
    assert!(
        target.join("CACHEDIR.TAG").exists(),
        "{} is not a cargo target folder",
        target.display()
    );
    target.to_path_buf()
}

/// A copy of the template in a fresh folder, its gtap dependency pointed at this
/// workspace, with the workspace's lock file (so that it builds offline, with the versions
/// the workspace built). `edit` changes its files (path, old text, new text) first.
fn template_copy(edit: &[(&str, &str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let krate = dir.path().join("my-tasks");
    copy_dir(&workspace().join("template"), &krate);
    let manifest = krate.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    assert_eq!(text.matches("path = \"../gtap\"").count(), 2, "{text}");
    let here = format!("path = {:?}", workspace().display().to_string());
    std::fs::write(&manifest, text.replace("path = \"../gtap\"", &here)).unwrap();
    std::fs::copy(workspace().join("Cargo.lock"), krate.join("Cargo.lock")).unwrap();
    for (file, old, new) in edit {
        let path = krate.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(old), "{file} has no {old:?}");
        std::fs::write(&path, text.replacen(old, new, 1)).unwrap();
    }
    (dir, krate)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "target" {
            continue;
        }
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &to.join(&name));
        } else {
            std::fs::copy(entry.path(), to.join(&name)).unwrap();
        }
    }
}

/// `cargo ARGS --offline` in `krate`, as a user's shell would run it: the toolchain from the
/// crate's rust-toolchain.toml, none of the variables cargo set for this test, the CPU
/// backend chosen through the environment.
fn cargo(krate: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new("cargo");
    cmd.current_dir(krate)
        .args(args)
        .arg("--offline")
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("GTAP_REQUIRE_GPU")
        .env("GTAP_BACKEND", "cpu")
        .env("CARGO_TERM_COLOR", "never");
    for (key, _) in std::env::vars_os() {
        let k = key.to_string_lossy();
        if (k.starts_with("CARGO_") && k != "CARGO_HOME") || k == "CARGO" || k == "RUSTC" {
            cmd.env_remove(&key);
        }
    }
    cmd.env("CARGO_TARGET_DIR", target_dir());
    cmd.output().expect("cargo runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The `channel` and `components` lines of a rust-toolchain.toml.
fn pins(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("channel") || l.starts_with("components"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_template_pins_the_toolchain_gtap_is_built_with() {
    let ours = pins(&workspace().join("rust-toolchain.toml"));
    assert_eq!(
        ours[0],
        format!("channel = \"{}\"", gtap_builder::PINNED),
        "gtap_builder::PINNED"
    );
    assert_eq!(
        pins(&workspace().join("template/rust-toolchain.toml")),
        ours
    );
    let device_build = std::fs::read_to_string(workspace().join("gtap-device/build.rs")).unwrap();
    assert!(
        device_build.contains(&format!(
            "const PINNED: &str = \"{}\";",
            gtap_builder::PINNED
        )),
        "gtap-device/build.rs names another toolchain"
    );
}

#[test]
fn a_fresh_crate_from_the_template_builds_and_runs_on_the_cpu_backend() {
    let (_dir, krate) = template_copy(&[]);
    let out = cargo(&krate, &["run", "--", "20"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("running on CPU backend") && stdout.contains("(chosen by GTAP_BACKEND)"),
        "{stdout}"
    );
    assert!(stdout.contains("fib(20) = 6765\n"), "{stdout}");
    assert!(
        stdout.contains(" tasks in ") && stdout.contains(" on the CPU "),
        "{stdout}"
    );
    // The GPU build ran: the PTX that main.rs embeds holds the program's kernel.
    let ptx = std::fs::read_dir(target_dir().join("debug/build"))
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("my-tasks-"))
        .map(|e| e.path().join("out/my_tasks.ptx"))
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .any(|ptx| ptx.contains(".entry gtap_fib("));
    assert!(ptx, "no my_tasks.ptx with the kernel gtap_fib");
}

#[test]
fn a_host_only_dependency_is_named_before_anything_is_compiled_for_the_gpu() {
    let edit = (
        "Cargo.toml",
        "[dependencies]\n",
        "[dependencies]\nrayon = \"1\"\n",
    );
    let (_dir, krate) = template_copy(&[edit]);
    let out = cargo(&krate, &["build"]);
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("error: my-tasks@0.1.0: `my-tasks` is not set up for the GPU build:"),
        "{stderr}"
    );
    assert!(
        stderr.contains("move `rayon` in Cargo.toml from [dependencies] to [target.'cfg(not(target_arch = \"nvptx64\"))'.dependencies]"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("failed to run custom build command"),
        "{stderr}"
    );
}

#[test]
fn an_error_in_the_task_program_points_at_the_users_code_without_noise() {
    let edit = (
        "src/lib.rs",
        "let a = spawn!(fib(n - 1));",
        "let a = fib(n - 1);",
    );
    let (_dir, krate) = template_copy(&[edit]);
    let out = cargo(&krate, &["build"]);
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    let first = stderr
        .lines()
        .position(|l| l.starts_with("error: my-tasks@0.1.0:"))
        .unwrap_or_else(|| panic!("no error of the crate:\n{stderr}"));
    let lines: Vec<&str> = stderr.lines().skip(first).collect();
    assert_eq!(
        lines[0], "error: my-tasks@0.1.0: the GPU build of `my-tasks` failed:",
        "{stderr}"
    );
    let report = lines.join("\n");
    assert!(
        report.contains("`fib(n - 1)` calls task `fib` like a function")
            && report.contains("--> src/lib.rs:19:17"),
        "{report}"
    );
    for noise in ["ptx70", "failed to run custom build command", "gtap-device"] {
        assert!(!stderr.contains(noise), "{noise:?} in:\n{stderr}");
    }
}
