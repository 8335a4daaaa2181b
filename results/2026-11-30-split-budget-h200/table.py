#!/usr/bin/env python3
"""The record's fib tables: GTaP / gtap kernel-time ratios by size, one column per row kind.

    python3 table.py DIR   (DIR: an unpacked c1/ or c2/, holding anchor.csv and bench CSVs)
"""
import collections
import csv
import glob
import os
import re
import sys

d = sys.argv[1]
anchor = {}
for line in open(os.path.join(d, "anchor.csv")):
    if line[0].isdigit() or line.startswith("fib,"):
        prog, n, _q, ms = line.strip().split(",")
        anchor[int(n)] = float(ms)
ms = collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(os.path.join(d, "*.csv"))):
    if f.endswith("anchor.csv") or "epaq" in f:
        continue
    cfg = "off" if "off" in os.path.basename(f) else ""
    for r in csv.DictReader(open(f)):
        v = r["variant"]
        m = re.match(r"split every (\d+) calls(?:, x(\d+) per level to (\d+))?", v)
        if m:
            name = "split %s" % m.group(1) + (" x%s to %s" % (m.group(2), m.group(3)) if m.group(2) else "")
        else:
            name = "policy off" if cfg else "default"
        ms[name][int(r["size"])].append(float(r["median_ms"]))
sizes = sorted(anchor)
print("| row | " + " | ".join("fib(%d)" % n for n in sizes) + " |")
print("|---|" + "---:|" * len(sizes))
print("| GTaP ms | " + " | ".join("%.3f" % anchor[n] for n in sizes) + " |")
for name, by in ms.items():
    cells = []
    for n in sizes:
        v = by.get(n)
        cells.append("%.3f (%.2fx)" % (sum(v) / len(v), anchor[n] / (sum(v) / len(v))) if v else "")
    print("| %s | %s |" % (name, " | ".join(cells)))
