//! Finding the pieces of the Rust toolchain that a device build needs, and saying clearly
//! which one is missing.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::BuildError;

/// The LLVM tools the link step runs, all from the `llvm-tools` component.
pub const LLVM_TOOLS: &[&str] = &["llvm-link", "llvm-ar", "opt", "llc"];

/// The parts of the active toolchain a device build uses.
#[derive(Debug, Clone)]
pub struct Toolchain {
    /// The `rustc` that builds the device crate (the outer build's own).
    pub rustc: PathBuf,
    /// The `cargo` that drives the device build.
    pub cargo: PathBuf,
    /// `rustc --print sysroot`.
    pub sysroot: PathBuf,
    /// Where `llvm-link`, `opt`, `llc` and `llvm-ar` live.
    pub llvm_bin: PathBuf,
    /// The toolchain's name, for messages (`nightly-2026-05-20`, or the sysroot path).
    pub name: String,
}

impl Toolchain {
    /// Finds the toolchain the current build uses and checks that `rust-src` and
    /// `llvm-tools` are installed.
    pub fn detect() -> Result<Toolchain, BuildError> {
        let rustc = PathBuf::from(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()));
        let cargo = PathBuf::from(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
        let out = Command::new(&rustc)
            .args(["--print", "sysroot"])
            .output()
            .map_err(|source| BuildError::Spawn {
                program: rustc.display().to_string(),
                source,
            })?;
        let sysroot = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        let name =
            std::env::var("RUSTUP_TOOLCHAIN").unwrap_or_else(|_| sysroot.display().to_string());
        let host = host_triple(&rustc)?;
        let llvm_bin = sysroot.join("lib/rustlib").join(host).join("bin");
        let tc = Toolchain {
            rustc,
            cargo,
            sysroot,
            llvm_bin,
            name,
        };
        tc.check()?;
        Ok(tc)
    }

    fn check(&self) -> Result<(), BuildError> {
        let core_src = self
            .sysroot
            .join("lib/rustlib/src/rust/library/core/Cargo.toml");
        if !core_src.exists() {
            return Err(BuildError::MissingComponent {
                component: "rust-src",
                toolchain: self.name.clone(),
                looked_for: core_src,
                why: "build `core` for nvptx64-nvidia-cuda with -Z build-std (rustup ships no prebuilt one)",
            });
        }
        for tool in LLVM_TOOLS {
            let path = self.llvm_bin.join(tool);
            if !path.exists() {
                return Err(BuildError::MissingComponent {
                    component: "llvm-tools",
                    toolchain: self.name.clone(),
                    looked_for: path,
                    why: "link the device bitcode into PTX (llvm-link, opt, llc)",
                });
            }
        }
        Ok(())
    }

    /// Whether `path` lies inside the toolchain (so not worth watching for changes).
    pub fn owns(&self, path: &Path) -> bool {
        path.starts_with(&self.sysroot)
    }
}

fn host_triple(rustc: &Path) -> Result<String, BuildError> {
    let out = Command::new(rustc)
        .arg("-vV")
        .output()
        .map_err(|source| BuildError::Spawn {
            program: rustc.display().to_string(),
            source,
        })?;
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(text
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .unwrap_or("x86_64-unknown-linux-gnu")
        .trim()
        .to_string())
}
