#!/usr/bin/env bash
# Session 33 call 3 (H200): call 2's bench host with p0 = main (a246223), l1 = call 2's l1,
# and l3 = l1 with the leaf rule only for a warp's width of leaves (what landed), each at
# the default 4096 tasks per warp and at 2048 (`w2k`).
set -u
O=$OUT/c3; mkdir -p $O
xz -dc .gpu-exp/bench-new.xz > /tmp/bench && chmod +x /tmp/bench
for p in p0 l1 l3; do xz -dc .gpu-exp/ptx/$p.ptx.xz > /tmp/$p.ptx; done
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
run() { local p=$1 name=$2; shift 2; echo "== $name $(date -u +%T)"; timeout 150 /tmp/bench --ptx /tmp/$p.ptx --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
for r in 1 2; do for p in p0 l3; do for w in 4096 2048; do
  run $p $p-w$w-nq-r$r --runs 3 --inline-wide-tasks $w nqueens --n 16 --cutoff 7,8,16 --form joined,detached
  run $p $p-w$w-uts-r$r --runs 3 --inline-wide-tasks $w uts --tree t1l,t3l
done; done; done
run l1 l1-w2048-nq --runs 3 --inline-wide-tasks 2048 nqueens --n 16 --cutoff 16 --form joined
for p in p0 l3; do for w in 4096 2048; do
  run $p $p-w$w-fib --runs 10 --inline-wide-tasks $w fib --n 25,30,35,40
  run $p $p-w$w-epaq --runs 5 --inline-wide-tasks $w epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
  run $p $p-w$w-small --runs 5 --inline-wide-tasks $w nqueens --n 12,14 --cutoff 8,16 --form joined,detached
  run $p $p-w$w-sort --runs 3 --inline-wide-tasks $w sort --algo cilksort,mergesort-mixed
  run $p $p-w$w-tree --runs 3 --inline-wide-tasks $w tree --depth 22
done; done
echo "== bench done $(date -u +%T)"
grep -h "^| " $O/*.md | grep -v "^| bench\|---" | sort | awk -F'|' '{print $2,$3,$4,$5,$8,$10,$14}' | head -250
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|spawns inline|back-off" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-220; done > $O/summary.txt
tar czf $OUT/c3.tgz -C $OUT c3 && rm -rf $O
