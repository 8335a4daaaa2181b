#!/usr/bin/env bash
# Session 30 call 6 (H200): four levels for bodies of at most 60 tokens (u4) against 4c0496c (new).
set -u
O=$OUT/c6; mkdir -p $O
xz -dc .gpu-exp/bench-new.xz > /tmp/bench && chmod +x /tmp/bench
for v in new u4; do xz -dc .gpu-exp/$v.ptx.xz > /tmp/$v.ptx; done
. scripts/jit-cache.sh
date -u > $O/date.txt
run() { local name=$1; shift; timeout 100 /tmp/bench --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
for round in 1 2; do for v in new u4; do
  run $v-fib-r$round --runs 10 --ptx /tmp/$v.ptx fib --n 25,30,35,40
done; done
for v in new u4; do run $v-tree --runs 5 --ptx /tmp/$v.ptx tree --depth 22; done
grep -h "^| fib\|^| full" $O/*.md | awk -F'|' '{print $2,$3,$8,$10}'
tar czf $OUT/c6.tgz -C $OUT c6 && rm -rf $O
