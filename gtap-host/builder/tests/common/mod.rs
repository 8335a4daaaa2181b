//! Fixture crates: small device crates with one set-up mistake each, in temporary folders.

use std::path::Path;

/// A crate named `app` in a fresh temporary folder, with `files` (path, text) beside its
/// `Cargo.toml` (`[dependencies]` given by `deps`). It is a workspace of its own, resolves
/// with the gtap workspace's lock file and never goes online, so that `cargo metadata`
/// runs in an instant.
pub fn fixture(deps: &str, files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let root = dir.path();
    write(
        root,
        "Cargo.toml",
        &format!(
            "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[workspace]\n\n{deps}\n"
        ),
    );
    write(root, ".cargo/config.toml", "[net]\noffline = true\n");
    let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock");
    std::fs::copy(lock, root.join("Cargo.lock")).expect("the workspace's Cargo.lock");
    for (path, text) in files {
        write(root, path, text);
    }
    dir
}

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().expect("a file in a folder")).expect("mkdir");
    std::fs::write(path, text).expect("write a fixture file");
}

/// A library root with everything a task crate declares.
pub const GOOD_LIB: &str = "#![no_std]\n\
    #![feature(coroutines, coroutine_trait, type_alias_impl_trait)]\n\
    #![cfg_attr(target_arch = \"nvptx64\", feature(abi_ptx))]\n";
