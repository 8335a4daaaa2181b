//! Finding the pieces of the Rust toolchain that a device build needs, and saying clearly
//! which one is missing.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::BuildError;

/// The LLVM tools the link step runs, all from the `llvm-tools` component.
pub const LLVM_TOOLS: &[&str] = &["llvm-link", "llvm-ar", "opt", "llc"];

/// The toolchain gtap is built and tested with: the channel of its `rust-toolchain.toml`,
/// which a crate using gtap copies (see the template crate).
pub const PINNED: &str = "nightly-2026-05-20";

/// The `commit-date` that `rustc -vV` of [`PINNED`] reports (the nightly of a date is built
/// from the previous day's commits).
pub const PINNED_COMMIT_DATE: &str = "2026-05-19";

/// How the running compiler relates to [`PINNED`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Channel {
    /// The pinned nightly.
    Pinned,
    /// Another nightly (or a locally built compiler): unstable features work, but gtap was
    /// not tested with it.
    OtherNightly {
        /// `rustc -vV`'s first line.
        version: String,
    },
    /// A stable or beta compiler, which refuses the unstable features gtap needs.
    NotNightly {
        /// `rustc -vV`'s first line.
        version: String,
    },
}

impl Channel {
    /// The channel described by the output of `rustc -vV`.
    pub fn of(verbose_version: &str) -> Channel {
        let field = |name: &str| {
            verbose_version
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .map(str::trim)
                .unwrap_or_default()
        };
        let version = verbose_version
            .lines()
            .next()
            .unwrap_or_default()
            .trim()
            .to_owned();
        let release = field("release:");
        if !(release.contains("-nightly") || release.contains("-dev")) {
            Channel::NotNightly { version }
        } else if field("commit-date:") == PINNED_COMMIT_DATE {
            Channel::Pinned
        } else {
            Channel::OtherNightly { version }
        }
    }

    /// A warning for a nightly other than the pinned one, `None` for the pinned one.
    pub fn warning(&self) -> Option<String> {
        match self {
            Channel::OtherNightly { version } => Some(format!(
                "this build uses {version}, but gtap is built and tested with {PINNED} only; \
                 if the build fails, put gtap's rust-toolchain.toml beside your Cargo.toml \
                 (channel = \"{PINNED}\") and run `rustup toolchain install`"
            )),
            _ => None,
        }
    }
}

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
    /// How it relates to the toolchain gtap is tested with.
    pub channel: Channel,
}

impl Toolchain {
    /// Finds the toolchain the current build uses and checks that it is a nightly and that
    /// `rust-src` and `llvm-tools` are installed.
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
        let verbose = verbose_version(&rustc)?;
        let channel = Channel::of(&verbose);
        if let Channel::NotNightly { version } = channel {
            return Err(BuildError::WrongToolchain { version });
        }
        let host = verbose
            .lines()
            .find_map(|l| l.strip_prefix("host: "))
            .unwrap_or("x86_64-unknown-linux-gnu")
            .trim()
            .to_string();
        let llvm_bin = sysroot.join("lib/rustlib").join(host).join("bin");
        let tc = Toolchain {
            rustc,
            cargo,
            sysroot,
            llvm_bin,
            name,
            channel,
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

/// `rustc -vV`: the version, the release channel, the commit date and the host.
fn verbose_version(rustc: &Path) -> Result<String, BuildError> {
    let out = Command::new(rustc)
        .arg("-vV")
        .output()
        .map_err(|source| BuildError::Spawn {
            program: rustc.display().to_string(),
            source,
        })?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PINNED_VV: &str = "rustc 1.97.0-nightly (e50aa6fba 2026-05-19)\nbinary: rustc\n\
        commit-hash: e50aa6fba\ncommit-date: 2026-05-19\nhost: x86_64-unknown-linux-gnu\n\
        release: 1.97.0-nightly\nLLVM version: 22.1.4\n";

    #[test]
    fn stable_other_nightlies_and_the_pinned_one_are_told_apart() {
        assert_eq!(Channel::of(PINNED_VV), Channel::Pinned);
        let stable =
            "rustc 1.95.0 (59807616e 2026-04-14)\nrelease: 1.95.0\ncommit-date: 2026-04-14\n";
        assert!(matches!(Channel::of(stable), Channel::NotNightly { .. }));
        let beta = "rustc 1.96.0-beta.3 (aaa 2026-05-01)\nrelease: 1.96.0-beta.3\n";
        assert!(matches!(Channel::of(beta), Channel::NotNightly { .. }));
        let other = PINNED_VV.replace("2026-05-19", "2026-06-01");
        let warning = Channel::of(&other).warning().unwrap();
        assert!(
            warning.contains(PINNED) && warning.contains("2026-06-01"),
            "{warning}"
        );
    }

    /// The toolchain this test runs on is the pinned one (CI installs what
    /// rust-toolchain.toml names): so `PINNED_COMMIT_DATE` matches `PINNED`.
    #[test]
    fn the_pinned_commit_date_is_the_running_compilers() {
        let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
        let vv = verbose_version(Path::new(&rustc)).unwrap();
        assert_eq!(Channel::of(&vv), Channel::Pinned, "{vv}");
    }
}
