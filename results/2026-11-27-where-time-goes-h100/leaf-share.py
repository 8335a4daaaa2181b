#!/usr/bin/env python3
"""The share of ncu's samples and warp instructions in a kernel's hottest callee (the
function that ends at the most executed RET of the SASS source page that
scripts/ncu-source.sh writes), and the active lanes there and elsewhere.

    python3 leaf-share.py ncu/fib40-sass.csv.xz"""
import csv
import lzma
import sys

for path in sys.argv[1:]:
    with lzma.open(path, "rt") as f:
        rows = list(csv.reader(f))
    hdr = rows[1]
    data = [r for r in rows[2:] if len(r) == len(hdr)]
    col = {h: i for i, h in enumerate(hdr)}

    def total(rs, name):
        return sum(float(r[col[name]] or 0) for r in rs)

    execs = lambda r: float(r[col["Instructions Executed"]] or 0)
    rets = [i for i, r in enumerate(data) if "RET" in r[col["Source"]]]
    last = max(rets, key=lambda i: execs(data[i]))
    first = max((i for i in rets if i < last), default=-1) + 1
    fn = data[first:last + 1]
    s_all, s_fn = total(data, "Warp Stall Sampling (All Samples)"), total(fn, "Warp Stall Sampling (All Samples)")
    e_all, e_fn = total(data, "Instructions Executed"), total(fn, "Instructions Executed")
    t_all, t_fn = total(data, "Thread Instructions Executed"), total(fn, "Thread Instructions Executed")
    print(f"{path}: the callee ({len(fn)} instructions) has {100 * s_fn / s_all:.1f}% of the samples, "
          f"{100 * e_fn / e_all:.1f}% of the warp instructions at {t_fn / e_fn:.1f} active lanes; "
          f"the rest {(t_all - t_fn) / (e_all - e_fn):.1f} active lanes")
