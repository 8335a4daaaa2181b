#!/usr/bin/env bash
# Call 3: the idle warps' longest sleep (4096 ns on main) against 1024 and 256, same call.
set -u
O=$OUT/c3; mkdir -p $O
xz -dc .gpu-exp/bench-main.xz > /tmp/bench && chmod +x /tmp/bench
for v in 256 1024; do xz -dc .gpu-exp/v-idle$v.ptx.xz > /tmp/v-idle$v.ptx; done
export CUDA_CACHE_PATH=/tmp/cc CUDA_CACHE_MAXSIZE=4294967296; mkdir -p /tmp/cc
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
B=/tmp/bench
run() { local name=$1; shift; echo "== $name $(date -u +%T)"; $B --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 2 $O/$name.log)"; }
for round in 1 2; do
for v in main idle256 idle1024; do
  p=(); [ $v != main ] && p=(--ptx /tmp/v-$v.ptx)
  run $v-fib-r$round --runs 5 "${p[@]}" fib --n 20,22,24,26,28,30,35,40
  run $v-nq-r$round --runs 5 "${p[@]}" nqueens --n 8,10,12,14,16 --cutoff 8
  run $v-epaq-r$round --runs 5 "${p[@]}" epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
done
done
run main-uts --runs 3 uts --tree t1l
run idle256-uts --runs 3 --ptx /tmp/v-idle256.ptx uts --tree t1l
echo "== done $(date -u +%T)"
tar czf $OUT/c3.tgz -C $OUT c3 && rm -rf $O
