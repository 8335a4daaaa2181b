#!/usr/bin/env python3
"""Summarizes ncu's SASS source page of one kernel (the CSV that scripts/ncu-source.sh writes,
plain or xz): the stall reasons over all samples, the share of samples in the slow, collective
path of warp-synchronous instructions (what a shuffle, vote or barrier costs when the warp
reaches it diverged), and the hottest instructions with their execution counts and top
reasons.

    python3 scripts/sass-stalls.py prof/fib-sass.csv.xz [--top 40]
"""

import argparse
import collections
import csv
import lzma


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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", help="ncu --page source --csv --print-source sass output (.xz too)")
    ap.add_argument("--top", type=int, default=30, help="hottest instructions to list")
    args = ap.parse_args()
    header, rows = read_rows(args.csv)
    col = {h: i for i, h in enumerate(header)}
    stalls = [h for h in header if h.startswith("stall_") and "Not Issued" not in h]
    samples_col = col["Warp Stall Sampling (All Samples)"]
    total = sum(int(r[samples_col] or 0) for r in rows)
    if total == 0:
        raise SystemExit("no stall samples: was the page exported from a SourceCounters run?")
    executed = sum(int(r[col["Instructions Executed"]] or 0) for r in rows)
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


if __name__ == "__main__":
    main()
