import sys, importlib.util, collections, json, lzma
spec = importlib.util.spec_from_file_location("sl", __import__("os").path.join(__import__("os").path.dirname(__file__), "../../scripts/sass-lines.py")); sl = importlib.util.module_from_spec(spec); spec.loader.exec_module(sl)
def agg(csvp, sassp, level='line'):
    dis = sl.read_disassembly(sassp); chains = json.load(lzma.open(sassp.replace('.sass','.chains.json.xz'),'rt'))
    h, rows = sl.read_ncu(csvp); col={x:i for i,x in enumerate(h)}
    m = sl.match([r[col['Source']] for r in rows], [d[3] for d in dis]); ch = sl.charge(dis, chains, dis[0][0])
    S=collections.Counter(); E=collections.Counter()
    for r,k in zip(rows,m):
        f = ch[k][0] if k is not None else None
        if level=='file' and f and not f.startswith('one of'): f=f.rsplit(':',1)[0]
        S[f]+=int(r[col[sl.SAMPLES]] or 0); E[f]+=int(r[col[sl.EXECUTED]] or 0)
    return S,E
a=agg(sys.argv[1], sys.argv[2], sys.argv[5] if len(sys.argv)>5 else 'line'); b=agg(sys.argv[3], sys.argv[4], sys.argv[5] if len(sys.argv)>5 else 'line')
keys=set(a[0])|set(b[0])
print('total samples', sum(a[0].values()), sum(b[0].values()), 'exec', sum(a[1].values()), sum(b[1].values()))
for k in sorted(keys, key=lambda k: -abs(b[0][k]-a[0][k]))[:25]:
    print('%6d %6d %+6d | %7d %7d %+6d  %s  %s' % (a[0][k], b[0][k], b[0][k]-a[0][k], a[1][k], b[1][k], b[1][k]-a[1][k], (k or '')[:90], sl.source_text(k)[:50] if k and not k.startswith('one') else ''))
