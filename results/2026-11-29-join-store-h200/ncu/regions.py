# Groups an ncu SASS source page (CSV, as scripts/ncu-source.sh writes it, xz-decompressed)
# into runs of executed instructions between unexecuted ones, and prints the runs that hold
# the most stall samples, with the atomics and fences in each: a rough map of where a round's
# time goes when the SASS has no line information.
# Usage: python3 regions.py SASS.csv [TOP]
import csv, sys

rows = list(csv.reader(open(sys.argv[1])))
hdr, data = rows[1], rows[2:]
col = {name: hdr.index(name) for name in
       ("Address", "Source", "Instructions Executed", "Warp Stall Sampling (All Samples)")}
ins = sorted((int(r[col["Address"]], 16), r[col["Source"]].strip(),
              int(r[col["Instructions Executed"]] or 0),
              int(r[col["Warp Stall Sampling (All Samples)"]] or 0))
             for r in data if r[col["Address"]])
total = sum(i[3] for i in ins)
runs, cur = [], None
for addr, src, ex, samples in ins:
    if ex == 0:
        if cur:
            runs.append(cur)
        cur = None
        continue
    if cur is None:
        cur = {"start": addr, "n": 0, "ex": 0, "samples": 0, "marks": []}
    cur["end"] = addr
    cur["n"] += 1
    cur["ex"] += ex
    cur["samples"] += samples
    if any(k in src for k in ("ATOM", "RED.", "MEMBAR", "CCTL", "CALL", "RET")):
        cur["marks"].append(src.split(" ,")[0][:40])
if cur:
    runs.append(cur)
print(f"{len(ins)} instructions, {sum(i[2] for i in ins)} executed, {total} samples")
for r in sorted(runs, key=lambda r: -r["samples"])[: int(sys.argv[2]) if len(sys.argv) > 2 else 20]:
    print(f"{r['start']:x}..{r['end']:x} {r['n']:4d} instr, {r['ex']:6d} executed, "
          f"{r['samples']:5d} samples ({100 * r['samples'] / total:4.1f}%) {r['marks'][:4]}")
