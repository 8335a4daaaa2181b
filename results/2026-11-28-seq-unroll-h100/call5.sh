#!/usr/bin/env bash
# Session 29 call 5: main against u4: self-recursive sequential versions at one or two sites unrolled one level, their out-of-line version never inlined.
set -u
O=$OUT/s5; mkdir -p $O
xz -dc .gpu-exp/bench-main.xz > /tmp/bench && chmod +x /tmp/bench
for v in main u4; do xz -dc .gpu-exp/$v.ptx.xz > /tmp/$v.ptx; done
export CUDA_CACHE_PATH=/tmp/cc CUDA_CACHE_MAXSIZE=4294967296; mkdir -p /tmp/cc
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
B=/tmp/bench
run() { local name=$1; shift; echo "== $name $(date -u +%T)"; timeout 120 $B --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
for round in 1 2; do
for v in main u4; do
  p=(--ptx /tmp/$v.ptx)
  run $v-fib-r$round --runs 10 "${p[@]}" fib --n 20,25,30,35,40
done
done
for v in main u4; do
  p=(--ptx /tmp/$v.ptx)
  run $v-nq --runs 5 "${p[@]}" nqueens --n 12,14,16 --cutoff 7 --form joined,detached
  #run $v-nqnc --runs 3 "${p[@]}" nqueens --n 14,16 --cutoff 16 --form joined,detached
  run $v-nqnc-d7 --runs 3 "${p[@]}" --inline-min-depth 7 nqueens --n 14,16 --cutoff 16 --form joined,detached
  run $v-epaq --runs 5 "${p[@]}" epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
  run $v-tree --runs 5 "${p[@]}" tree --depth 22
done
for v in main u4; do
  run $v-uts --runs 3 --ptx /tmp/$v.ptx uts --tree t1l,t3l
done
for v in main u4; do run $v-fib-off --runs 5 --ptx /tmp/$v.ptx --no-auto-granularity fib --n 35,40; done
echo "== done $(date -u +%T)"
tar czf $OUT/s5.tgz -C $OUT s5 && rm -rf $O
