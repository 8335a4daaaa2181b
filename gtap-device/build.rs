//! Stops a build on a stable or beta compiler before this crate's `#![feature(..)]`
//! attributes do, with a message that says which toolchain gtap needs and how to get it
//! (the compiler's own error would point into this crate's source instead). gtap-builder
//! checks the same before each GPU build, and warns about other nightlies; this is the
//! check that comes first when a crate using gtap is built.

use std::process::Command;

/// The toolchain of gtap's `rust-toolchain.toml` (`gtap_builder::PINNED`; a test in
/// gtap-tests keeps the two equal).
const PINNED: &str = "nightly-2026-05-20";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let Ok(out) = Command::new(&rustc).arg("-vV").output() else {
        // The build itself will fail to run the compiler and say so.
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let release = text
        .lines()
        .find_map(|l| l.strip_prefix("release:"))
        .unwrap_or_default();
    if release.contains("-nightly") || release.contains("-dev") {
        return;
    }
    let version = text.lines().next().unwrap_or_default().trim();
    println!(
        "cargo::error=gtap needs the nightly toolchain {PINNED} (tasks are coroutines, kernels \
         use the PTX ABI, `core` is built for the GPU), but this build uses {version}."
    );
    println!(
        "cargo::error=Put gtap's rust-toolchain.toml beside your Cargo.toml (channel = \
         \"{PINNED}\", with the components rust-src and llvm-tools; the template crate has \
         one), then run `rustup toolchain install` in that folder."
    );
}
