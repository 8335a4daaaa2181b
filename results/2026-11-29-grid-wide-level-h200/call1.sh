#!/usr/bin/env bash
# Session 33 call 1 (H200): one bench host (the working tree's) with three PTX builds of the
# examples: p0 = main (a246223), p4 = the grid-wide wide level + the summing loop's fixed
# parameters (what landed), p5 = p4's device code with main's macros (the grid-wide level
# alone). Each PTX is JIT-compiled once (scripts/jit-cache.sh) before its rows.
set -u
O=$OUT/c1; mkdir -p $O
xz -dc .gpu-exp/bench-new.xz > /tmp/bench && chmod +x /tmp/bench
for p in p0 p4 p5; do xz -dc .gpu-exp/ptx/$p.ptx.xz > /tmp/$p.ptx; done
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
run() { local p=$1 name=$2; shift 2; echo "== $name $(date -u +%T)"; timeout 150 /tmp/bench --ptx /tmp/$p.ptx --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
for r in 1 2; do for p in p0 p4 p5; do
  run $p $p-nc-r$r --runs 5 nqueens --n 16 --cutoff 16 --form joined
  run $p $p-nc-d9-r$r --runs 5 --inline-min-depth 9 nqueens --n 16 --cutoff 16 --form joined
done; done
for p in p0 p4; do
  run $p $p-nc-small --runs 5 nqueens --n 12,14 --cutoff 16 --form joined
  run $p $p-nc-d8 --runs 5 --inline-min-depth 8 nqueens --n 16 --cutoff 16 --form joined
  run $p $p-nq16 --runs 3 nqueens --n 16 --cutoff 7,8 --form joined,detached
  run $p $p-fib --runs 10 fib --n 25,30,35,40
  run $p $p-epaq --runs 5 epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
  run $p $p-uts --runs 3 uts --tree t1l,t3l
done
for t in 1024 2048; do
  run p4 p4-w$t --runs 3 --inline-wide-tasks $t nqueens --n 16 --cutoff 8,16 --form joined,detached
done
for p in p0 p4; do run $p $p-nq16-r2 --runs 3 nqueens --n 16 --cutoff 7,8 --form joined,detached; done
echo "== bench done $(date -u +%T)"
grep -h "^| " $O/*.md | grep -v "^| bench\|---" | sort | awk -F'|' '{print $2,$3,$4,$5,$8,$10,$14}' | head -150
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|spawns inline|back-off" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-220; done > $O/summary.txt
tar czf $OUT/c1.tgz -C $OUT c1 && rm -rf $O
