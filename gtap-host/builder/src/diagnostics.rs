//! The device compiler's messages, as the user should see them: the device crate's own
//! errors first, in rustc's rendering, then errors in dependencies with what to change;
//! without the build's noise (progress lines, warnings that the host build shows anyway,
//! rustc's note that `+ptx70` is an unstable target feature, `aborting due to ..`).
//!
//! The device build runs with `--message-format=json`: each compiler message is a JSON line
//! on stdout naming its package, with rustc's rendered text.

use serde_json::Value;

use crate::metadata::Graph;
use crate::setup::{HOST_ONLY_TABLE, SetUpProblem};

/// The most errors of dependencies shown: past the first few they are consequences.
const MAX_DEPENDENCY_ERRORS: usize = 3;

/// One error from the device compiler.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompilerError {
    /// The package it is in (cargo's package id).
    pub package_id: String,
    /// The message's first line, e.g. ``can't find crate for `std` ``.
    pub message: String,
    /// rustc's rendering: the message, the code it points at, notes and help.
    pub rendered: String,
}

/// The errors among the JSON lines that `cargo --message-format=json` printed.
pub fn errors(stdout: &str) -> Vec<CompilerError> {
    stdout
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|v| v["reason"] == "compiler-message")
        .filter_map(|v| {
            let msg = &v["message"];
            let level = msg["level"].as_str()?;
            let message = msg["message"].as_str()?.to_owned();
            let is_error = level == "error" || level.starts_with("error:");
            if !is_error || message.starts_with("aborting due to") {
                return None;
            }
            Some(CompilerError {
                package_id: v["package_id"].as_str().unwrap_or_default().to_owned(),
                message,
                rendered: msg["rendered"]
                    .as_str()
                    .unwrap_or_default()
                    .trim_end()
                    .to_owned(),
            })
        })
        .collect()
}

/// What cargo itself printed on stderr that is worth reading (its own errors, e.g. in a
/// manifest), without progress lines and the summaries of compiler messages shown already.
pub fn cargo_errors(stderr: &str) -> String {
    const NOISE: &[&str] = &[
        "Compiling ",
        "Fresh ",
        "Finished ",
        "Running ",
        "Blocking ",
        "Updating ",
        "Locking ",
        "Adding ",
        "Downloading ",
        "Downloaded ",
        "warning: `",
        "warning: build failed",
        "error: could not compile `",
    ];
    stderr
        .lines()
        .filter(|l| !NOISE.iter().any(|n| l.trim_start().starts_with(n)))
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_owned()
}

/// The report of a failed device build of the crate at the root of `graph`: its own
/// errors, then at most a few errors of dependencies, then what to change.
pub fn report(errors: &[CompilerError], cargo_stderr: &str, graph: &Graph) -> String {
    let root = &graph.root;
    let (own, deps): (Vec<_>, Vec<_>) = errors.iter().partition(|e| e.package_id == root.id);
    let mut parts: Vec<String> = own.iter().map(|e| e.rendered.clone()).collect();
    let mut hints: Vec<String> = Vec::new();
    for e in deps.iter().take(MAX_DEPENDENCY_ERRORS) {
        let name = graph
            .package(&e.package_id)
            .map_or(e.package_id.as_str(), |p| p.name.as_str());
        parts.push(format!("in dependency `{name}`:\n{}", e.rendered));
    }
    if deps.len() > MAX_DEPENDENCY_ERRORS {
        parts.push(format!(
            "... and {} more errors in dependencies",
            deps.len() - MAX_DEPENDENCY_ERRORS
        ));
    }
    for e in &deps {
        if let Some(hint) = dependency_hint(e, graph)
            && !hints.contains(&hint)
        {
            hints.push(hint);
        }
    }
    for e in &own {
        for hint in own_hints(e) {
            if !hints.contains(&hint) {
                hints.push(hint);
            }
        }
    }
    if errors.is_empty() {
        let cargo = cargo_errors(cargo_stderr);
        if !cargo.is_empty() {
            parts.push(cargo);
        }
    }
    let mut out = parts.join("\n\n");
    for hint in hints {
        out.push_str("\n\nhelp: ");
        out.push_str(&hint);
    }
    out
}

/// Whether an error says that a crate which the GPU build lacks was needed.
fn missing_std(message: &str) -> bool {
    message.starts_with("can't find crate for `std`")
        || message.starts_with("can't find crate for `alloc`")
}

/// What to change for an error in a dependency: one that needs `std` (or `alloc`) is moved
/// out of the GPU build.
fn dependency_hint(e: &CompilerError, graph: &Graph) -> Option<String> {
    if !missing_std(&e.message) {
        return None;
    }
    let chain = graph.chain_to(&e.package_id)?;
    let direct = chain.get(1)?;
    let problem = SetUpProblem::StdDependency {
        direct: direct.name.clone(),
        needs_std: chain.last()?.name.clone(),
        chain: chain.iter().map(|p| p.name.clone()).collect(),
    };
    Some(problem.to_string())
}

/// What to change for an error in the device crate itself.
fn own_hints(e: &CompilerError) -> Vec<String> {
    let mut hints = Vec::new();
    if missing_std(&e.message) {
        hints.push(format!(
            "the GPU build has only `core`: code that needs `std` (or `alloc`) goes behind \
             #[cfg(not(target_arch = \"nvptx64\"))], with \
             `#[cfg(not(target_arch = \"nvptx64\"))] extern crate std;` at the top of src/lib.rs, \
             and dependencies that need it under {HOST_ONLY_TABLE}"
        ));
    }
    if e.rendered.contains("Call<") {
        hints.push(
            "a task called like a function, `f(x)`, makes a `Call` (a task not yet run), not \
             its result: inside a task write `let h = spawn!(f(x));` and read `h.get()` after \
             `taskwait!();`, or call its sequential version `seq::f(x)` for a plain call"
                .to_owned(),
        );
    }
    hints
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn graph() -> Graph {
        let json = serde_json::json!({
            "packages": [
                {"id": "app-id", "name": "app", "manifest_path": "/x/app/Cargo.toml", "targets": [
                    {"kind": ["lib"], "name": "app", "src_path": "/x/app/src/lib.rs"}]},
                {"id": "rayon-id", "name": "rayon", "manifest_path": "/r/rayon/Cargo.toml", "targets": [
                    {"kind": ["lib"], "name": "rayon", "src_path": "/r/rayon/src/lib.rs"}]},
                {"id": "cu-id", "name": "crossbeam-utils", "manifest_path": "/r/cu/Cargo.toml", "targets": [
                    {"kind": ["lib"], "name": "crossbeam_utils", "src_path": "/r/cu/src/lib.rs"}]}
            ],
            "resolve": {"nodes": [
                {"id": "app-id", "deps": [{"pkg": "rayon-id", "dep_kinds": [{"kind": null}]}]},
                {"id": "rayon-id", "deps": [{"pkg": "cu-id", "dep_kinds": [{"kind": null}]}]},
                {"id": "cu-id", "deps": []}
            ]}
        });
        Graph::from_json(&json, Path::new("/x/app/Cargo.toml")).unwrap()
    }

    fn line(package: &str, level: &str, message: &str, rendered: &str) -> String {
        serde_json::json!({
            "reason": "compiler-message",
            "package_id": package,
            "message": {"level": level, "message": message, "rendered": rendered}
        })
        .to_string()
    }

    #[test]
    fn own_errors_come_first_and_noise_is_dropped() {
        let stdout = [
            line(
                "cu-id",
                "warning",
                "unstable feature specified for `-Ctarget-feature`: `ptx70`",
                "warning: unstable feature specified for `-Ctarget-feature`: `ptx70`\n",
            ),
            line(
                "cu-id",
                "error",
                "can't find crate for `std`",
                "error[E0463]: can't find crate for `std`\n",
            ),
            r#"{"reason":"compiler-artifact","package_id":"x"}"#.to_owned(),
            "not json".to_owned(),
            line(
                "app-id",
                "error",
                "mismatched types",
                "error[E0308]: mismatched types\n --> src/lib.rs:9:9\n",
            ),
            line(
                "app-id",
                "error",
                "aborting due to 1 previous error",
                "error: aborting due to 1 previous error\n",
            ),
        ]
        .join("\n");
        let errs = errors(&stdout);
        assert_eq!(errs.len(), 2, "{errs:?}");
        let text = report(&errs, "", &graph());
        let own = text.find("E0308").unwrap();
        let dep = text.find("in dependency `crossbeam-utils`").unwrap();
        assert!(own < dep, "{text}");
        assert!(
            !text.contains("ptx70") && !text.contains("aborting"),
            "{text}"
        );
        assert!(
            text.contains("move `rayon` in Cargo.toml from [dependencies] to"),
            "{text}"
        );
        assert!(text.contains("app -> rayon -> crossbeam-utils"), "{text}");
    }

    #[test]
    fn a_plain_task_call_in_an_error_gets_the_spawn_hint() {
        let e = CompilerError {
            package_id: "app-id".into(),
            message: "cannot add `Call<fib::Program, u64>` to `Call<fib::Program, u64>`".into(),
            rendered:
                "error[E0369]: cannot add `Call<fib::Program, u64>` to `Call<fib::Program, u64>`"
                    .into(),
        };
        let text = report(&[e], "", &graph());
        assert!(
            text.contains("help: a task called like a function"),
            "{text}"
        );
        assert!(
            text.contains("spawn!(f(x))") && text.contains("seq::f(x)"),
            "{text}"
        );
    }

    #[test]
    fn without_compiler_errors_cargo_own_errors_are_shown() {
        let stderr = "   Compiling core v0.0.0\nerror: failed to parse manifest at `/x/app/Cargo.toml`\n\nCaused by:\n  bad key\n";
        let text = report(&[], stderr, &graph());
        assert!(
            text.starts_with("error: failed to parse manifest"),
            "{text}"
        );
        assert!(!text.contains("Compiling"), "{text}");
    }
}
