#!/usr/bin/env python3
"""Summarizes ncu's SASS source page of one kernel (the CSV that scripts/ncu-source.sh writes,
plain or xz): the stall reasons over all samples, the share of samples in the slow, collective
path of warp-synchronous instructions (what a shuffle, vote or barrier costs when the warp
reaches it diverged), and the hottest instructions with their execution counts and top
reasons. With `--regions N`, also the N runs of executed instructions (between unexecuted
ones) that hold the most samples, with the atomics, fences and calls in each: a rough map of
where the time goes when the SASS has no line information. With `--diff OTHER`, the page of
another run of the same kernel binary (another configuration, the same PTX): the runs of
instructions whose execution counts differ most between the two, which finds the code a
setting adds without line information (addresses differ between processes, so rows are
matched by position).

    python3 scripts/sass-stalls.py prof/fib-sass.csv.xz [--top 40] [--regions 16]
    python3 scripts/sass-stalls.py prof/on-sass.csv.xz --diff prof/off-sass.csv.xz
"""

import argparse
import collections
import csv
import lzma
import re


def read_rows(path):
    """The page's header and rows (its first line names the kernel)."""
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as f:
        rows = list(csv.reader(f))
    return rows[1], [r for r in rows[2:] if len(r) == len(rows[1])]


def collective_samples(rows, col):
    """Samples from the first `WARPSYNC.COLLECTIVE` to the last `ENDCOLLECTIVE`: ptxas puts
    the slow paths of warp-synchronous instructions together at the kernel's end."""
    marks = [i for i, r in enumerate(rows) if "COLLECTIVE" in r[col["Source"]]]
    if not marks:
        return 0
    lo, hi = marks[0], marks[-1]
    while lo > 0 and "BSSY" not in rows[lo][col["Source"]]:
        lo -= 1
    return sum(int(r[col["Warp Stall Sampling (All Samples)"]] or 0) for r in rows[lo : hi + 2])


def executions(row, col):
    return int(row[col["Instructions Executed"]] or 0)


def executed_runs(rows, col):
    """Runs of consecutive executed instructions, in address order, split at every
    instruction that never ran: (first address, last address, instructions, executions,
    samples, the atomics, fences and calls among them)."""
    samples_col = col["Warp Stall Sampling (All Samples)"]
    ordered = sorted(rows, key=lambda r: int(r[col["Address"]], 16))
    runs, cur = [], None
    for r in ordered:
        ex = executions(r, col)
        if ex == 0:
            if cur:
                runs.append(cur)
            cur = None
            continue
        src = r[col["Source"]].strip()
        if cur is None:
            cur = [r[col["Address"]], None, 0, 0, 0, []]
        cur[1] = r[col["Address"]]
        cur[2] += 1
        cur[3] += ex
        cur[4] += int(r[samples_col] or 0)
        if any(k in src for k in ("ATOM", "RED.", "MEMBAR", "CCTL", "CALL", "RET")):
            cur[5].append(src.split(" ,")[0][:40])
    if cur:
        runs.append(cur)
    return runs


def diff_runs(rows, other, col, top):
    """Prints the `top` runs of instructions (gaps of at most 3) whose execution counts differ
    most between `rows` and `other`, two pages of the same kernel binary."""
    same = lambda r: re.sub(r"0x[0-9a-f]{8,}", "ADDR", r[col["Source"]])
    if len(rows) != len(other) or any(same(a) != same(b) for a, b in zip(rows, other)):
        raise SystemExit("--diff: the two pages are not of the same kernel binary")
    print(f"warp instructions executed: {sum(executions(r, col) for r in rows)} here, "
          f"{sum(executions(r, col) for r in other)} in --diff's run")
    runs, cur = [], None
    for i, (a, b) in enumerate(zip(rows, other)):
        d = executions(a, col) - executions(b, col)
        if abs(d) <= 1000:
            continue
        if cur and i - cur[1] <= 3:
            cur[1], cur[2] = i, cur[2] + d
        else:
            cur = [i, i, d]
            runs.append(cur)
    print("runs that differ most (rows, executions here minus there, first and last instruction, "
          "the first's executions here / there):")
    for lo, hi, d in sorted(runs, key=lambda run: -abs(run[2]))[:top]:
        first, last = rows[lo][col["Source"]].strip()[:44], rows[hi][col["Source"]].strip()[:44]
        print(f"{lo:5d}..{hi:5d} {d:+11d}  {first} .. {last}  "
              f"({executions(rows[lo], col)} / {executions(other[lo], col)})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", help="ncu --page source --csv --print-source sass output (.xz too)")
    ap.add_argument("--top", type=int, default=30, help="hottest instructions to list")
    ap.add_argument("--regions", type=int, default=0, help="runs of executed code to list")
    ap.add_argument("--diff", metavar="OTHER", help="page of another run of the same kernel binary")
    args = ap.parse_args()
    header, rows = read_rows(args.csv)
    col = {h: i for i, h in enumerate(header)}
    if args.diff:
        diff_runs(rows, read_rows(args.diff)[1], col, args.top)
        return
    stalls = [h for h in header if h.startswith("stall_") and "Not Issued" not in h]
    samples_col = col["Warp Stall Sampling (All Samples)"]
    total = sum(int(r[samples_col] or 0) for r in rows)
    if total == 0:
        raise SystemExit("no stall samples: was the page exported from a SourceCounters run?")
    executed = sum(executions(r, col) for r in rows)
    print(f"{total} samples, {executed} warp instructions executed")
    by_reason = collections.Counter()
    for r in rows:
        for h in stalls:
            by_reason[h] += int(r[col[h]] or 0)
    for h, v in by_reason.most_common(10):
        print(f"  {h[6:]:24s} {v:8d} {100 * v / total:5.1f}%")
    coll = collective_samples(rows, col)
    print(f"collective slow paths: {coll} samples, {100 * coll / total:.1f}%")
    print("hottest instructions (samples, share, address, executions, instruction, reasons):")
    hot = sorted(rows, key=lambda r: -int(r[samples_col] or 0))[: args.top]
    for r in hot:
        s = int(r[samples_col] or 0)
        reasons = sorted(((int(r[col[h]] or 0), h[6:]) for h in stalls), reverse=True)[:3]
        why = ",".join(f"{n}={v}" for v, n in reasons if v)
        src = r[col["Source"]].strip()[:60]
        ex = r[col["Instructions Executed"]]
        print(f"{s:7d} {100 * s / total:5.1f}% {r[col['Address']][-5:]} ex={ex:>7s} {src:60s} {why}")
    if args.regions:
        print("runs of executed instructions with the most samples (addresses, instructions, executions, samples, share, atomics/fences/calls):")
        runs = sorted(executed_runs(rows, col), key=lambda run: -run[4])[: args.regions]
        for lo, hi, n, ex, s, marks in runs:
            print(f"{lo[-5:]}..{hi[-5:]} {n:4d} {ex:7d} {s:6d} {100 * s / total:5.1f}% {marks[:4]}")


if __name__ == "__main__":
    main()
