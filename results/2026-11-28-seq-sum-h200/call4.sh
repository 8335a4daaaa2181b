#!/usr/bin/env bash
# Session 31 call 4 (H200): main (65132bb, its bench) against the working tree (wide: the
# summing sequential versions and the wide-level rule, wide_tasks 1024 by default), each
# bench with its own PTX.
set -u
O=$OUT/c4; mkdir -p $O
xz -dc .gpu-exp/bench.xz > /tmp/bench-main && chmod +x /tmp/bench-main
xz -dc .gpu-exp/bench-wide.xz > /tmp/bench-wide && chmod +x /tmp/bench-wide
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
run() { local b=$1 name=$2; shift 2; echo "== $name $(date -u +%T)"; timeout 150 /tmp/bench-$b --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
for r in 1 2; do for b in main wide; do
  run $b $b-fib-r$r --runs 10 fib --n 25,30,35,40
done; done
for b in main wide; do
  run $b $b-nq-c7 --runs 3 nqueens --n 12,14,16 --cutoff 7 --form joined,detached
  run $b $b-epaq --runs 5 epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
  run $b $b-tree --runs 3 tree --depth 22
  run $b $b-uts --runs 3 uts --tree t1l,t3l
done
run wide wide-nq-nc --runs 3 nqueens --n 12,14,16 --cutoff 16 --form joined
for t in 0 256 4096; do
  run wide wide-t$t-fib --runs 5 --inline-wide-tasks $t fib --n 40
  run wide wide-t$t-nq-nc --runs 3 --inline-wide-tasks $t nqueens --n 14,16 --cutoff 16 --form joined
done
run wide wide-nq-nc-d8 --runs 3 --inline-min-depth 8 nqueens --n 16 --cutoff 16 --form joined
echo "== done $(date -u +%T)"
grep -h "^| " $O/*.md | grep -v "^| bench\|---" | sort | awk -F'|' '{print $2,$3,$4,$5,$8,$10,$14}' | head -150
tar czf $OUT/c4.tgz -C $OUT c4 && rm -rf $O
