//! Builds a `#![no_std]` Rust device crate into PTX from a host crate's `build.rs`. A
//! user's crate reaches it as `gtap::build` (gtap's feature `build`):
//!
//! ```no_run
//! // build.rs of a crate whose library holds the task programs:
//! gtap_builder::PtxBuilder::new(".").build_or_exit();
//! // then, in the crate's host code: gtap::Runtime::new(gtap::include_ptx!())
//! ```
//!
//! # Before it builds: the crate's set-up
//! Mistakes that would otherwise surface as compiler errors far from their cause are found
//! first, from the crate's files and `cargo metadata`, and reported together as
//! [`BuildError::SetUp`], each [`SetUpProblem`] with what to change: no library (a program in
//! `src/main.rs`), a library without `#![no_std]` or without the task features, a dependency
//! that needs `std` in the GPU build (one whose crate root never says `no_std`), and, before
//! that, a stable or beta compiler ([`BuildError::WrongToolchain`]; another nightly than
//! [`PINNED`] gets a warning).
//!
//! # When the device compiler fails
//! [`BuildError::DeviceCompile`] holds the compiler's errors as rustc renders them, the
//! crate's own first, then a few of its dependencies', with what to change where that is
//! known (a dependency that needs `std`, a task called like a function), and none of the
//! build's noise ([`diagnostics`]). [`PtxBuilder::build_or_exit`] gives them to cargo as
//! `cargo::error=` lines, which cargo prints ahead of everything else, not wrapped in
//! "failed to run custom build command". `GTAP_BUILD_VERBOSE=1` adds the device build's
//! whole output and command.
//!
//! # What it does
//! It runs a second `cargo` on the device crate:
//! `cargo rustc --lib --release --target nvptx64-nvidia-cuda -Z build-std=core --crate-type cdylib`,
//! with its own target directory (`<outer target>/gtap-ptx`) so that it never waits on the lock
//! of the outer build, and with the project's link step as `-C linker` (see [`linker`]): rustup
//! ships neither `core` nor `llvm-bitcode-linker` for this target. The PTX is copied to
//! `$OUT_DIR/<crate>.ptx`, and its path is given to the crate's compilation as `GTAP_PTX`
//! ([`PTX_ENV`]), which `gtap::include_ptx!()` reads.
//!
//! # When it rebuilds
//! It prints `cargo:rerun-if-changed` for every source file the device build read (from that
//! build's dep-info, toolchain files left out) and `rerun-if-env-changed` for `GTAP_CUDA_ARCH`,
//! so the build script runs again when, and only when, the device code or the target changes.
//!
//! # Which GPU
//! [`CudaArch::SM_70`] by default: PTX that the driver JIT-compiles on every GPU from Volta on.
//! Choose another with [`PtxBuilder::arch`] or, without editing code, `GTAP_CUDA_ARCH=sm_90`
//! (the variable wins).
//!
//! # Line tables, for profiles
//! `GTAP_PTX_LINES=1` in the environment builds the device crate with line tables
//! (`-Cdebuginfo=line-tables-only`): the same instructions, each with a `.loc` and, in its
//! comment, the chain of functions it was inlined through. The driver would compile such a
//! module (`.target ..., debug`) for the debugger, so it is not for running:
//! `scripts/line-info.sh` builds it in a target directory of its own, compiles a kernel with
//! `ptxas -lineinfo` and disassembles it with line numbers, and `scripts/sass-lines.py`
//! charges ncu's samples of the plain kernel to source lines with it.
//!
//! # Lab kernels: the profiler and the ablation schedulers
//! [`PtxBuilder::lab`] (or `GTAP_LAB=1` in the environment) builds the device crate with
//! `--cfg gtap_lab`, under which `#[gtap::program]` emits, beside each thread program's plain
//! kernel, its lab kernels: `gtap_<name>_profiled`, which records a per-warp timeline (see
//! `GpuConfig::profile` in gtap-host), and `gtap_<name>_one_at_a_time` and
//! `gtap_<name>_global_queue`, the ablation schedulers (`GpuConfig::scheduler`). Without it
//! the PTX holds the plain kernels only, which carry none of the lab's code. The flag goes to
//! the device crate alone (the arguments after `--` of `cargo rustc`), so a lab build
//! recompiles that one crate and reuses its dependencies, `core` included. A crate that
//! wants both variants builds twice:
//! ```no_run
//! gtap_builder::PtxBuilder::new(".").build_or_exit(); // <crate>.ptx, plain
//! gtap_builder::PtxBuilder::new(".")
//!     .lab(true)
//!     .output_name("my_kernels_lab") // my_kernels_lab.ptx
//!     .build_or_exit();
//! ```
//!
//! # When the device crate is the host crate itself
//! A crate may hold its device code in its library and its host programs in examples or
//! binaries (host-only dependencies under `[target.'cfg(not(target_arch = "nvptx64"))'.dependencies]`).
//! Its build script then builds its own library to PTX; inside that inner build the builder
//! sees `GTAP_PTX_INNER` and does nothing, so the recursion stops at one level.

#![warn(missing_docs)]

mod arch;
mod crate_attrs;
pub mod diagnostics;
mod error;
pub mod linker;
mod metadata;
mod setup;
mod toolchain;

use std::path::{Path, PathBuf};
use std::process::Command;

pub use arch::CudaArch;
pub use error::BuildError;
pub use setup::SetUpProblem;
pub use toolchain::{Channel, PINNED, Toolchain};

use metadata::Graph;

/// The target triple of every device build.
pub const TARGET: &str = "nvptx64-nvidia-cuda";

/// Set in the environment of the inner device build; see the crate docs.
pub const INNER_ENV: &str = "GTAP_PTX_INNER";

/// Overrides the target of every device build, e.g. `GTAP_CUDA_ARCH=sm_90`.
pub const ARCH_ENV: &str = "GTAP_CUDA_ARCH";

/// `GTAP_LAB=1` (or `true`, `yes`) makes every device build a lab one, as
/// [`PtxBuilder::lab`] does; see the crate docs.
pub const LAB_ENV: &str = "GTAP_LAB";

/// `GTAP_PTX_LINES=1` builds the device code with line tables, for mapping a profile's SASS
/// to source lines (`scripts/line-info.sh`); see the crate docs. Such PTX is for reading,
/// not for running.
pub const LINES_ENV: &str = "GTAP_PTX_LINES";

/// The flag `GTAP_PTX_LINES` adds: line tables, which give every PTX instruction a `.loc`
/// whose comment names its inlining chain. (`line-directives-only` gives the `.loc`s without
/// the chains, and nearly every instruction of a kernel is inlined from somewhere.)
const LINE_TABLES_FLAG: &str = "-Cdebuginfo=line-tables-only";

/// The cfg under which `#[gtap::program]` emits the lab kernels.
pub const LAB_CFG: &str = "gtap_lab";

/// The variable a build sets for the compilation of the crate's own targets (library,
/// binaries, examples, tests): the path of the PTX a builder without
/// [`output_name`](PtxBuilder::output_name) wrote, which `gtap::include_ptx!()` embeds.
pub const PTX_ENV: &str = "GTAP_PTX";

/// `GTAP_BUILD_VERBOSE=1`: a failed device build shows the device cargo's whole output and
/// command, not only the errors.
pub const VERBOSE_ENV: &str = "GTAP_BUILD_VERBOSE";

/// Builds one device crate into PTX. See the crate docs.
#[derive(Debug, Clone)]
pub struct PtxBuilder {
    crate_dir: PathBuf,
    arch: CudaArch,
    features: Vec<String>,
    target_dir: Option<PathBuf>,
    quiet: bool,
    lab: bool,
    output_name: Option<String>,
}

/// What one device build makes: PTX for `arch`, with the lab kernels when `lab`, with line
/// tables when `lines`.
#[derive(Debug, Clone, Copy)]
struct Flavor {
    arch: CudaArch,
    lab: bool,
    lines: bool,
}

/// A finished device build.
#[derive(Debug, Clone)]
pub struct Ptx {
    /// The crate name with `-` replaced by `_`, as the PTX file is named.
    pub crate_name: String,
    /// Where the PTX was written (`$OUT_DIR/<crate_name>.ptx` under a build script).
    pub path: PathBuf,
    /// The target it was built for.
    pub arch: CudaArch,
    /// Whether it holds the lab kernels (profiled and ablation schedulers) too.
    pub lab: bool,
}

impl PtxBuilder {
    /// A builder for the device crate in `crate_dir` (relative paths are taken from the
    /// calling crate's `CARGO_MANIFEST_DIR`).
    pub fn new(crate_dir: impl AsRef<Path>) -> Self {
        let dir = crate_dir.as_ref();
        let crate_dir = if dir.is_absolute() {
            dir.to_path_buf()
        } else {
            std::env::var_os("CARGO_MANIFEST_DIR")
                .map(PathBuf::from)
                .unwrap_or_default()
                .join(dir)
        };
        PtxBuilder {
            crate_dir,
            arch: CudaArch::default(),
            features: Vec::new(),
            target_dir: None,
            quiet: false,
            lab: false,
            output_name: None,
        }
    }

    /// The GPU target; `GTAP_CUDA_ARCH` in the environment overrides it.
    pub fn arch(mut self, arch: CudaArch) -> Self {
        self.arch = arch;
        self
    }

    /// Enables a cargo feature of the device crate.
    pub fn feature(mut self, feature: impl Into<String>) -> Self {
        self.features.push(feature.into());
        self
    }

    /// Uses this target directory for the device build instead of `<outer target>/gtap-ptx`.
    pub fn target_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.target_dir = Some(dir.into());
        self
    }

    /// Builds the lab kernels (profiled and ablation schedulers) too, with `--cfg gtap_lab`
    /// for the device crate; see the crate docs. `GTAP_LAB=1` turns this on for every build
    /// that did not.
    pub fn lab(mut self, on: bool) -> Self {
        self.lab = on;
        self
    }

    /// Writes the PTX as `<name>.ptx` instead of `<crate name>.ptx` (e.g. a lab variant
    /// beside the plain one; `gtap_host::include_ptx!("<name>")` embeds it).
    pub fn output_name(mut self, name: impl Into<String>) -> Self {
        self.output_name = Some(name.into());
        self
    }

    /// Prints no `cargo:` lines (for use outside a build script, e.g. in tests).
    pub fn quiet(mut self) -> Self {
        self.quiet = true;
        self
    }

    /// Like [`build`](Self::build), but on failure reports the error and stops the build,
    /// which is what a `build.rs` wants. In a build script the report goes to cargo as
    /// `cargo::error=` lines, which cargo shows as they are, ahead of everything else, and
    /// the script exits normally (cargo fails the build for the errors); with
    /// [`quiet`](Self::quiet) it goes to stderr and the process exits with status 1.
    pub fn build_or_exit(self) -> Option<Ptx> {
        let quiet = self.quiet;
        match self.build() {
            Ok(ptx) => ptx,
            Err(e) if quiet => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
            Err(e) => {
                for line in e.to_string().lines() {
                    println!("cargo::error={line}");
                }
                std::process::exit(0);
            }
        }
    }

    /// Builds the device crate and writes its PTX to `$OUT_DIR` (or the target directory when
    /// there is no `OUT_DIR`). Returns `None` inside the inner build of a crate that builds
    /// itself (see the crate docs).
    pub fn build(self) -> Result<Option<Ptx>, BuildError> {
        if std::env::var_os(INNER_ENV).is_some() {
            return Ok(None);
        }
        self.emit("cargo:rerun-if-env-changed=GTAP_CUDA_ARCH");
        self.emit("cargo:rerun-if-env-changed=GTAP_LAB");
        self.emit("cargo:rerun-if-env-changed=GTAP_PTX_LINES");
        let arch = match std::env::var(ARCH_ENV) {
            Ok(s) if !s.trim().is_empty() => s.parse()?,
            _ => self.arch,
        };
        let lab = self.lab || env_flag(LAB_ENV)?;
        let lines = env_flag(LINES_ENV)?;
        let tc = Toolchain::detect()?;
        if let Some(warning) = tc.channel.warning() {
            self.emit(&format!("cargo::warning={warning}"));
        }
        let manifest = self.crate_dir.join("Cargo.toml");
        let crate_name = package_name(&manifest)?.replace('-', "_");
        // The set-up checks, before anything is compiled.
        let graph = Graph::load(&tc.cargo, &manifest)?;
        let problems = setup::check(&graph);
        if !problems.is_empty() {
            return Err(BuildError::SetUp {
                krate: graph.root.name.clone(),
                problems,
            });
        }
        let target_dir = self.target_dir.clone().unwrap_or_else(default_target_dir);
        let linker = linker::write_link_script(&target_dir, &tc.llvm_bin)?;

        let flavor = Flavor { arch, lab, lines };
        let (mut cmd, flags) = self.device_command(&tc, &manifest, &target_dir, flavor, &linker);
        let out = cmd.output().map_err(|source| BuildError::Spawn {
            program: tc.cargo.display().to_string(),
            source,
        })?;
        if !out.status.success() {
            return Err(compile_error(&cmd, &flags, &out, &tc, &graph)?);
        }
        let path = self.install_ptx(&target_dir, &crate_name, &manifest, &tc)?;
        Ok(Some(Ptx {
            crate_name,
            path,
            arch,
            lab,
        }))
    }

    /// The `cargo rustc` command that compiles the device crate at `manifest` to the PTX
    /// `flavor` names, and the flags it passes in `RUSTFLAGS`.
    fn device_command(
        &self,
        tc: &Toolchain,
        manifest: &Path,
        target_dir: &Path,
        flavor: Flavor,
        linker: &Path,
    ) -> (Command, Vec<String>) {
        let Flavor { arch, lab, lines } = flavor;
        let mut cmd = Command::new(&tc.cargo);
        cmd.arg("rustc")
            .arg("--manifest-path")
            .arg(manifest)
            .args([
                "--lib",
                "--release",
                "--target",
                TARGET,
                "-Zbuild-std=core",
                "--crate-type",
                "cdylib",
                // Compiler messages as JSON lines, each naming its package: the report puts
                // the crate's own errors first (`diagnostics`).
                "--message-format=json",
            ])
            .arg("--target-dir")
            .arg(target_dir);
        if !self.features.is_empty() {
            cmd.arg("--features").arg(self.features.join(","));
        }
        // For the device crate alone: its dependencies (`core` too) are the same in both
        // variants and are not rebuilt. The cfg is declared, so the crate's lints accept it.
        cmd.arg("--").arg(format!("--check-cfg=cfg({LAB_CFG})"));
        if lab {
            cmd.arg(format!("--cfg={LAB_CFG}"));
        }
        clean_env(&mut cmd);
        let mut flags = vec![
            format!("-Ctarget-cpu={}", arch.name()),
            format!("-Ctarget-feature={}", arch.ptx_feature()),
            format!("-Clinker={}", linker.display()),
        ];
        if lines {
            flags.push(LINE_TABLES_FLAG.to_owned());
        }
        cmd.env("CARGO_ENCODED_RUSTFLAGS", flags.join("\x1f"))
            .env("RUSTC", &tc.rustc)
            .env(INNER_ENV, "1")
            // Device code is always optimized, without debug info (a `.target ..., debug`
            // module would make the driver's JIT compile for the debugger; `GTAP_PTX_LINES`
            // adds line tables by a flag, for PTX that is read, not run) and without
            // overflow checks, whatever the workspace's release profile says.
            .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
            .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "3")
            .env("CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS", "false")
            .env("CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS", "false")
            .env("CARGO_PROFILE_RELEASE_PANIC", "abort")
            .env("CARGO_PROFILE_RELEASE_LTO", "false");
        (cmd, flags)
    }

    /// Copies the built PTX to `$OUT_DIR` (or leaves it in the target directory), tells cargo
    /// where it is and what to rebuild it for, and returns its path.
    fn install_ptx(
        &self,
        target_dir: &Path,
        crate_name: &str,
        manifest: &Path,
        tc: &Toolchain,
    ) -> Result<PathBuf, BuildError> {
        let release = target_dir.join(TARGET).join("release");
        let built = release.join(format!("{crate_name}.ptx"));
        if !built.exists() {
            return Err(BuildError::NoPtx {
                krate: crate_name.to_owned(),
                path: built,
            });
        }
        let out_dir = std::env::var_os("OUT_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| release.clone());
        let file = self.output_name.as_deref().unwrap_or(crate_name);
        let path = out_dir.join(format!("{file}.ptx"));
        if path != built {
            std::fs::copy(&built, &path).map_err(|source| BuildError::Io {
                what: "cannot copy the PTX to",
                path: path.clone(),
                source,
            })?;
        }
        if self.output_name.is_none() {
            self.emit(&format!("cargo:rustc-env={PTX_ENV}={}", path.display()));
        }
        self.emit(&format!("cargo:rerun-if-changed={}", manifest.display()));
        for dep in dep_info(&release.join(format!("{crate_name}.d"))) {
            if !tc.owns(&dep) {
                self.emit(&format!("cargo:rerun-if-changed={}", dep.display()));
            }
        }
        Ok(path)
    }

    fn emit(&self, line: &str) {
        if !self.quiet {
            println!("{line}");
        }
    }
}

/// Whether the environment variable `var` is set to on (`1`, `true`, `yes`, any case); unset
/// or empty, `0`, `false` and `no` are off, anything else an error.
/// The error of a device build that failed: its errors, the crate's own first, and how to
/// see the whole output. `Err` only when the verbosity setting itself is malformed.
fn compile_error(
    cmd: &Command,
    flags: &[String],
    out: &std::process::Output,
    tc: &Toolchain,
    graph: &Graph,
) -> Result<BuildError, BuildError> {
    let args: Vec<_> = cmd
        .get_args()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let command = format!(
        "{} {} (with GTAP_PTX_INNER=1, RUSTFLAGS {})",
        tc.cargo.display(),
        args.join(" "),
        flags.join(" ")
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut report = diagnostics::report(&diagnostics::errors(&stdout), &stderr, graph);
    if env_flag(VERBOSE_ENV)? {
        report.push_str(&format!(
            "\n\nthe device build's output ({VERBOSE_ENV}):\n{stderr}\ncommand: {command}"
        ));
    } else {
        report.push_str(&format!(
            "\n\n(the device build's whole output and command: {VERBOSE_ENV}=1)"
        ));
    }
    Ok(BuildError::DeviceCompile {
        krate: graph.root.name.clone(),
        report,
        note: tc.channel.warning(),
        command,
    })
}

fn env_flag(var: &'static str) -> Result<bool, BuildError> {
    let Ok(v) = std::env::var(var) else {
        return Ok(false);
    };
    parse_flag(&v).ok_or(BuildError::BadEnv {
        var,
        value: v,
        expected: "1, true or yes to turn it on; 0, false, no or empty for off",
    })
}

fn parse_flag(v: &str) -> Option<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" => Some(true),
        "" | "0" | "false" | "no" => Some(false),
        _ => None,
    }
}

/// `<outer target dir>/gtap-ptx`, found from `OUT_DIR` (`<target>/[<triple>/]<profile>/build/<pkg>/out`).
fn default_target_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("GTAP_PTX_TARGET_DIR") {
        return PathBuf::from(dir);
    }
    if let Some(out) = std::env::var_os("OUT_DIR").map(PathBuf::from)
        && let Some(build) = out
            .ancestors()
            .find(|p| p.file_name().is_some_and(|n| n == "build"))
        && let Some(target) = build.parent().and_then(Path::parent)
    {
        return target.join("gtap-ptx");
    }
    std::env::temp_dir().join("gtap-ptx")
}

/// Removes what the outer cargo set for *its* build script, which would otherwise leak into
/// the device build (features, cfgs, flags, wrappers such as clippy-driver, the jobserver).
pub(crate) fn clean_env(cmd: &mut Command) {
    const EXACT: &[&str] = &[
        "RUSTFLAGS",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "RUSTC_LINKER",
        "TARGET",
        "HOST",
        "OUT_DIR",
        "NUM_JOBS",
        "OPT_LEVEL",
        "DEBUG",
        "PROFILE",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_MAKEFLAGS",
        "MAKEFLAGS",
        "MFLAGS",
        "CARGO_PRIMARY_PACKAGE",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET",
        "CARGO_BUILD_TARGET_DIR",
        "CARGO_BUILD_RUSTFLAGS",
    ];
    const PREFIXES: &[&str] = &[
        "CARGO_FEATURE_",
        "CARGO_CFG_",
        "CARGO_PKG_",
        "CARGO_MANIFEST_",
        "CARGO_PROFILE_",
    ];
    for (key, _) in std::env::vars_os() {
        let Some(k) = key.to_str() else { continue };
        if EXACT.contains(&k) || PREFIXES.iter().any(|p| k.starts_with(p)) {
            cmd.env_remove(&key);
        }
    }
}

/// The `name` of `[package]` in a manifest: enough TOML for the one key needed.
fn package_name(manifest: &Path) -> Result<String, BuildError> {
    let text = std::fs::read_to_string(manifest).map_err(|source| BuildError::Io {
        what: "cannot read the device crate's manifest",
        path: manifest.to_path_buf(),
        source,
    })?;
    let mut in_package = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_package = line == "[package]";
        } else if in_package
            && let Some(rest) = line.strip_prefix("name")
            && let Some(v) = rest.trim_start().strip_prefix('=')
        {
            return Ok(v.trim().trim_matches('"').to_string());
        }
    }
    Err(BuildError::BadCrate {
        path: manifest.to_path_buf(),
        why: "no `name = \"...\"` under [package]".into(),
    })
}

/// The files listed in a cargo dep-info file (`target: a b\ c ...`).
fn dep_info(path: &Path) -> Vec<PathBuf> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    for line in text.lines() {
        let Some((_, deps)) = line.split_once(": ") else {
            continue;
        };
        let mut cur = String::new();
        let mut chars = deps.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if chars.peek() == Some(&' ') => {
                    cur.push(' ');
                    chars.next();
                }
                ' ' => {
                    if !cur.is_empty() {
                        files.push(PathBuf::from(std::mem::take(&mut cur)));
                    }
                }
                c => cur.push(c),
            }
        }
        if !cur.is_empty() {
            files.push(PathBuf::from(cur));
        }
    }
    files.sort();
    files.dedup();
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lab_flags_parse() {
        for on in ["1", "true", "YES", " yes "] {
            assert_eq!(parse_flag(on), Some(true), "{on}");
        }
        for off in ["", "0", "false", "No"] {
            assert_eq!(parse_flag(off), Some(false), "{off}");
        }
        assert_eq!(parse_flag("2"), None);
    }

    /// The rustflags of a device build: line tables only when asked for, and then in the
    /// encoded RUSTFLAGS the device cargo reads.
    #[test]
    fn line_tables_only_when_asked() {
        let tc = Toolchain {
            rustc: "rustc".into(),
            cargo: "cargo".into(),
            sysroot: "/sysroot".into(),
            llvm_bin: "/llvm".into(),
            name: "test".into(),
            channel: toolchain::Channel::Pinned,
        };
        let b = PtxBuilder::new("/crate");
        let build = |lines| {
            let flavor = Flavor {
                arch: CudaArch::default(),
                lab: false,
                lines,
            };
            let (cmd, flags) = b.device_command(
                &tc,
                Path::new("/crate/Cargo.toml"),
                Path::new("/t"),
                flavor,
                Path::new("/link"),
            );
            let encoded = cmd
                .get_envs()
                .find(|(k, _)| *k == "CARGO_ENCODED_RUSTFLAGS")
                .and_then(|(_, v)| v)
                .map(|v| v.to_string_lossy().into_owned())
                .unwrap_or_default();
            (flags, encoded)
        };
        let (flags, encoded) = build(false);
        assert!(
            !flags.iter().any(|f| f.starts_with("-Cdebuginfo")),
            "{flags:?}"
        );
        assert!(!encoded.contains("debuginfo"), "{encoded}");
        let (flags, encoded) = build(true);
        assert_eq!(flags.last().map(String::as_str), Some(LINE_TABLES_FLAG));
        assert!(
            encoded.split('\x1f').any(|f| f == LINE_TABLES_FLAG),
            "{encoded}"
        );
    }

    #[test]
    fn reads_dep_info_with_escaped_spaces() {
        let dir = std::env::temp_dir().join(format!("gtap-depinfo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("x.d");
        std::fs::write(&f, "/t/x.ptx: /src/a.rs /src/my\\ dir/b.rs\n\n/src/a.rs:\n").unwrap();
        let deps = dep_info(&f);
        assert_eq!(
            deps,
            vec![
                PathBuf::from("/src/a.rs"),
                PathBuf::from("/src/my dir/b.rs")
            ]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn package_name_is_read_from_the_package_table_only() {
        let dir = std::env::temp_dir().join(format!("gtap-manifest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let m = dir.join("Cargo.toml");
        std::fs::write(
            &m,
            "[lib]\nname = \"nope\"\n[package]\nversion = \"1\"\nname = \"my-kernels\"\n",
        )
        .unwrap();
        assert_eq!(package_name(&m).unwrap(), "my-kernels");
        std::fs::write(&m, "[lib]\nname = \"nope\"\n").unwrap();
        assert!(
            package_name(&m)
                .unwrap_err()
                .to_string()
                .contains("[package]")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
