#!/usr/bin/env bash
# Call 1: nqueens without a cutoff under fixed inline depths; the size sweep at HEAD.
set -u
O=$OUT/c1; mkdir -p $O
xz -dc .gpu-exp/bench-main.xz > /tmp/bench && chmod +x /tmp/bench
export CUDA_CACHE_PATH=/tmp/cc CUDA_CACHE_MAXSIZE=4294967296; mkdir -p /tmp/cc
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
B=/tmp/bench
run() { local name=$1; shift; echo "== $name $(date -u +%T)"; $B --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 2 $O/$name.log)"; }
run ref --runs 3 nqueens --n 14,16 --cutoff 7,8
run d-default --runs 3 nqueens --n 14,16 --cutoff 16
for d in 5 6 7 8 9; do run d$d --runs 3 --inline-min-depth $d nqueens --n 14,16 --cutoff 16; done
run fibref --runs 3 fib --n 30,35,40
echo "== sweep $(date -u +%T)"
BENCH=/tmp/bench GTAP_COMMIT=1aac8bd bash scripts/size-sweep.sh $O/sweep > $O/sweep.log 2>&1 || echo "sweep rc=$?"
echo "== done $(date -u +%T)"
