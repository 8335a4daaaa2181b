//! What can go wrong while turning a device crate into PTX, each with what to do about it.

use std::path::PathBuf;

use crate::setup::SetUpProblem;
use crate::toolchain::PINNED;

/// An error from [`PtxBuilder::build`](crate::PtxBuilder::build).
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// A toolchain component is not installed.
    #[error(
        "the Rust component `{component}` is missing from toolchain `{toolchain}` \
         (looked for {looked_for}); it is needed to {why}.\n\
         Install it with: rustup component add {component} --toolchain {toolchain}\n\
         (or run `rustup toolchain install` in the gtap checkout, which installs every \
         component that rust-toolchain.toml lists)"
    )]
    MissingComponent {
        /// The rustup component, e.g. `rust-src`.
        component: &'static str,
        /// The toolchain it is missing from.
        toolchain: String,
        /// The path that was checked.
        looked_for: PathBuf,
        /// What it is needed for.
        why: &'static str,
    },

    /// The toolchain is not a nightly: gtap's task language and device build need unstable
    /// features.
    #[error(
        "gtap needs the nightly toolchain {PINNED} (tasks are coroutines, kernels use the PTX \
         ABI, `core` is built for the GPU), but this build uses {version}.\n\
         Put gtap's rust-toolchain.toml beside your Cargo.toml (it names channel = \"{PINNED}\" \
         with the components rust-src and llvm-tools; the template crate has one), then run \
         `rustup toolchain install` in that folder"
    )]
    WrongToolchain {
        /// `rustc -vV`'s first line.
        version: String,
    },

    /// The device crate's set-up has mistakes that would fail the device build; each says
    /// what to change. Found before the device compiler runs.
    #[error(
        "`{krate}` is not set up for the GPU build:\n{}",
        problems.iter().map(|p| format!("- {p}")).collect::<Vec<_>>().join("\n")
    )]
    SetUp {
        /// Device crate name.
        krate: String,
        /// Every problem found.
        problems: Vec<SetUpProblem>,
    },

    /// The device crate did not compile: the compiler's errors, the crate's own first, with
    /// what to change where it is known.
    #[error(
        "the GPU build of `{krate}` failed:\n\n{report}{}",
        note.as_deref().map(|n| format!("\n\nnote: {n}")).unwrap_or_default()
    )]
    DeviceCompile {
        /// Device crate name.
        krate: String,
        /// The errors and what to change ([`crate::diagnostics`]).
        report: String,
        /// A remark on the toolchain, when it is not the one gtap is tested with.
        note: Option<String>,
        /// The command that failed (shown with `GTAP_BUILD_VERBOSE=1`).
        command: String,
    },

    /// A process could not be started at all.
    #[error("could not run `{program}`: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        source: std::io::Error,
    },

    /// The build finished but no PTX file is where it should be.
    #[error("the build of `{krate}` succeeded but wrote no PTX at {path}")]
    NoPtx {
        /// Device crate name.
        krate: String,
        /// Where it was expected.
        path: PathBuf,
    },

    /// A file could not be read or written.
    #[error("{what} {path}: {source}")]
    Io {
        /// What was being done.
        what: &'static str,
        /// Which file.
        path: PathBuf,
        /// Why it failed.
        source: std::io::Error,
    },

    /// The device crate's manifest could not be understood.
    #[error("cannot use the device crate at {path}: {why}")]
    BadCrate {
        /// The crate directory.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },

    /// An unknown `sm_XX` target was asked for.
    #[error(
        "unknown CUDA target `{given}`: expected one of {known} (optionally with an `a` suffix from sm_90 on), e.g. GTAP_CUDA_ARCH=sm_90"
    )]
    BadArch {
        /// What was given.
        given: String,
        /// The targets that are known.
        known: String,
    },

    /// An environment variable the builder reads has a value it does not understand.
    #[error("{var}={value:?} is not understood: use {expected}")]
    BadEnv {
        /// The variable, e.g. `GTAP_LAB`.
        var: &'static str,
        /// Its value.
        value: String,
        /// What it accepts.
        expected: &'static str,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_component_says_how_to_install_it() {
        let e = BuildError::MissingComponent {
            component: "rust-src",
            toolchain: "nightly-2026-05-20".into(),
            looked_for: PathBuf::from("/x/lib/rustlib/src/rust/library/core/Cargo.toml"),
            why: "build `core`",
        };
        let msg = e.to_string();
        assert!(
            msg.contains("rustup component add rust-src --toolchain nightly-2026-05-20"),
            "{msg}"
        );
        assert!(msg.contains("rustup toolchain install"), "{msg}");
        assert!(msg.contains("/x/lib/rustlib/src"), "{msg}");
    }

    #[test]
    fn a_device_compile_error_shows_the_report_and_the_toolchain_note() {
        let e = BuildError::DeviceCompile {
            krate: "kernels".into(),
            report: "error[E0308]: mismatched types".into(),
            note: Some("another nightly".into()),
            command: "cargo rustc ...".into(),
        };
        let msg = e.to_string();
        assert!(
            msg.starts_with("the GPU build of `kernels` failed:"),
            "{msg}"
        );
        assert!(
            msg.contains("E0308") && msg.ends_with("note: another nightly"),
            "{msg}"
        );
        assert!(!msg.contains("cargo rustc"), "{msg}");
    }

    #[test]
    fn the_wrong_toolchain_names_the_pinned_one_and_the_fix() {
        let msg = BuildError::WrongToolchain {
            version: "rustc 1.95.0 (59807616e 2026-04-14)".into(),
        }
        .to_string();
        assert!(
            msg.contains(PINNED) && msg.contains("rustc 1.95.0"),
            "{msg}"
        );
        assert!(
            msg.contains("rust-toolchain.toml") && msg.contains("rustup toolchain install"),
            "{msg}"
        );
    }

    #[test]
    fn set_up_problems_are_listed_in_one_message() {
        let msg = BuildError::SetUp {
            krate: "app".into(),
            problems: vec![
                SetUpProblem::NotNoStd {
                    lib: "src/lib.rs".into(),
                },
                SetUpProblem::NoLibrary { dir: "/x".into() },
            ],
        }
        .to_string();
        assert!(
            msg.starts_with("`app` is not set up for the GPU build:\n- src/lib.rs has no"),
            "{msg}"
        );
        assert_eq!(msg.matches("\n- ").count(), 2, "{msg}");
    }
}
