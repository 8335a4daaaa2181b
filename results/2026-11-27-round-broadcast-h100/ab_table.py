import csv,glob,collections,sys
vs=sys.argv[1].split(',')
d=collections.OrderedDict()
for f in sorted(glob.glob('*.csv')):
    kind,v,r=f[:-4].split('-')
    for row in csv.DictReader(open(f)):
        key=(row['benchmark'],row['size'],row['queues'],row['variant'][:20])
        d.setdefault(key,{})[(v,r)]=row['median_ms']
print("%-42s"%"case"+"".join(f"{v+'-'+r:>9s}" for v in vs for r in '12'))
for k in d:
    print("%-42s"%(" ".join(k)[:42])+"".join(f"{d[k].get((v,r),'-'):>9s}" for v in vs for r in '12'))
