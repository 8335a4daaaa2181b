import csv,sys,glob,collections,os
# usage: cmp.py DIR suffix cfg1 cfg2 ...   -> table of median_ms per row key across configs
d=sys.argv[1]; suf=sys.argv[2]; cfgs=sys.argv[3:]
rows=collections.OrderedDict(); tasks={}
for c in cfgs:
    f=f"{d}/{c}-{suf}.csv"
    if not os.path.exists(f): continue
    for r in csv.DictReader(open(f)):
        if r['backend']!='gpu': continue
        k=(r['benchmark'],r['size'],r['cutoff'],r['queues'],r['variant'][:40])
        rows.setdefault(k,{})[c]=float(r['median_ms']); tasks.setdefault(k,{})[c]=r['tasks']
print("| row | "+" | ".join(cfgs)+" |"); print("|---"*(len(cfgs)+1)+"|")
for k,v in rows.items():
    print("| "+" ".join(x for x in k if x)+" | "+" | ".join(f"{v[c]:.3f}" if c in v else "-" for c in cfgs)+" |")
