//! The builder's set-up checks on fixture crates: each mistake a new user makes is found
//! before the device compiler runs, and the message says what to change.

mod common;

use common::{GOOD_LIB, fixture};
use gtap_builder::{BuildError, PtxBuilder, SetUpProblem};

/// The set-up problems the builder reports for the crate in `dir`.
fn problems(dir: &std::path::Path) -> Vec<SetUpProblem> {
    let target = dir.join("target");
    match PtxBuilder::new(dir).quiet().target_dir(target).build() {
        Err(BuildError::SetUp { krate, problems }) => {
            assert_eq!(krate, "app");
            problems
        }
        other => panic!("expected set-up problems, got {other:?}"),
    }
}

fn message(dir: &std::path::Path) -> String {
    let target = dir.join("target");
    PtxBuilder::new(dir)
        .quiet()
        .target_dir(target)
        .build()
        .expect_err("a set-up mistake")
        .to_string()
}

#[test]
fn a_library_without_no_std_is_named_with_the_fix() {
    let lib = GOOD_LIB.replace("#![no_std]\n", "");
    let dir = fixture("", &[("src/lib.rs", &lib)]);
    let found = problems(dir.path());
    assert!(
        matches!(found.as_slice(), [SetUpProblem::NotNoStd { lib }] if lib.ends_with("src/lib.rs")),
        "{found:?}"
    );
    let msg = message(dir.path());
    assert!(
        msg.starts_with("`app` is not set up for the GPU build:"),
        "{msg}"
    );
    assert!(
        msg.contains("has no `#![no_std]`") && msg.contains("Add `#![no_std]`"),
        "{msg}"
    );
}

#[test]
fn a_program_in_main_rs_without_a_library_says_to_move_it() {
    let main = "#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]\n\
        #[gtap::program]\nmod fib {}\nfn main() {}\n";
    let dir = fixture("", &[("src/main.rs", main)]);
    let found = problems(dir.path());
    assert!(
        matches!(
            found.as_slice(),
            [SetUpProblem::NoLibrary { .. }, SetUpProblem::ProgramInBinary { file }]
                if file.ends_with("src/main.rs")
        ),
        "{found:?}"
    );
    let msg = message(dir.path());
    assert!(msg.contains("the crate has no library"), "{msg}");
    assert!(
        msg.contains("src/lib.rs") && msg.contains("move the program module"),
        "{msg}"
    );
}

#[test]
fn a_program_in_main_rs_beside_a_library_is_found_too() {
    let main = "#[gtap::program]\nmod fib {}\nfn main() {}\n";
    let dir = fixture("", &[("src/lib.rs", GOOD_LIB), ("src/main.rs", main)]);
    let found = problems(dir.path());
    assert!(
        matches!(found.as_slice(), [SetUpProblem::ProgramInBinary { .. }]),
        "{found:?}"
    );
}

#[test]
fn missing_features_are_given_as_the_lines_to_add() {
    let dir = fixture(
        "",
        &[("src/lib.rs", "#![no_std]\n#![feature(coroutines)]\n")],
    );
    let msg = message(dir.path());
    assert!(
        msg.contains("#![feature(coroutine_trait, type_alias_impl_trait)]"),
        "{msg}"
    );
    assert!(
        msg.contains("#![cfg_attr(target_arch = \"nvptx64\", feature(abi_ptx))]"),
        "{msg}"
    );
}

#[test]
fn a_host_only_dependency_in_the_gpu_build_says_where_to_move_it() {
    let dir = fixture(
        "[dependencies]\nrayon = \"1\"\n",
        &[("src/lib.rs", GOOD_LIB)],
    );
    let found = problems(dir.path());
    assert!(
        matches!(
            found.as_slice(),
            [SetUpProblem::StdDependency { direct, .. }] if direct == "rayon"
        ),
        "{found:?}"
    );
    let msg = message(dir.path());
    assert!(msg.contains("`rayon` needs `std`"), "{msg}");
    assert!(
        msg.contains(
            "move `rayon` in Cargo.toml from [dependencies] to \
             [target.'cfg(not(target_arch = \"nvptx64\"))'.dependencies]"
        ),
        "{msg}"
    );
}

#[test]
fn a_host_only_dependency_where_it_belongs_is_not_a_problem() {
    // With another mistake, so that the build stops at the checks.
    let lib = GOOD_LIB.replace("#![no_std]\n", "");
    let deps = "[target.'cfg(not(target_arch = \"nvptx64\"))'.dependencies]\nrayon = \"1\"\n";
    let dir = fixture(deps, &[("src/lib.rs", &lib)]);
    let found = problems(dir.path());
    assert!(
        matches!(found.as_slice(), [SetUpProblem::NotNoStd { .. }]),
        "{found:?}"
    );
}
