#!/usr/bin/env bash
# Call 2: the size sweep at HEAD; nqueens without a cutoff with count_seq out of line.
set -u
O=$OUT/c2; mkdir -p $O
xz -dc .gpu-exp/bench-main.xz > /tmp/bench && chmod +x /tmp/bench
xz -dc .gpu-exp/v-noinline.ptx.xz > /tmp/v-noinline.ptx
export CUDA_CACHE_PATH=/tmp/cc CUDA_CACHE_MAXSIZE=4294967296; mkdir -p /tmp/cc
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
B=/tmp/bench
run() { local name=$1; shift; echo "== $name $(date -u +%T)"; $B --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 2 $O/$name.log)"; }
run main-ref --runs 3 nqueens --n 14,16 --cutoff 7,8
run noinl-ref --runs 3 --ptx /tmp/v-noinline.ptx nqueens --n 14,16 --cutoff 7,8
run noinl-default --runs 3 --ptx /tmp/v-noinline.ptx nqueens --n 14,16 --cutoff 16
for d in 6 7 8 9 10; do run noinl-d$d --runs 3 --ptx /tmp/v-noinline.ptx --inline-min-depth $d nqueens --n 14,16 --cutoff 16; done
echo "== sweep $(date -u +%T)"
BENCH=/tmp/bench GTAP_COMMIT=1aac8bd bash scripts/size-sweep.sh $O/sweep > $O/sweep.log 2>&1 || echo "sweep rc=$?"
echo "== done $(date -u +%T)"
tar czf $OUT/c2.tgz -C $OUT c2 && rm -rf $O
