#!/usr/bin/env bash
# Session 31 call 1 (H200): issue 20's fib gap taken apart: the policy's settings swept at
# 65132bb, and the EPAQ fib's leaf replaced by the generated sequential version (genleaf).
set -u
O=$OUT/c1; mkdir -p $O
xz -dc .gpu-exp/bench.xz > /tmp/bench && chmod +x /tmp/bench
for v in main genleaf; do xz -dc .gpu-exp/$v.ptx.xz > /tmp/$v.ptx; done
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
B=/tmp/bench
run() { local name=$1; shift; echo "== $name $(date -u +%T)"; timeout 120 $B --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
run fib-default-r1 --runs 10 fib --n 35,40
for d in 12 14 15 16 17 18 19 20 21; do run fib-d$d --runs 5 --inline-min-depth $d fib --n 40; done
for q in 4 8 16 64; do run fib-q$q --runs 5 --inline-min-queued $q fib --n 40; done
run fib-br0 --runs 5 --inline-backoff-ratio 0 fib --n 40
run fib-tr0 --runs 5 --inline-task-rounds 0 fib --n 40
run fib-br0tr0 --runs 5 --inline-backoff-ratio 0 --inline-task-rounds 0 fib --n 40
for d in 14 16 18; do run fib-d$d-br0tr0 --runs 5 --inline-min-depth $d --inline-backoff-ratio 0 --inline-task-rounds 0 fib --n 40; done
for d in 14 16 18; do run fib-d$d-q8 --runs 5 --inline-min-depth $d --inline-min-queued 8 fib --n 40; done
run hand-main --runs 5 --no-auto-granularity epaq fib --n 40 --cutoff 12,14,16 --leaf both --queues 1,3
run hand-genleaf --runs 5 --no-auto-granularity --ptx /tmp/genleaf.ptx epaq fib --n 40 --cutoff 12,14,16 --leaf calls --queues 1,3
run hand-main-tuned --runs 5 --no-auto-granularity --queue-order most-generated --top-up 2 --resume-inline epaq fib --n 40 --cutoff 14 --leaf both --queues 3
run hand-genleaf-tuned --runs 5 --no-auto-granularity --ptx /tmp/genleaf.ptx --queue-order most-generated --top-up 2 --resume-inline epaq fib --n 40 --cutoff 14 --leaf calls --queues 3
run nq-c7 --runs 3 nqueens --n 16 --cutoff 7 --form joined,detached
for d in 5 6 7 8; do run nq-nc-d$d --runs 3 --inline-min-depth $d nqueens --n 16 --cutoff 16 --form joined,detached; done
run fib-default-r2 --runs 10 fib --n 35,40
echo "== done $(date -u +%T)"
grep -h "^| " $O/*.md | grep -v "^| bench\|---" | head -120
tar czf $OUT/c1.tgz -C $OUT c1 && rm -rf $O
