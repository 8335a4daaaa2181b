//! Checks, without a GPU, that every test kernel's PTX holds exactly the instructions its
//! name promises, with exactly the right qualifiers.
//!
//! The PTX is the one `build.rs` made from `tests/src` (the same text the GPU tests load).
//! For each `.entry`, the *synchronising* instructions (see [`is_sync`]: atomics, fences,
//! barriers, warp collectives, strong or cache-qualified loads and stores, sleeps, traps)
//! must be exactly the set the table below expects: a wrong scope, a wrong ordering, a
//! missing `.cg`, a stray `fence` or `membar` that LLVM added, or a wrong register class
//! all fail. Each kernel also must not call anything (so what it tests is inlined into it),
//! and every kernel in the PTX whose name has one of the test kernels' prefixes must have a
//! row (so a new kernel cannot go unchecked).

use std::collections::{BTreeMap, BTreeSet};

use gtap_tests::intrinsics::values::Op;

const PTX: &str = gtap::include_ptx!();

/// The name prefixes of the kernels in `tests/src`: every `.entry` with one of them needs a
/// row. (Kernels that linked-in crates export, if any, are not this file's business.)
const KERNEL_PREFIXES: &[&str] = &[
    "vec_add", "atom_", "smem_", "static_", "ld_", "st_", "mp_", "warp_", "bar_", "index_",
    "time_", "trap_",
];

const SCOPES: [&str; 3] = ["cta", "gpu", "sys"];
const RMW_ORDERINGS: [&str; 4] = ["relaxed", "acquire", "release", "acq_rel"];
const TYPES: [&str; 4] = ["u32", "i32", "u64", "i64"];

/// One `.entry` of the PTX: its name and its instructions (mnemonic, whole text).
struct Entry {
    instructions: Vec<(String, String)>,
}

/// Splits the PTX into its `.entry` functions, by name.
fn entries() -> BTreeMap<String, Entry> {
    let mut out = BTreeMap::new();
    let mut current: Option<(String, Vec<(String, String)>)> = None;
    for line in PTX.lines() {
        if let Some(rest) = line.strip_prefix(".visible .entry ") {
            let name = rest.split('(').next().unwrap().trim().to_string();
            current = Some((name, Vec::new()));
        } else if line == "}" {
            if let Some((name, instructions)) = current.take() {
                out.insert(name, Entry { instructions });
            }
        } else if let Some((_, instructions)) = current.as_mut() {
            instructions.extend(parse_instructions(line));
        }
    }
    out
}

/// The instructions on one line of a function body: none for comments, labels and
/// directives, several for an inline-assembly `{ ...; ...; }` block.
fn parse_instructions(line: &str) -> Vec<(String, String)> {
    let code = line.split("//").next().unwrap();
    code.split(';')
        .map(|s| {
            s.trim()
                .trim_start_matches('{')
                .trim_end_matches('}')
                .trim()
        })
        .filter(|s| !s.is_empty() && !s.starts_with('.') && !s.ends_with(':') && *s != "{")
        .map(|s| {
            let s = match s.strip_prefix('@') {
                Some(p) => p
                    .split_once(char::is_whitespace)
                    .map_or("", |(_, r)| r.trim()),
                None => s,
            };
            let mnemonic = s.split_whitespace().next().unwrap_or("").to_string();
            (mnemonic, s.to_string())
        })
        .filter(|(m, _)| !m.is_empty())
        .collect()
}

/// Whether an instruction is one the tables account for: it synchronises, touches memory
/// with a semantic, scope or cache operator, or is a warp or block collective.
fn is_sync(mnemonic: &str) -> bool {
    let parts: Vec<&str> = mnemonic.split('.').collect();
    match parts[0] {
        "atom" | "red" | "fence" | "membar" | "bar" | "barrier" | "shfl" | "vote" | "match"
        | "redux" | "activemask" | "nanosleep" | "trap" => true,
        "ld" | "st" => parts[1..].iter().any(|q| {
            matches!(
                *q,
                "relaxed"
                    | "acquire"
                    | "release"
                    | "volatile"
                    | "mmio"
                    | "weak"
                    | "cta"
                    | "gpu"
                    | "sys"
                    | "cluster"
                    | "ca"
                    | "cg"
                    | "cs"
                    | "lu"
                    | "cv"
                    | "wb"
                    | "wt"
                    | "nc"
            )
        }),
        _ => false,
    }
}

/// What one kernel must contain.
struct Expect {
    kernel: String,
    /// Exactly these synchronising mnemonics, each at least once.
    sync: BTreeSet<String>,
    /// Whole instructions that must appear verbatim (whitespace-normalised), e.g.
    /// `bar.sync 0`.
    instructions: Vec<String>,
    /// Operand text that must appear (special registers, symbols).
    operands: Vec<String>,
}

impl Expect {
    fn new(kernel: impl Into<String>, sync: &[&str]) -> Expect {
        Expect {
            kernel: kernel.into(),
            sync: sync.iter().map(|s| s.to_string()).collect(),
            instructions: Vec::new(),
            operands: Vec::new(),
        }
    }

    fn instruction(mut self, text: &str) -> Expect {
        self.instructions.push(text.to_string());
        self
    }

    fn operands(mut self, regs: &[&str]) -> Expect {
        self.operands.extend(regs.iter().map(|s| s.to_string()));
        self
    }
}

/// The PTX type an atomic of Rust type `t` uses for `op`.
fn atom_type(op: Op, t: &str) -> &'static str {
    let wide = t.ends_with("64");
    let signed = t.starts_with('i');
    match (op, wide, signed) {
        // PTX has no `add.s64`: two's complement makes `add.u64` the same operation.
        (Op::Add, false, false) => "u32",
        (Op::Add, false, true) => "s32",
        (Op::Add, true, _) => "u64",
        (Op::Min | Op::Max, false, false) => "u32",
        (Op::Min | Op::Max, false, true) => "s32",
        (Op::Min | Op::Max, true, false) => "u64",
        (Op::Min | Op::Max, true, true) => "s64",
        (_, false, _) => "b32",
        (_, true, _) => "b64",
    }
}

fn width(t: &str) -> &'static str {
    if t.ends_with("64") { "u64" } else { "u32" }
}

/// Every kernel of `tests/src` and what it must contain.
fn table() -> Vec<Expect> {
    let mut rows = vec![Expect::new("vec_add", &[])];

    // Atomics: every operation x type x scope x ordering.
    for op in Op::ALL {
        for t in TYPES {
            let ty = atom_type(op, t);
            for scope in SCOPES {
                for ord in RMW_ORDERINGS {
                    rows.push(Expect::new(
                        format!("atom_{}_{t}_{scope}_{ord}", op.name()),
                        &[&format!("atom.{ord}.{scope}.{}.{ty}", op.name())],
                    ));
                }
            }
            rows.push(
                Expect::new(
                    format!("smem_atom_{}_{t}", op.name()),
                    &[&format!("atom.acq_rel.cta.{}.{ty}", op.name()), "bar.sync"],
                )
                .instruction("bar.sync 0")
                .operands(&["gpu_launch_sized_workgroup_mem"]),
            );
        }
    }

    rows.push(Expect::new(
        "static_atomic_counter",
        &["atom.relaxed.gpu.add.u32"],
    ));

    // Loads and stores.
    for t in TYPES {
        let w = width(t);
        rows.push(Expect::new(
            format!("ld_cg_{t}"),
            &[&format!("ld.global.cg.{w}")],
        ));
        rows.push(Expect::new(
            format!("st_cg_{t}"),
            &[&format!("st.global.cg.{w}")],
        ));
        for scope in SCOPES {
            for ord in ["relaxed", "acquire"] {
                rows.push(Expect::new(
                    format!("ld_{ord}_{scope}_{t}"),
                    &[&format!("ld.{ord}.{scope}.{w}")],
                ));
            }
            for ord in ["relaxed", "release"] {
                rows.push(Expect::new(
                    format!("st_{ord}_{scope}_{t}"),
                    &[&format!("st.{ord}.{scope}.{w}")],
                ));
            }
        }
    }

    // Fences and release/acquire, in message passing.
    for scope in SCOPES {
        for sem in ["acq_rel", "sc"] {
            rows.push(Expect::new(
                format!("mp_fence_{sem}_{scope}"),
                &[
                    &format!("fence.{sem}.{scope}"),
                    &format!("st.relaxed.{scope}.u32"),
                    &format!("ld.relaxed.{scope}.u32"),
                    "nanosleep.u32",
                ],
            ));
        }
        rows.push(Expect::new(
            format!("mp_release_acquire_{scope}"),
            &[
                &format!("st.release.{scope}.u32"),
                &format!("ld.acquire.{scope}.u32"),
                "nanosleep.u32",
            ],
        ));
    }

    // Warp collectives.
    for (mode, ptx) in [
        ("idx", "idx"),
        ("up", "up"),
        ("down", "down"),
        ("xor", "bfly"),
    ] {
        let shfl = format!("shfl.sync.{ptx}.b32");
        rows.push(Expect::new(format!("warp_shfl_{mode}_u32"), &[&shfl]));
        rows.push(Expect::new(
            format!("warp_shfl_{mode}_width8_u32"),
            &[&shfl],
        ));
        rows.push(Expect::new(format!("warp_shfl_{mode}_u64"), &[&shfl]));
    }
    rows.push(Expect::new("warp_ballot_parity", &["vote.sync.ballot.b32"]));
    rows.push(Expect::new(
        "warp_ballot_even_mask",
        &["vote.sync.ballot.b32"],
    ));
    rows.push(Expect::new(
        "warp_vote",
        &[
            "vote.sync.any.pred",
            "vote.sync.all.pred",
            "vote.sync.uni.pred",
        ],
    ));
    rows.push(Expect::new("warp_activemask", &["activemask.b32"]).operands(&["%laneid"]));
    rows.push(
        Expect::new("warp_syncwarp", &["bar.warp.sync"])
            .operands(&["gpu_launch_sized_workgroup_mem"]),
    );

    // Block barriers.
    rows.push(Expect::new("bar_syncthreads", &["bar.sync"]).instruction("bar.sync 0"));
    rows.push(
        Expect::new(
            "bar_syncthreads_reduce",
            &["bar.red.popc.u32", "bar.red.and.pred", "bar.red.or.pred"],
        )
        .operands(&[", 0, %p"]),
    );
    rows.push(
        Expect::new("bar_named_arrive", &["bar.arrive", "bar.sync"])
            .instruction("bar.arrive 4, 256")
            .instruction("bar.sync 4, 256"),
    );
    rows.push(Expect::new("bar_named_subsets", &["bar.sync"]));

    // Indices, time, shared memory, trap.
    rows.push(Expect::new("index_all", &[]).operands(&[
        "%tid.x",
        "%tid.y",
        "%tid.z",
        "%ntid.x",
        "%ntid.y",
        "%ntid.z",
        "%ctaid.x",
        "%ctaid.y",
        "%ctaid.z",
        "%nctaid.x",
        "%nctaid.y",
        "%nctaid.z",
        "%laneid",
        "%smid",
        "%nsmid",
    ]));
    rows.push(Expect::new("time_clock64", &["nanosleep.u32"]).operands(&["%clock64"]));
    rows.push(Expect::new("time_nanosleep", &["nanosleep.u32"]).operands(&["%globaltimer"]));
    for t in ["u32", "u64"] {
        rows.push(
            Expect::new(format!("smem_roundtrip_{t}"), &["bar.sync"])
                .instruction("bar.sync 0")
                .operands(&["%dynamic_smem_size", "gpu_launch_sized_workgroup_mem"]),
        );
    }
    rows.push(
        Expect::new("smem_fill", &["st.volatile.shared.b32"])
            .operands(&["%dynamic_smem_size", "gpu_launch_sized_workgroup_mem"]),
    );
    rows.push(Expect::new("trap_now", &["trap"]));
    rows
}

fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_ptx_targets_sm_70_and_declares_dynamic_shared_memory() {
    // sm_70 unless the build chose another target (gtap-builder's `GTAP_CUDA_ARCH`).
    let arch = option_env!("GTAP_CUDA_ARCH").unwrap_or("sm_70");
    assert!(
        PTX.contains(&format!(".target {arch}")),
        "unexpected .target (expected {arch})"
    );
    assert!(
        PTX.contains(".extern .shared .align 8 .b8 gpu_launch_sized_workgroup_mem[];"),
        "dynamic shared memory is not declared as one 8-aligned .extern .shared array"
    );
}

#[test]
fn every_kernel_has_exactly_its_instructions() {
    let entries = entries();
    let table = table();
    let mut failures = Vec::new();

    let named: BTreeSet<&str> = table.iter().map(|e| e.kernel.as_str()).collect();
    assert_eq!(named.len(), table.len(), "the table names a kernel twice");
    for name in entries.keys() {
        let ours = KERNEL_PREFIXES.iter().any(|p| name.starts_with(p));
        if ours && !named.contains(name.as_str()) {
            failures.push(format!(
                "{name}: in the PTX but not in the table; add a row"
            ));
        }
    }

    for expect in &table {
        let Some(entry) = entries.get(&expect.kernel) else {
            failures.push(format!("{}: no such .entry in the PTX", expect.kernel));
            continue;
        };
        let found: BTreeSet<String> = entry
            .instructions
            .iter()
            .filter(|(m, _)| is_sync(m))
            .map(|(m, _)| m.clone())
            .collect();
        if found != expect.sync {
            let missing: Vec<_> = expect.sync.difference(&found).collect();
            let extra: Vec<_> = found.difference(&expect.sync).collect();
            failures.push(format!(
                "{}: synchronising instructions differ; missing {missing:?}, unexpected {extra:?}",
                expect.kernel
            ));
        }
        if let Some((_, call)) = entry
            .instructions
            .iter()
            .find(|(m, _)| m.starts_with("call"))
        {
            failures.push(format!(
                "{}: calls a function (`{call}`): not inlined",
                expect.kernel
            ));
        }
        for want in &expect.instructions {
            let want = normalise(want);
            if !entry
                .instructions
                .iter()
                .any(|(_, text)| normalise(text) == want)
            {
                failures.push(format!("{}: no instruction `{want}`", expect.kernel));
            }
        }
        for operand in &expect.operands {
            if !entry
                .instructions
                .iter()
                .any(|(_, text)| text.contains(operand.as_str()))
            {
                failures.push(format!("{}: no operand `{operand}`", expect.kernel));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} problems in the test kernels' PTX:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn atomics_use_generic_addresses_and_matching_register_classes() {
    // `atom.<sem>.<scope>.<op>.<type> %r.., [%rd..], %r..`: no state space (generic, so
    // global and shared both work), a 64-bit address, and 32- or 64-bit value registers as
    // the type says.
    let entries = entries();
    let mut failures = Vec::new();
    for (name, entry) in &entries {
        for (m, text) in entry
            .instructions
            .iter()
            .filter(|(m, _)| m.starts_with("atom"))
        {
            let parts: Vec<&str> = m.split('.').collect();
            if parts.iter().any(|p| matches!(*p, "global" | "shared")) {
                failures.push(format!("{name}: `{text}` names a state space"));
            }
            let wide = parts.last().unwrap().ends_with("64");
            let operands: Vec<&str> = text[m.len()..].split(',').map(str::trim).collect();
            let value_ok = |o: &str| {
                if wide {
                    o.starts_with("%rd")
                } else {
                    o.starts_with("%r") && !o.starts_with("%rd")
                }
            };
            let addr_ok = operands.get(1).is_some_and(|a| a.starts_with("[%rd"));
            let values_ok = operands
                .iter()
                .enumerate()
                .all(|(i, o)| i == 1 || value_ok(o));
            if !addr_ok || !values_ok {
                failures.push(format!("{name}: `{text}` has the wrong register classes"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_parser_splits_inline_assembly_blocks() {
    let got = parse_instructions(
        "\t{ .reg .b64 %ga; cvta.to.global.u64 %ga, %rd7; ld.global.cg.u64 %rd6, [%ga]; }",
    );
    let mnemonics: Vec<&str> = got.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(mnemonics, ["cvta.to.global.u64", "ld.global.cg.u64"]);
    let got = parse_instructions("\t@%p1 bra \t$L__BB0_2; // comment");
    assert_eq!(got[0].0, "bra");
    assert!(parse_instructions("$L__BB0_2:").is_empty());
    assert!(is_sync("ld.acquire.gpu.u32") && !is_sync("ld.global.b32") && !is_sync("ld.param.b64"));
}
