//! Checks of a device crate's set-up, before the device compiler runs: each mistake found
//! here would otherwise surface as a compiler error far from its cause (`can't find crate for
//! std` inside some dependency, `no library targets found`, a feature-gate error inside the
//! expansion of `#[gtap::program]`). Each [`SetUpProblem`] says what to change.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use proc_macro2::{Delimiter, TokenStream, TokenTree};

use crate::crate_attrs::CrateAttrs;
use crate::metadata::Graph;

/// The features every task crate declares: tasks are lowered to rustc coroutines.
pub const TASK_FEATURES: &[&str] = &["coroutines", "coroutine_trait", "type_alias_impl_trait"];

/// The feature the GPU kernels need (`extern "ptx-kernel"`), on the GPU build.
pub const KERNEL_FEATURE: &str = "abi_ptx";

/// Where host-only dependencies go, so that the GPU build does not compile them.
pub const HOST_ONLY_TABLE: &str = "[target.'cfg(not(target_arch = \"nvptx64\"))'.dependencies]";

/// One mistake in a device crate's set-up, with what to change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetUpProblem {
    /// The package has no library target: the GPU build compiles a library.
    NoLibrary {
        /// The package's folder.
        dir: PathBuf,
    },
    /// A `#[gtap::program]` in a binary's root file, which the GPU build never sees.
    ProgramInBinary {
        /// The binary's root file.
        file: PathBuf,
    },
    /// The library does not declare `#![no_std]`.
    NotNoStd {
        /// The library's root file.
        lib: PathBuf,
    },
    /// The library does not enable features that tasks or kernels need.
    MissingFeatures {
        /// The library's root file.
        lib: PathBuf,
        /// The lines to add at its top.
        lines: Vec<String>,
    },
    /// A dependency that the GPU build would compile needs `std`.
    StdDependency {
        /// The crate's own dependency that brings it in (what to move).
        direct: String,
        /// The package that needs `std` (`direct` itself or one of its dependencies).
        needs_std: String,
        /// The chain of packages from the crate to `needs_std`.
        chain: Vec<String>,
    },
}

impl fmt::Display for SetUpProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetUpProblem::NoLibrary { dir } => write!(
                f,
                "the crate has no library: the task program must be in a `#![no_std]` library, \
                 {}, which is what the GPU build compiles (src/main.rs is the host program \
                 that runs it). Move the `#[gtap::program]` module there and use it from \
                 main.rs by the crate's name, e.g. `my_crate::fib::fib(30)`",
                dir.join("src/lib.rs").display()
            ),
            SetUpProblem::ProgramInBinary { file } => write!(
                f,
                "{} holds a `#[gtap::program]`, but the GPU build compiles only the library: \
                 move the program module to src/lib.rs and use it from {} by the crate's name",
                file.display(),
                file.file_name().unwrap_or_default().to_string_lossy()
            ),
            SetUpProblem::NotNoStd { lib } => write!(
                f,
                "{} has no `#![no_std]`: the GPU has no standard library, so the library \
                 holding the tasks must be `no_std`. Add `#![no_std]` as its first line; for \
                 host-only code in it that needs std, add \
                 `#[cfg(not(target_arch = \"nvptx64\"))] extern crate std;` and put that code \
                 behind the same `#[cfg(..)]`",
                lib.display()
            ),
            SetUpProblem::MissingFeatures { lib, lines } => write!(
                f,
                "{} lacks features that task programs need (tasks are lowered to coroutines, \
                 kernels use the PTX ABI); add at its top:\n    {}",
                lib.display(),
                lines.join("\n    ")
            ),
            SetUpProblem::StdDependency {
                direct,
                needs_std,
                chain,
            } => {
                let via = if direct == needs_std {
                    format!("`{direct}` needs `std`")
                } else {
                    format!(
                        "`{direct}` needs `std` through `{needs_std}` ({})",
                        chain.join(" -> ")
                    )
                };
                write!(
                    f,
                    "{via}, which the GPU does not have, and it is a dependency of the GPU build. \
                     If only host code uses it, move `{direct}` in Cargo.toml from \
                     [dependencies] to {HOST_ONLY_TABLE} (and put what uses it in src/lib.rs \
                     behind #[cfg(not(target_arch = \"nvptx64\"))])"
                )
            }
        }
    }
}

/// Every set-up problem of the crate at the root of `graph` (empty when it is fine).
pub fn check(graph: &Graph) -> Vec<SetUpProblem> {
    let root = &graph.root;
    let dir = root
        .manifest
        .parent()
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let mut problems = Vec::new();
    for bin in &root.bins {
        if std::fs::read_to_string(bin).is_ok_and(|s| has_program_attr(&s)) {
            problems.push(SetUpProblem::ProgramInBinary { file: bin.clone() });
        }
    }
    let Some(lib) = &root.lib else {
        problems.insert(0, SetUpProblem::NoLibrary { dir });
        return problems;
    };
    if let Some(attrs) = CrateAttrs::read(lib) {
        if !attrs.no_std {
            problems.push(SetUpProblem::NotNoStd { lib: lib.clone() });
        }
        let lines = missing_feature_lines(&attrs);
        if !lines.is_empty() {
            problems.push(SetUpProblem::MissingFeatures {
                lib: lib.clone(),
                lines,
            });
        }
    }
    problems.extend(std_dependencies(graph));
    problems
}

/// The attribute lines that would enable what `attrs` lacks.
fn missing_feature_lines(attrs: &CrateAttrs) -> Vec<String> {
    let mut lines = Vec::new();
    let tasks = attrs.missing_features(TASK_FEATURES);
    if !tasks.is_empty() {
        lines.push(format!("#![feature({})]", tasks.join(", ")));
    }
    if !attrs.missing_features(&[KERNEL_FEATURE]).is_empty() {
        lines.push(format!(
            "#![cfg_attr(target_arch = \"nvptx64\", feature({KERNEL_FEATURE}))]"
        ));
    }
    lines
}

/// The crate's dependencies that bring a package needing `std` into the GPU build, one per
/// dependency of the crate (the nearest such package). A library whose root never mentions
/// `no_std` links `std`; one that does (perhaps only without some feature) is given the
/// benefit of the doubt, and the compiler's error, if any, is explained afterwards
/// (`diagnostics`).
fn std_dependencies(graph: &Graph) -> Vec<SetUpProblem> {
    let mut problems: Vec<SetUpProblem> = Vec::new();
    for chain in graph.device_packages() {
        let (Some(direct), Some(pkg)) = (chain.get(1), chain.last()) else {
            continue;
        };
        if problems.iter().any(
            |p| matches!(p, SetUpProblem::StdDependency { direct: d, .. } if *d == direct.name),
        ) {
            continue;
        }
        let Some(lib) = &pkg.lib else { continue };
        if CrateAttrs::read(lib).is_some_and(|a| !a.no_std) {
            problems.push(SetUpProblem::StdDependency {
                direct: direct.name.clone(),
                needs_std: pkg.name.clone(),
                chain: chain.iter().map(|p| p.name.clone()).collect(),
            });
        }
    }
    problems
}

/// Whether `source` has an attribute `#[gtap::program ..]` or `#[program ..]` anywhere.
fn has_program_attr(source: &str) -> bool {
    fn walk(tokens: TokenStream) -> bool {
        let mut prev_hash = false;
        for t in tokens {
            match t {
                TokenTree::Punct(p) => {
                    prev_hash = p.as_char() == '#';
                    continue;
                }
                TokenTree::Group(g) if prev_hash && g.delimiter() == Delimiter::Bracket => {
                    let path: String = g
                        .stream()
                        .into_iter()
                        .take_while(|t| !matches!(t, TokenTree::Group(_)))
                        .map(|t| t.to_string())
                        .collect();
                    if path == "gtap::program" || path == "program" {
                        return true;
                    }
                }
                TokenTree::Group(g) if walk(g.stream()) => return true,
                _ => {}
            }
            prev_hash = false;
        }
        false
    }
    TokenStream::from_str(source).is_ok_and(walk)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_program_attributes_but_not_mentions() {
        assert!(has_program_attr("#[gtap::program]\nmod m {}"));
        assert!(has_program_attr(
            "fn main() {}\nmod x { #[gtap::program(max_children = 4)] mod m {} }"
        ));
        assert!(!has_program_attr(
            "// #[gtap::program]\nfn main() { let s = \"#[gtap::program]\"; }"
        ));
        assert!(!has_program_attr("#[gtap::task]\nfn f() {}"));
    }

    #[test]
    fn missing_features_become_the_lines_to_add() {
        let attrs = CrateAttrs::parse("#![no_std]\n#![feature(coroutines)]\n").unwrap();
        assert_eq!(
            missing_feature_lines(&attrs),
            [
                "#![feature(coroutine_trait, type_alias_impl_trait)]",
                "#![cfg_attr(target_arch = \"nvptx64\", feature(abi_ptx))]"
            ]
        );
    }

    #[test]
    fn each_problem_says_what_to_change() {
        let p = SetUpProblem::StdDependency {
            direct: "rayon".into(),
            needs_std: "crossbeam-utils".into(),
            chain: vec![
                "app".into(),
                "rayon".into(),
                "rayon-core".into(),
                "crossbeam-utils".into(),
            ],
        };
        let msg = p.to_string();
        assert!(
            msg.contains("`rayon` needs `std` through `crossbeam-utils`"),
            "{msg}"
        );
        assert!(
            msg.contains("app -> rayon -> rayon-core -> crossbeam-utils"),
            "{msg}"
        );
        assert!(msg.contains(HOST_ONLY_TABLE), "{msg}");
        let msg = SetUpProblem::NotNoStd {
            lib: "src/lib.rs".into(),
        }
        .to_string();
        assert!(msg.contains("Add `#![no_std]`"), "{msg}");
        let msg = SetUpProblem::NoLibrary {
            dir: "/x/app".into(),
        }
        .to_string();
        assert!(
            msg.contains("/x/app/src/lib.rs") && msg.contains("main.rs"),
            "{msg}"
        );
    }
}
