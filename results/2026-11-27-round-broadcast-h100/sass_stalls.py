import csv, sys, lzma, collections
f = sys.argv[1]
rows = list(csv.reader(lzma.open(f, 'rt')))
hdr = rows[1]; data = rows[2:]
ix = {h:i for i,h in enumerate(hdr)}
stalls = [h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]
tot = collections.Counter()
samples = 0
recs = []
for r in data:
    if len(r) < len(hdr): continue
    s = int(r[ix['Warp Stall Sampling (All Samples)']] or 0)
    samples += s
    st = {h:int(r[ix[h]] or 0) for h in stalls}
    for h,v in st.items(): tot[h]+=v
    recs.append((s, r[ix['Address']], r[ix['Source']].strip(), st, r[ix['Instructions Executed']]))
print("samples", samples, "instructions", len(data))
for h,v in tot.most_common(10): print(f"  {h:28s} {v:7d} {100*v/max(samples,1):5.1f}%")
print("top instructions:")
recs.sort(key=lambda x: -x[0])
for s,a,src,st,ex in recs[:int(sys.argv[2]) if len(sys.argv)>2 else 40]:
    top = ",".join(f"{k[6:]}={v}" for k,v in sorted(st.items(), key=lambda kv:-kv[1])[:3] if v)
    print(f"{s:6d} {100*s/samples:5.1f}% {a[-5:]} ex={ex:>6s} {src[:60]:60s} {top}")
