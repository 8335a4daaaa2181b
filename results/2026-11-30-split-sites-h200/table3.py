"""Call 3's table: kernel ms medians (two rounds where two), per size."""
import csv, sys, os
d = sys.argv[1]
def load(name):
    out = {}
    for r in csv.DictReader(open(os.path.join(d, name + '.csv'))):
        out[(r['variant'], int(r['size']))] = (float(r['median_ms']), float(r['e2e_median_ms']), r['tasks'])
    return out
anchor = {}
for line in open(os.path.join(d, 'anchor.csv')):
    if line.startswith('fib,'):
        p = line.strip().split(','); anchor[int(p[1])] = float(p[3])
PS, SP = 'task per call, no cutoff', 'task per call, split by the runtime'
PR = 'split every 16 calls, x2 per level to 2048'
C1, C2, A1, A2, O1, O2 = (load(n) for n in ['C-1', 'C-2', 'A-1', 'A-2', 'old-1', 'old-2'])
P, C8 = load('proto'), load('C-calls8')
print('| n | GTaP | per-spawn fib | old walk (`2f915fa`) | A | C | C, first budget 8 | prototype | GTaP / C budget 8 | per-spawn / C budget 8 |')
print('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
for n in [20, 22, 24, 26, 28, 30, 32, 35, 40]:
    g = anchor.get(n)
    ps = C1[(PS, n)][0]
    c8 = C8[(SP, n)][0]
    f = lambda a, b: f"{a[(SP, n)][0]:.3f} / {b[(SP, n)][0]:.3f}"
    print(f"| {n} | {g:.3f} | {ps:.3f} | {f(O1, O2)} | {f(A1, A2)} | {f(C1, C2)} | {c8:.3f} | {P[(PR, n)][0]:.3f} | {g / c8:.2f}x | {ps / c8:.2f}x |")
