//! The device crate's package graph as the GPU build sees it: `cargo metadata` with the
//! dependencies that apply to `nvptx64-nvidia-cuda` only, so that a host-only dependency
//! under `[target.'cfg(not(target_arch = "nvptx64"))'.dependencies]` is not in it.
//!
//! Read with `serde_json::Value` rather than typed structs: a handful of fields is needed,
//! and they have been stable in cargo's `--format-version 1` output for years.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::{BuildError, TARGET};

/// One package of the graph.
#[derive(Debug, Clone)]
pub struct Package {
    /// cargo's package id (what compiler messages name in `package_id`).
    pub id: String,
    /// The package's name.
    pub name: String,
    /// Its `Cargo.toml`.
    pub manifest: PathBuf,
    /// The root file of its library (`src/lib.rs`), if it has one.
    pub lib: Option<PathBuf>,
    /// The library's crate name (`my_crate`), if it has one.
    pub lib_name: Option<String>,
    /// The root files of its binaries (`src/main.rs`, `src/bin/*.rs`).
    pub bins: Vec<PathBuf>,
    /// Whether its library is a proc-macro (compiled for the host, never for the GPU).
    pub proc_macro: bool,
}

/// The device crate and what its GPU build compiles.
#[derive(Debug)]
pub struct Graph {
    /// The device crate.
    pub root: Package,
    packages: HashMap<String, Package>,
    /// Each package's normal (not build, not dev) dependencies on the GPU target, by id.
    deps: HashMap<String, Vec<String>>,
}

impl Graph {
    /// Runs `cargo metadata` on the crate of `manifest`.
    pub fn load(cargo: &Path, manifest: &Path) -> Result<Graph, BuildError> {
        let mut cmd = Command::new(cargo);
        cmd.args([
            "metadata",
            "--format-version",
            "1",
            "--filter-platform",
            TARGET,
        ])
        .arg("--manifest-path")
        .arg(manifest);
        crate::clean_env(&mut cmd);
        let out = cmd.output().map_err(|source| BuildError::Spawn {
            program: format!("{} metadata", cargo.display()),
            source,
        })?;
        if !out.status.success() {
            return Err(BuildError::BadCrate {
                path: manifest.to_path_buf(),
                why: format!(
                    "`cargo metadata` failed:\n{}",
                    String::from_utf8_lossy(&out.stderr).trim()
                ),
            });
        }
        let json: Value =
            serde_json::from_slice(&out.stdout).map_err(|e| BuildError::BadCrate {
                path: manifest.to_path_buf(),
                why: format!("`cargo metadata` printed output that is not JSON: {e}"),
            })?;
        Graph::from_json(&json, manifest)
    }

    /// The graph in `cargo metadata`'s output, rooted at the package of `manifest`.
    pub fn from_json(json: &Value, manifest: &Path) -> Result<Graph, BuildError> {
        let bad = |why: &str| BuildError::BadCrate {
            path: manifest.to_path_buf(),
            why: format!("unexpected `cargo metadata` output: {why}"),
        };
        let mut packages = HashMap::new();
        for p in json["packages"]
            .as_array()
            .ok_or_else(|| bad("no packages"))?
        {
            let pkg = package(p).ok_or_else(|| bad("a package without id or name"))?;
            packages.insert(pkg.id.clone(), pkg);
        }
        let mut deps = HashMap::new();
        for node in json["resolve"]["nodes"]
            .as_array()
            .ok_or_else(|| bad("no resolve"))?
        {
            let Some(id) = node["id"].as_str() else {
                continue;
            };
            let normal = node["deps"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|d| {
                    d["dep_kinds"]
                        .as_array()
                        .is_some_and(|kinds| kinds.iter().any(|k| k["kind"].is_null()))
                })
                .filter_map(|d| d["pkg"].as_str().map(str::to_owned))
                .collect();
            deps.insert(id.to_owned(), normal);
        }
        let want = std::fs::canonicalize(manifest).unwrap_or_else(|_| manifest.to_path_buf());
        let root = packages
            .values()
            .find(|p| {
                std::fs::canonicalize(&p.manifest).unwrap_or_else(|_| p.manifest.clone()) == want
            })
            .cloned()
            .ok_or_else(|| bad("the crate itself is not among the packages"))?;
        Ok(Graph {
            root,
            packages,
            deps,
        })
    }

    /// A package by id.
    pub fn package(&self, id: &str) -> Option<&Package> {
        self.packages.get(id)
    }

    /// Every package the GPU build compiles for the GPU, with the shortest chain of
    /// dependencies from the device crate to it (the device crate first, the package last),
    /// in breadth-first order. Proc-macros, and what only they use, run on the host and are
    /// left out.
    pub fn device_packages(&self) -> Vec<Vec<&Package>> {
        let mut chains: Vec<Vec<&Package>> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut queue = VecDeque::from([vec![&self.root]]);
        seen.insert(self.root.id.as_str());
        while let Some(chain) = queue.pop_front() {
            let last = chain.last().expect("chains are never empty");
            for dep in self.deps.get(&last.id).into_iter().flatten() {
                let Some(pkg) = self.packages.get(dep) else {
                    continue;
                };
                if pkg.proc_macro || !seen.insert(pkg.id.as_str()) {
                    continue;
                }
                let mut next = chain.clone();
                next.push(pkg);
                queue.push_back(next.clone());
                chains.push(next);
            }
        }
        chains
    }

    /// The shortest chain of dependencies from the device crate to the package with this id.
    pub fn chain_to(&self, id: &str) -> Option<Vec<&Package>> {
        self.device_packages()
            .into_iter()
            .find(|c| c.last().is_some_and(|p| p.id == id))
    }
}

fn package(p: &Value) -> Option<Package> {
    let mut pkg = Package {
        id: p["id"].as_str()?.to_owned(),
        name: p["name"].as_str()?.to_owned(),
        manifest: PathBuf::from(p["manifest_path"].as_str().unwrap_or_default()),
        lib: None,
        lib_name: None,
        bins: Vec::new(),
        proc_macro: false,
    };
    for t in p["targets"].as_array().into_iter().flatten() {
        let kinds: Vec<&str> = t["kind"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let src = PathBuf::from(t["src_path"].as_str().unwrap_or_default());
        let is_lib = kinds
            .iter()
            .any(|k| matches!(*k, "lib" | "rlib" | "dylib" | "cdylib" | "staticlib"));
        if kinds.contains(&"proc-macro") {
            pkg.proc_macro = true;
        } else if is_lib {
            pkg.lib = Some(src);
            pkg.lib_name = t["name"].as_str().map(|n| n.replace('-', "_"));
        } else if kinds.contains(&"bin") {
            pkg.bins.push(src);
        }
    }
    Some(pkg)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cargo metadata` output, cut down to what is read, for: `app` (lib and bin) depends on
    /// `core-only` and the proc-macro `mac`, which depends on `std-user`; `app` builds with
    /// `builder` and tests with `tester`.
    fn sample() -> Value {
        serde_json::json!({
            "packages": [
                {"id": "app-id", "name": "app", "manifest_path": "/x/app/Cargo.toml", "targets": [
                    {"kind": ["lib"], "name": "app", "src_path": "/x/app/src/lib.rs"},
                    {"kind": ["bin"], "name": "app", "src_path": "/x/app/src/main.rs"},
                    {"kind": ["custom-build"], "name": "build-script-build", "src_path": "/x/app/build.rs"}
                ]},
                {"id": "core-id", "name": "core-only", "manifest_path": "/r/core-only/Cargo.toml", "targets": [
                    {"kind": ["lib"], "name": "core_only", "src_path": "/r/core-only/src/lib.rs"}
                ]},
                {"id": "mac-id", "name": "mac", "manifest_path": "/r/mac/Cargo.toml", "targets": [
                    {"kind": ["proc-macro"], "name": "mac", "src_path": "/r/mac/src/lib.rs"}
                ]},
                {"id": "std-id", "name": "std-user", "manifest_path": "/r/std-user/Cargo.toml", "targets": [
                    {"kind": ["lib"], "name": "std_user", "src_path": "/r/std-user/src/lib.rs"}
                ]},
                {"id": "b-id", "name": "builder", "manifest_path": "/r/builder/Cargo.toml", "targets": [
                    {"kind": ["lib"], "name": "builder", "src_path": "/r/builder/src/lib.rs"}
                ]},
                {"id": "t-id", "name": "tester", "manifest_path": "/r/tester/Cargo.toml", "targets": [
                    {"kind": ["lib"], "name": "tester", "src_path": "/r/tester/src/lib.rs"}
                ]}
            ],
            "resolve": {"root": "app-id", "nodes": [
                {"id": "app-id", "deps": [
                    {"pkg": "core-id", "dep_kinds": [{"kind": null, "target": null}]},
                    {"pkg": "mac-id", "dep_kinds": [{"kind": null, "target": null}]},
                    {"pkg": "b-id", "dep_kinds": [{"kind": "build", "target": null}]},
                    {"pkg": "t-id", "dep_kinds": [{"kind": "dev", "target": null}]}
                ]},
                {"id": "core-id", "deps": []},
                {"id": "mac-id", "deps": [{"pkg": "std-id", "dep_kinds": [{"kind": null, "target": null}]}]},
                {"id": "std-id", "deps": []},
                {"id": "b-id", "deps": []},
                {"id": "t-id", "deps": []}
            ]}
        })
    }

    #[test]
    fn the_device_build_follows_normal_dependencies_but_not_proc_macros() {
        let g = Graph::from_json(&sample(), Path::new("/x/app/Cargo.toml")).unwrap();
        assert_eq!(g.root.name, "app");
        assert_eq!(g.root.lib.as_deref(), Some(Path::new("/x/app/src/lib.rs")));
        assert_eq!(g.root.bins, vec![PathBuf::from("/x/app/src/main.rs")]);
        let names: Vec<Vec<&str>> = g
            .device_packages()
            .iter()
            .map(|c| c.iter().map(|p| p.name.as_str()).collect())
            .collect();
        assert_eq!(names, vec![vec!["app", "core-only"]]);
        assert!(g.chain_to("std-id").is_none());
        assert_eq!(g.chain_to("core-id").unwrap().len(), 2);
    }

    #[test]
    fn a_manifest_outside_the_graph_is_an_error() {
        let e = Graph::from_json(&sample(), Path::new("/elsewhere/Cargo.toml")).unwrap_err();
        assert!(e.to_string().contains("not among the packages"), "{e}");
    }
}
