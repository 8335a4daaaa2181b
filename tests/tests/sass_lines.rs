//! `scripts/sass-lines.py`, which charges ncu's samples of a kernel to source lines, run on a
//! small made-up kernel: its `--chains` step on a PTX with `.loc` comments, then the charge
//! of a SASS page to the lines. What it must get right: a line with one chain is charged to
//! its innermost project frame past the PTX wrappers; an atomic inlined from two places goes
//! to the place whose atomic has its operation and scope; a barrier with nothing to tell its
//! call sites apart is reported as `one of: ...`, not given to either. A wrong charge here
//! would send whoever profiles after a cost that is not there.
#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is in the workspace")
        .join("scripts/sass-lines.py")
}

/// The kernel's PTX: one load in the program's task, the join's AcqRel add and a warp's
/// relaxed shared add (both from `atom.rs:104`), and a barrier from two call sites.
const PTX: &str = r#".version 7.0
.target sm_70
.visible .entry gtap_k(
	.param .u64 gtap_k_param_0
)
{
	.loc	3 5 1                           // examples/src/k.rs:5:1
	ld.global.u32 	%r1, [%rd1];
	.loc	1 104 5                         // gtap-device/src/arch/raw/atom.rs:104:5 @[ gtap-device/src/runtime/join.rs:169:9 @[ examples/src/k.rs:5:1 ] ]
	atom.acq_rel.gpu.add.s32 %r2, [%rd2], %r3;
	.loc	1 104 5                         // gtap-device/src/arch/raw/atom.rs:104:5 @[ gtap-device/src/runtime/gpu/spawn.rs:96:9 @[ examples/src/k.rs:5:1 ] ]
	atom.relaxed.cta.add.u32 %r4, [%rd3], %r5;
	.loc	1 104 5                         // gtap-device/src/arch/raw/atom.rs:104:5 @[ gtap-device/src/runtime/gpu/spawn.rs:96:9 @[ examples/src/k.rs:5:1 ] ]
	atom.relaxed.cta.add.u32 %r6, [%rd4], %r7;
	.loc	2 166 9                         // gtap-device/src/arch/raw/warp.rs:166:9 @[ gtap-device/src/runtime/gpu/lanes.rs:88:9 @[ examples/src/k.rs:5:1 ] ]
	bar.warp.sync 	-1;
	.loc	2 166 9                         // gtap-device/src/arch/raw/warp.rs:166:9 @[ gtap-device/src/runtime/gpu/worker.rs:311:9 @[ examples/src/k.rs:5:1 ] ]
	bar.warp.sync 	-1;
	ret;
}
	.file	1 "/r/gtap-device/src/arch/raw/atom.rs"
	.file	2 "/r/gtap-device/src/arch/raw/warp.rs"
	.file	3 "/r/examples/src/k.rs"
"#;

/// `nvdisasm -g`'s listing of it (the barrier's slow path far from its call sites, as ptxas
/// puts it).
const SASS: &str = r#"	.text.gtap_k:
gtap_k:
.text.gtap_k:
	//## File "/r/examples/src/k.rs", line 5
        /*0000*/                   LDG.E R1, desc[UR4][R2.64] ;
	//## File "/r/gtap-device/src/arch/raw/atom.rs", line 104
        /*0010*/                   ATOM.E.ADD.S32.STRONG.GPU PT, R2, desc[UR4][R4.64], R3 ;
        /*0020*/                   ATOMS.ADD R6, [R7], R5 ;
	//## File "/r/gtap-device/src/arch/raw/warp.rs", line 166
        /*0030*/                   WARPSYNC.COLLECTIVE R8, 0x40 ;
        /*0040*/                   RET.REL.NODEC R20 0x0 ;
"#;

/// ncu's SASS page of the same kernel: samples 1, 20, 300 and 4000 on the four
/// instructions, as the JIT scheduled them (the same order here), and one more it has.
const NCU: &str = r#""Kernel Name","gtap_k",
"Address","Source","Warp Stall Sampling (All Samples)","Instructions Executed","stall_long_sb"
"0x7f0000000000","      LDG.E R1, desc[UR4][R2.64]","1","10","1"
"0x7f0000000010","      ATOM.E.ADD.S32.STRONG.GPU PT, R2, desc[UR4][R4.64], R3","20","10","20"
"0x7f0000000020","      ATOMS.ADD R6, [R7], R5","300","10","300"
"0x7f0000000030","      WARPSYNC.COLLECTIVE R8, 0x7f0000000040","4000","10","4000"
"0x7f0000000040","      RET.REL.NODEC R20 0x0","0","10","0"
"#;

fn python(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("python3")
        .arg(script())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("python3 runs (the profiling scripts need it)");
    assert!(
        out.status.success(),
        "sass-lines.py {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The samples the report's line for `what` gives.
fn samples_of(report: &str, what: &str) -> u64 {
    let line = report
        .lines()
        .filter(|l| l.contains(what))
        .find(|l| !l.contains("one of:") || what.starts_with("one of:"))
        .unwrap_or_else(|| panic!("no line for {what} in:\n{report}"));
    line.split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn samples_go_to_the_lines_they_came_from() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("k.ptx"), PTX).unwrap();
    fs::write(d.join("gtap_k.sass"), SASS).unwrap();
    fs::write(d.join("k-sass.csv"), NCU).unwrap();
    let chains = python(d, &["--chains", "k.ptx", "gtap_k.sass"]);
    fs::write(d.join("gtap_k.chains.json"), chains).unwrap();

    let report = python(d, &["k-sass.csv", "gtap_k.sass"]);
    assert!(report.contains("5 instructions in ncu's page"), "{report}");
    assert_eq!(samples_of(&report, "examples/src/k.rs:5"), 1, "{report}");
    // The `.gpu` add is the join's, the shared one the spawn's, though both lines read
    // `atom.rs:104` and the spawn's chain is the more frequent.
    assert_eq!(samples_of(&report, "runtime/join.rs:169"), 20, "{report}");
    assert_eq!(
        samples_of(&report, "runtime/gpu/spawn.rs:96"),
        300,
        "{report}"
    );
    // Nothing tells the barrier's two call sites apart.
    let barrier = samples_of(&report, "one of:");
    assert_eq!(barrier, 4000, "{report}");
    assert!(
        report.contains("gpu/lanes.rs:88") && report.contains("gpu/worker.rs:311"),
        "{report}"
    );
}
