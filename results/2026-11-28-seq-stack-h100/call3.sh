#!/usr/bin/env bash
# Session 29 call 3: fib's sequential leaf as coroutines driven from a local stack, against the
# explicit-stack leaf, GTaP's u32 recursion and the generated seq::fib (u64 recursion).
set -u
O=$OUT/s3; mkdir -p $O
xz -dc .gpu-exp/bench-main.xz > /tmp/bench && chmod +x /tmp/bench
for v in main coro seqleaf; do xz -dc .gpu-exp/$v.ptx.xz > /tmp/$v.ptx; done
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
B=/tmp/bench
run() { local name=$1; shift; echo "== $name $(date -u +%T)"; timeout 120 $B --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
for round in 1 2; do
  run main-calls-r$round --runs 5 --ptx /tmp/main.ptx --no-auto-granularity epaq fib --n 40 --cutoff 8,10,12 --leaf calls --queues 1,3
  for v in main coro seqleaf; do
    run $v-stack-r$round --runs 5 --ptx /tmp/$v.ptx --no-auto-granularity epaq fib --n 40 --cutoff 8,10,12 --leaf stack --queues 1,3
  done
done
echo "== done $(date -u +%T)"
tar czf $OUT/s3.tgz -C $OUT s3 && rm -rf $O
