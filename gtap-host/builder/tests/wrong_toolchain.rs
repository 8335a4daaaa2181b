//! A stable compiler is refused before anything is built, with the toolchain to use and how
//! to get it. Alone in its test binary: it points `RUSTC` at a stand-in compiler, and the
//! environment is the whole process's.

mod common;

use gtap_builder::{BuildError, PINNED, PtxBuilder};

#[cfg(unix)]
#[test]
fn a_stable_compiler_is_refused_with_the_pinned_toolchain_named() {
    use std::os::unix::fs::PermissionsExt;

    let dir = common::fixture("", &[("src/lib.rs", common::GOOD_LIB)]);
    // Answers the two questions the builder asks a compiler, as stable rustc does.
    let rustc = dir.path().join("fake-rustc");
    std::fs::write(
        &rustc,
        "#!/bin/sh\ncase \"$1\" in\n--print) echo /nonexistent ;;\n\
         *) printf 'rustc 1.95.0 (59807616e 2026-04-14)\\nrelease: 1.95.0\\nhost: x86_64-unknown-linux-gnu\\n' ;;\nesac\n",
    )
    .unwrap();
    std::fs::set_permissions(&rustc, std::fs::Permissions::from_mode(0o755)).unwrap();
    // SAFETY: this is the only test of this binary, so no other thread reads or writes the
    // environment while it is changed.
    unsafe { std::env::set_var("RUSTC", &rustc) };
    let result = PtxBuilder::new(dir.path())
        .quiet()
        .target_dir(dir.path().join("target"))
        .build();
    let Err(e @ BuildError::WrongToolchain { .. }) = result else {
        panic!("expected WrongToolchain, got {result:?}");
    };
    let msg = e.to_string();
    assert!(
        msg.contains(&format!("gtap needs the nightly toolchain {PINNED}")),
        "{msg}"
    );
    assert!(msg.contains("this build uses rustc 1.95.0"), "{msg}");
    assert!(msg.contains("rustup toolchain install"), "{msg}");
}
