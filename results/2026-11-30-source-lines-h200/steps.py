import sys, importlib.util, collections, json, lzma
spec = importlib.util.spec_from_file_location("sl", __import__("os").path.join(__import__("os").path.dirname(__file__), "../../scripts/sass-lines.py")); sl = importlib.util.module_from_spec(spec); spec.loader.exec_module(sl)
csvp, sassp, within, depth = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
dis = sl.read_disassembly(sassp); chains = json.load(lzma.open(sassp.replace('.sass','.chains.json.xz'),'rt'))
kernel = dis[0][0]
h, rows = sl.read_ncu(csvp); col={x:i for i,x in enumerate(h)}
m = sl.match([r[col['Source']] for r in rows], [d[3] for d in dis]); ch = sl.charge(dis, chains, kernel)
agg = collections.Counter(); ex=collections.Counter(); tot=0; why=collections.defaultdict(collections.Counter)
stalls=[x for x in h if x.startswith('stall_') and 'Not Issued' not in x]
for r, k in zip(rows, m):
    s=int(r[col[sl.SAMPLES]] or 0); tot+=s
    if k is None: continue
    f, c = ch[k]
    frames = (c or '').split(' < ')
    if not any(within in x for x in frames): continue
    i = max(j for j,x in enumerate(frames) if within in x)
    # frame `depth` levels inside `within`, project only
    inner = [x for x in frames[:i] if sl.is_project(x)]
    key = inner[-int(depth)] if len(inner) >= int(depth) else frames[i]
    agg[key]+=s; ex[key]+=int(r[col[sl.EXECUTED]] or 0)
    for st in stalls: why[key][st[6:]]+=int(r[col[st]] or 0)
for f, s in agg.most_common(int(sys.argv[5]) if len(sys.argv)>5 else 30):
    w=','.join('%s=%d'%(a,b) for a,b in why[f].most_common(3) if b)
    print('%5d %5.1f%% %6d %-50s %-60s %s' % (s, 100*s/tot, ex[f], f, sl.source_text(f)[:60], w))
