#!/usr/bin/env bash
# Session 33 call 2 (H200): one bench host (the working tree's) with four PTX builds of the
# examples: p0 = main (a246223), p4 = call 1's p4 (the grid-wide wide level + the summing
# loop's fixed parameters), l1 = p4 + leaves inlined above min_depth back off a level, with
# the round's weighing out of line (what landed), l2 = l1 with the leaf rule at every depth.
set -u
O=$OUT/c2; mkdir -p $O
xz -dc .gpu-exp/bench-new.xz > /tmp/bench && chmod +x /tmp/bench
for p in p0 p4 l1 l2; do xz -dc .gpu-exp/ptx/$p.ptx.xz > /tmp/$p.ptx; done
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
run() { local p=$1 name=$2; shift 2; echo "== $name $(date -u +%T)"; timeout 150 /tmp/bench --ptx /tmp/$p.ptx --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
for r in 1 2; do for p in p0 p4 l1 l2; do
  run $p $p-nq-r$r --runs 3 nqueens --n 16 --cutoff 7,8,16 --form joined,detached
  run $p $p-epaq-r$r --runs 5 epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
done; done
for p in p0 l1 l2; do
  run $p $p-nq-w2048 --runs 3 --inline-wide-tasks 2048 nqueens --n 16 --cutoff 7,8,16 --form joined,detached
  run $p $p-nc-small --runs 5 nqueens --n 12,14 --cutoff 16 --form joined
  run $p $p-nq-small --runs 5 nqueens --n 12,14 --cutoff 8 --form joined,detached
  run $p $p-fib --runs 10 fib --n 25,30,35,40
  run $p $p-uts --runs 3 uts --tree t1l,t3l
  run $p $p-tree --runs 3 tree --depth 22
  run $p $p-sort --runs 3 sort --algo cilksort,mergesort-mixed
done
echo "== bench done $(date -u +%T)"
grep -h "^| " $O/*.md | grep -v "^| bench\|---" | sort | awk -F'|' '{print $2,$3,$4,$5,$8,$10,$14}' | head -250
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|spawns inline|back-off" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-220; done > $O/summary.txt
tar czf $OUT/c2.tgz -C $OUT c2 && rm -rf $O
