//! What can go wrong while turning a device crate into PTX, each with what to do about it.

use std::path::PathBuf;

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

    /// The device crate did not compile; the compiler's own messages were printed above.
    #[error(
        "the device crate `{krate}` failed to build for nvptx64-nvidia-cuda \
         (the compiler's messages are above).\ncommand: {command}"
    )]
    DeviceCompile {
        /// Device crate name.
        krate: String,
        /// The command that failed.
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
    fn a_device_compile_error_points_at_the_compiler_output() {
        let e = BuildError::DeviceCompile {
            krate: "kernels".into(),
            command: "cargo rustc ...".into(),
        };
        let msg = e.to_string();
        assert!(
            msg.contains("`kernels`") && msg.contains("messages are above"),
            "{msg}"
        );
    }
}
