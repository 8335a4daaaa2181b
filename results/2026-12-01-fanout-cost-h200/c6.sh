#!/usr/bin/env bash
# Session 53, call 6: the bench of the final main (default configuration, width 32), nqueens
# 12 to 16 without a cutoff against the cutoff-7 program, one run per process at 16; fib.
set -u
O=$OUT/c6; mkdir -p $O
xz -dc .gpu-exp/s53f/bench-final.xz > /tmp/bench; chmod +x /tmp/bench
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; git rev-parse HEAD 2>/dev/null; } > $O/gpu.txt
. scripts/jit-cache.sh
run() { local name=$1; shift; timeout 100 /tmp/bench --gpu-only "$@" --out $O/$name.csv > $O/$name.md 2> $O/$name.log; echo "$name rc=$? $(date -u +%T)" >> $O/gpu.txt; }
run nq --runs 10 nqueens --n 12,13,14,15,16 --cutoff 7 --form joined,auto
for i in $(seq 1 5); do run one-$i --runs 1 nqueens --n 16 --form auto; done

tar -cJf $OUT/c6.tar.xz -C $OUT c6
echo "one: $(for i in $(seq 1 5); do grep '| gpu' $O/one-$i.md | cut -d'|' -f10; done | tr -s ' \n' ' ')"
grep '| gpu' $O/nq.md $O/fib.md | cut -d'|' -f2,3,4,10,11,12,13,14
