#!/usr/bin/env bash
# Call 4: idle sleep 4096 (main) against 256 and 64 ns, more runs; inline resumes on small fib; UTS T3L.
set -u
O=$OUT/c4; mkdir -p $O
xz -dc .gpu-exp/bench-main.xz > /tmp/bench && chmod +x /tmp/bench
for v in 256 64; do xz -dc .gpu-exp/v-idle$v.ptx.xz > /tmp/v-idle$v.ptx; done
export CUDA_CACHE_PATH=/tmp/cc CUDA_CACHE_MAXSIZE=4294967296; mkdir -p /tmp/cc
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
B=/tmp/bench
run() { local name=$1; shift; echo "== $name $(date -u +%T)"; $B --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 2 $O/$name.log)"; }
for round in 1 2; do
for v in main idle256 idle64; do
  p=(); [ $v != main ] && p=(--ptx /tmp/v-$v.ptx)
  run $v-fib-r$round --runs 10 "${p[@]}" fib --n 20,22,24,26,28,30,35,40
  run $v-nq-r$round --runs 10 "${p[@]}" nqueens --n 8,9,10,11,12,13,14,16 --cutoff 8
  run $v-epaq-r$round --runs 5 "${p[@]}" epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
done
done
run main-resinl --runs 10 --resume-inline fib --n 20,22,24,26,28,30
run idle256-resinl --runs 10 --resume-inline --ptx /tmp/v-idle256.ptx fib --n 20,22,24,26,28,30
run main-uts --runs 3 uts --tree t1l,t3l
run idle256-uts --runs 3 --ptx /tmp/v-idle256.ptx uts --tree t1l,t3l
run idle64-uts --runs 3 --ptx /tmp/v-idle64.ptx uts --tree t1l,t3l
echo "== done $(date -u +%T)"
tar czf $OUT/c4.tgz -C $OUT c4 && rm -rf $O
