"""Joins a call's bench CSVs into one table of kernel medians (ms), one column per CSV
(named by the file, without its extension): python3 table.py DIR [COLUMN ...]."""
import collections
import csv
import glob
import sys

rows = collections.OrderedDict()
for path in sorted(glob.glob(sys.argv[1] + '/*.csv')):
    col = path.rsplit('/', 1)[-1][:-4]
    for r in csv.DictReader(open(path)):
        if r.get('backend') != 'gpu':
            continue
        key = f"{r['benchmark']}({r['size']})" + (f" c{r['cutoff']}" if r['cutoff'] else '') + (f" {r['queues']}q" if r['queues'] != '1' else '')
        rows.setdefault(key, {})[col] = float(r['median_ms'])
cols = sys.argv[2:] or sorted({c for v in rows.values() for c in v})
print('| program | ' + ' | '.join(cols) + ' |')
print('|---|' + '---:|' * len(cols))
for k, v in rows.items():
    if any(c in v for c in cols):
        print(f'| {k} | ' + ' | '.join(f'{v[c]:.3f}' if c in v else '' for c in cols) + ' |')
