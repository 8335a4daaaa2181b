# Joins a call's CSVs into one table, a column per setting: python3 tab.py DIR SETTINGS FAMILY
# (e.g. `python3 tab.py c1 def,br8 fib`); a cell lists the medians of each round.
import csv, glob, sys
from collections import defaultdict
d, prefixes, fam = sys.argv[1], sys.argv[2].split(','), sys.argv[3]
rows = defaultdict(dict); order = []
for p in prefixes:
    files = sorted(glob.glob(f"{d}/{p}-{fam}.csv") + glob.glob(f"{d}/{p}-{fam}-r*.csv"))
    for f in files:
        for r in csv.DictReader(open(f)):
            key = (r['benchmark'], r['size'], r['cutoff'], r['queues'], r['variant'])
            if key not in order: order.append(key)
            rows[key].setdefault(p, []).append(float(r['median_ms']))
print("| program | size | cutoff | queues | variant | " + " | ".join(prefixes) + " |")
print("|---|---|---|---|---|" + "---:|" * len(prefixes))
for k in order:
    cells = []
    for p in prefixes:
        v = rows[k].get(p)
        cells.append(" / ".join(f"{x:.3f}" if x < 10 else f"{x:.1f}" for x in v) if v else "")
    print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {k[4][:40]} | " + " | ".join(cells) + " |")
