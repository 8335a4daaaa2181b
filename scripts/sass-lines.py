#!/usr/bin/env python3
"""Charges ncu's per-instruction samples of a gtap kernel to Rust source lines.

ncu's SASS page (scripts/ncu-source.sh) has no line information, and nearly every
instruction of a kernel is inlined from the runtime's functions. scripts/line-info.sh
compiles the same kernel from a build with line tables (the same PTX instructions) with
`ptxas -lineinfo` and disassembles it with line numbers (`KERNEL.sass`), and keeps each
source line's inlining chains from that PTX's `.loc` comments (`KERNEL.chains.json.xz`).
This matches ncu's listing with the disassembly instruction by instruction (by opcode, with
difflib: the driver's JIT and the offline ptxas may schedule a few instructions apart) and
charges each instruction to the innermost frame of the project (gtap-device, the
examples) in its chain: a load inlined from `core::ptr::read` counts for the runtime's line
that read. Where a line has several chains (a helper inlined in many places), the one
sharing the most outer frames with its neighbours is taken: a heuristic (`charge`), right
where code inlined from one call site sits together; check a surprising line with
`--show FRAME`, which lists the instructions charged to it.

    python3 scripts/sass-lines.py prof/fib16-sass.csv.xz lines/gtap_fib.sass [--top 40]
        [--group runtime/gpu/worker.rs:71]
    python3 scripts/sass-lines.py --chains PTX lines/gtap_fib.sass   (line-info.sh's step)

`--group FILE` adds a table by the outermost frame in FILE; `--group FILE:LINE`, by the
project frame just inside the frame FILE:LINE: with the line where the worker loop calls
its round (`runtime/gpu/worker.rs:71` today), a profile reads as take / run / publish.
"""

import argparse
import collections
import difflib
import functools
import importlib.util
import json
import lzma
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _sass_stalls():
    """scripts/sass-stalls.py, whose reading of ncu's SASS page this script shares."""
    spec = importlib.util.spec_from_file_location(
        "sass_stalls", os.path.join(ROOT, "scripts", "sass-stalls.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


read_ncu = _sass_stalls().read_rows
SAMPLES = "Warp Stall Sampling (All Samples)"
EXECUTED = "Instructions Executed"


def opener(path):
    return lzma.open(path, "rt") if path.endswith(".xz") else open(path)


def read_disassembly(path):
    """nvdisasm -g's listing: [(function, file, line, instruction text)] in order."""
    out, func, loc = [], None, (None, 0)
    label = re.compile(r"^(\S+):$")
    where = re.compile(r'//## File "([^"]+)", line (\d+)')
    insn = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;?\s*$")
    with opener(path) as f:
        for line in f:
            if m := label.match(line.rstrip()):
                if not m.group(1).startswith(".") or m.group(1).startswith(".text."):
                    func = m.group(1).removeprefix(".text.")
                continue
            if m := where.search(line):
                loc = (m.group(1), int(m.group(2)))
                continue
            if m := insn.match(line):
                out.append((func, loc[0], loc[1], m.group(1)))
    return out


def ptx_function(sass_function, kernel):
    """The PTX name of a function of `kernel`'s SASS (`$gtap_fib$_RNv..` -> `_RNv..`)."""
    prefix = f"${kernel}$"
    return sass_function[len(prefix):] if sass_function.startswith(prefix) else sass_function


def chains_of_ptx(ptx_path, functions):
    """For each PTX function in `functions`: {"FILE:LINE": {chain: [count, ops]}}, FILE
    absolute as in the `.file` table, the chain the `.loc` comment's frames innermost first
    (`a.rs:1 < b.rs:2`), `ops` the atomics and fences (`atom.acq_rel.gpu.add`) the chain's
    instructions there hold, which tell apart the chains of one helper (`compatible`)."""
    files, func, table, current = {}, None, {}, None
    start = re.compile(
        r"^(?:\.visible\s+|\.weak\s+)?\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([\w$.]+)"
    )
    file_re = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]+)"')
    loc_re = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)\s+\d+\s*//\s*(.*)$")
    op_re = re.compile(r"^\s*(?:@%p\d+\s+)?((?:atom|red|fence|membar)\.[\w.]+)")
    with opener(ptx_path) as f:
        for line in f:
            if m := start.match(line):
                func, current = (m.group(1) if m.group(1) in functions else None), None
                continue
            if m := file_re.match(line):
                files[m.group(1)] = m.group(2)
                continue
            if func is None:
                continue
            if m := loc_re.match(line):
                frames = re.findall(r"([\w./-]+\.rs:\d+)", m.group(3))
                key = f"{m.group(1)}:{m.group(2)}"
                entry = table.setdefault(func, {}).setdefault(key, {})
                current = entry.setdefault(" < ".join(frames), [0, []])
                current[0] += 1
            elif current is not None and (m := op_re.match(line)):
                op = ".".join(m.group(1).split(".")[:4])
                if op not in current[1]:
                    current[1].append(op)
    # File numbers to paths (the `.file` table comes after the functions in LLVM's PTX).
    return {
        func: {
            f"{files.get(k.split(':')[0], '?')}:{k.split(':')[1]}": v for k, v in locs.items()
        }
        for func, locs in table.items()
    }


SASS_MEMORY = re.compile(r"^(?:@!?U?P\w+\s+)?(ATOMS?|ATOMG|RED|MEMBAR|ERRBAR|CGAERRBAR|CCTL)\b(\S*)")


def compatible(sass, ops):
    """Whether SASS instruction `sass` can come from a chain whose PTX holds `ops`: an
    atomic needs an atomic of its operation and scope (`.GPU` for `.gpu`, `.SM` or a shared
    `ATOMS` for `.cta`), a fence, barrier or cache invalidation some `.gpu` acquire or
    release. Any other instruction goes with any chain."""
    m = SASS_MEMORY.match(sass.strip())
    if not m:
        return True
    kind, rest = m.group(1), m.group(2).upper()
    if kind in ("MEMBAR", "ERRBAR", "CGAERRBAR", "CCTL"):
        return any((".gpu" in o or ".sys" in o) and ("relaxed" not in o) for o in ops)
    scope = ".gpu" if ".GPU" in rest else ".sys" if ".SYS" in rest else ".cta"
    name = next((n for n in ("ADD", "MIN", "MAX", "CAS", "EXCH", "AND", "OR", "XOR", "INC", "DEC")
                 if f".{n}" in rest), None)
    return any(
        o.startswith(("atom.", "red.")) and scope in o
        and (name is None or o.split(".")[-1].upper().startswith(name))
        for o in ops
    )


def is_project(frame):
    path = frame.rsplit(":", 1)[0]
    return path.startswith(("gtap-device/", "examples/", "gtap-macros/", "gtap-host/"))


# Thin wrappers (the PTX intrinsics, the atomics' facade): a line in them says less than
# the line that called them, which is the one charged.
WRAPPERS = ("gtap-device/src/arch/", "gtap-device/src/runtime/sync.rs")


def project_frame(chain):
    """The innermost frame of the project in `chain` (frames innermost first), past the
    thin wrappers when a caller in the project is there."""
    frames = [f for f in chain.split(" < ") if is_project(f)]
    outside = [f for f in frames if not f.startswith(WRAPPERS)]
    return (outside or frames or [None])[0]


def shared_outer(a, b):
    """How many outer frames chains `a` and `b` share (frames listed innermost first)."""
    n = 0
    for x, y in zip(reversed(a.split(" < ")), reversed(b.split(" < "))):
        if x != y:
            break
        n += 1
    return n


def charge(disasm, chains, kernel, window=8):
    """Per instruction of the disassembly: (project frame, whole chain). A line with one
    chain in its function has it. For a line with several (a helper inlined in many places:
    an atomic's `asm!`, a warp barrier), first the chains whose atomics or fences fit the
    instruction (`compatible`), then the one that shares the most outer frames with the
    single-chain instructions within `window` on either side, the nearer weighing more
    (code inlined from one call site sits together, which ptxas's scheduling mostly keeps),
    then the most frequent."""
    options = [
        chains.get(ptx_function(func or "", kernel), {}).get(f"{path}:{line}", {})
        for func, path, line, _ in disasm
    ]
    out = []
    for i, opts in enumerate(options):
        path, line = disasm[i][1], disasm[i][2]
        if not opts:
            out.append((None, None))
            continue
        if len(opts) > 1:
            fit = {c: v for c, v in opts.items() if compatible(disasm[i][3], v[1])} or opts
            near = [
                (abs(j - i), next(iter(options[j])))
                for j in range(max(0, i - window), min(len(options), i + window + 1))
                if len(options[j]) == 1 and disasm[j][0] == disasm[i][0]
            ]
            score = {c: sum(shared_outer(c, n) / (1 + d) for d, n in near) for c in fit}
            chain = max(fit, key=lambda c: (score[c], fit[c][0]))
            frames = {project_frame(c) for c in fit if score[c] == score[chain]}
            if len(frames) > 1:
                # No evidence for one call site over another (e.g. the slow paths of warp
                # barriers, which ptxas gathers at the kernel's end): say so.
                sites = " | ".join(sorted(f or "?" for f in frames))
                out.append((f"one of: {sites}", None))
                continue
        else:
            chain = next(iter(opts))
        out.append((project_frame(chain), chain))
    return out


def group_frame(chain, group):
    """The frame of `chain` that `--group GROUP` sums by: the outermost in file GROUP, or,
    when GROUP is FILE:LINE, the project frame just inside that frame (None: neither)."""
    frames = (chain or "").split(" < ")
    if re.search(r":\d+$", group):
        at = [i for i, f in enumerate(frames) if f.endswith(group)]
        inside = [f for f in frames[: at[-1]] if is_project(f)] if at else []
        return inside[-1] if inside else None
    return next((f for f in reversed(frames) if f.rsplit(":", 1)[0].endswith(group)), None)


def opcode(text):
    """An instruction's opcode with its predicate, for matching the two listings."""
    words = text.strip().split()
    return " ".join(words[:2]) if words and words[0].startswith("@") else (words[0] if words else "")


def match(ncu_texts, disasm_texts):
    """ncu row -> disassembly index (or None), matched by opcode in order."""
    sm = difflib.SequenceMatcher(
        None, [opcode(t) for t in ncu_texts], [opcode(t) for t in disasm_texts], autojunk=False
    )
    mapping = [None] * len(ncu_texts)
    for a, b, n in sm.get_matching_blocks():
        for k in range(n):
            mapping[a + k] = b + k
    return mapping


# The commit whose sources the line tables came from (`commit.txt` beside KERNEL.sass, as
# scripts/line-info.sh writes it), for showing each line's text; None: the working tree's.
SOURCE_COMMIT = None


@functools.cache
def source_lines(path):
    """The lines of source file `path` at SOURCE_COMMIT (read once per file)."""
    if SOURCE_COMMIT:
        return subprocess.run(["git", "-C", ROOT, "show", f"{SOURCE_COMMIT}:{path}"],
                              capture_output=True, text=True, check=True).stdout.splitlines()
    with open(os.path.join(ROOT, path)) as f:
        return f.read().splitlines()


def source_text(frame):
    """The text of source line `frame` (`path:line`) at SOURCE_COMMIT, or nothing."""
    try:
        path, line = frame.rsplit(":", 1)
        return source_lines(path)[int(line) - 1].strip()
    except (OSError, IndexError, ValueError, subprocess.CalledProcessError):
        return ""


def report(title, groups, total, top):
    print(f"\n{title} (samples, share, warp instructions executed, top stall reasons):")
    for key, g in sorted(groups.items(), key=lambda kv: -kv[1]["samples"])[:top]:
        reasons = sorted(((v, k) for k, v in g["stalls"].items()), reverse=True)[:3]
        why = ",".join(f"{k}={v}" for v, k in reasons if v)
        name = key or "(none: no such frame, or the chain is ambiguous)"
        text = source_text(key)[:60] if key else ""
        print(f"{g['samples']:8d} {100 * g['samples'] / total:5.1f}% {g['executed']:10d}  "
              f"{name:52s} {text:60s} {why}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", nargs="?", help="ncu's SASS page (scripts/ncu-source.sh), .xz too")
    ap.add_argument("sass", help="KERNEL.sass from scripts/line-info.sh")
    ap.add_argument("--chains", metavar="PTX", help="write KERNEL.sass's chains from PTX as JSON")
    ap.add_argument("--top", type=int, default=40, help="lines to list")
    ap.add_argument("--group", metavar="FILE[:LINE]",
                    help="also sum by the outermost frame in FILE, or the frame inside FILE:LINE")
    ap.add_argument("--show", metavar="FRAME", help="list the instructions whose chain has FRAME")
    args = ap.parse_args()
    disasm = read_disassembly(args.sass)
    kernel = disasm[0][0] if disasm else ""
    if args.chains:
        functions = {ptx_function(f or "", kernel) for f, _, _, _ in disasm}
        json.dump(chains_of_ptx(args.chains, functions), sys.stdout)
        return
    if not args.csv:
        ap.error("give ncu's page (or --chains PTX)")
    global SOURCE_COMMIT
    commit_file = os.path.join(os.path.dirname(args.sass), "commit.txt")
    if os.path.exists(commit_file):
        commit = open(commit_file).read().strip()
        if commit.endswith("-dirty"):
            print(f"line tables from {commit}: source text from the working tree, which may "
                  "differ", file=sys.stderr)
        else:
            SOURCE_COMMIT = commit
    chains_path = re.sub(r"\.sass$", ".chains.json.xz", args.sass)
    if not os.path.exists(chains_path):
        chains_path = chains_path.removesuffix(".xz")
    with opener(chains_path) as f:
        chains = json.load(f)
    header, rows = read_ncu(args.csv)
    col = {h: i for i, h in enumerate(header)}
    stall_cols = [h for h in header if h.startswith("stall_") and "Not Issued" not in h]
    mapping = match([r[col["Source"]] for r in rows], [d[3] for d in disasm])
    charged = charge(disasm, chains, kernel)
    total = sum(int(r[col[SAMPLES]] or 0) for r in rows)
    matched = sum(1 for m in mapping if m is not None)
    unmatched_samples = sum(int(r[col[SAMPLES]] or 0) for r, m in zip(rows, mapping) if m is None)
    print(f"{kernel}: {len(rows)} instructions in ncu's page, {len(disasm)} in the disassembly, "
          f"{matched} matched; {total} samples, {unmatched_samples} on unmatched instructions")
    new = lambda: {"samples": 0, "executed": 0, "stalls": collections.Counter()}
    by_line, by_group = collections.defaultdict(new), collections.defaultdict(new)
    for r, m in zip(rows, mapping):
        frame, chain = charged[m] if m is not None else (None, None)
        keys = [(by_line, frame)]
        if args.group:
            keys.append((by_group, group_frame(chain, args.group)))
        for table, key in keys:
            g = table[key]
            g["samples"] += int(r[col[SAMPLES]] or 0)
            g["executed"] += int(r[col[EXECUTED]] or 0)
            for h in stall_cols:
                g["stalls"][h[6:]] += int(r[col[h]] or 0)
    if args.show:
        print(f"\ninstructions whose chain has {args.show} (row, samples, executions, SASS, chain):")
        for i, (r, m) in enumerate(zip(rows, mapping)):
            chain = charged[m][1] if m is not None else None
            if chain and args.show in chain:
                print(f"{i:6d} {r[col[SAMPLES]]:>6s} {r[col[EXECUTED]]:>8s}  "
                      f"{r[col['Source']].strip()[:56]:56s} {chain[:140]}")
    if args.group:
        title = (f"by the frame inside {args.group}" if re.search(r":\d+$", args.group)
                 else f"by the outermost frame in {args.group}")
        report(title, by_group, total, args.top)
    report("by the innermost project line", by_line, total, args.top)


if __name__ == "__main__":
    main()
