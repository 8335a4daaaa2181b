import csv,sys,os,collections
# cmp2.py DIR name1:file1,file2 name2:file... -> median of medians per row key
d=sys.argv[1]; specs=sys.argv[2:]
rows=collections.OrderedDict(); cols=[]
for sp in specs:
    n,fs=sp.split(':'); cols.append(n)
    for f in fs.split(','):
        p=f"{d}/{f}.csv"
        if not os.path.exists(p): continue
        for r in csv.DictReader(open(p)):
            if r['backend']!='gpu': continue
            k=(r['benchmark'],r['size'],r['cutoff'],r['queues'],r['variant'][:40])
            rows.setdefault(k,{}).setdefault(n,[]).append(float(r['median_ms']))
print("| row | "+" | ".join(cols)+(" | "+cols[1]+"/"+cols[0] if len(cols)>1 else "")+" |"); print("|---"*(len(cols)+2)+"|")
for k,v in rows.items():
    vals=[sum(v[c])/len(v[c]) if c in v else None for c in cols]
    ratio=f"{vals[1]/vals[0]:.3f}" if len(cols)>1 and vals[0] and vals[1] else "-"
    print("| "+" ".join(x for x in k if x)+" | "+" | ".join(f"{x:.3f}" if x else "-" for x in vals)+" | "+ratio+" |")
