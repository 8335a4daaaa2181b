#!/usr/bin/env bash
# Session 23, call 4: budgeted inline calls (branch wip/budget: an inline call gives up past
# --inline-budget spawns and its spawn becomes a task), one bench binary; fib without a
# cutoff at several budgets and depths, against the hand-written cutoff (EPAQ fib, policy off).
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
xz -dkf .gpu-exp/bench-budget.xz; chmod +x .gpu-exp/bench-budget
. scripts/jit-cache.sh
R=/tmp/s23c4; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt
B=.gpu-exp/bench-budget
run() { # NAME ARGS...
  local n=$1; shift
  timeout 100 $B --gpu-only --runs 5 --config-name $n "$@" --out $R/$n.csv fib --n 30,35,40 > $R/$n.md 2> $R/$n.log
  echo "$(date -u +%T) $n rc=$?" >> $R/steps.txt
}
run default
for b in 128 256 512 1024 4096; do run b$b --inline-budget $b; done
run b512-nobackoff --inline-budget 512 --inline-backoff-ratio 0 --inline-task-rounds 0
run b1024-nobackoff --inline-budget 1024 --inline-backoff-ratio 0 --inline-task-rounds 0
for d in 16 18 20; do run b512-d$d --inline-budget 512 --inline-min-depth $d; run b1024-d$d-nobackoff --inline-budget 1024 --inline-min-depth $d --inline-backoff-ratio 0 --inline-task-rounds 0; done
run default-2
tar czf $OUT/s23c4.tgz -C /tmp s23c4
timeout 60 $B --gpu-only --runs 5 --config-name policy-off --no-auto-granularity --out $R/cut.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 > $R/cut.md 2> $R/cut.log
timeout 60 $B --gpu-only --runs 5 --config-name tuned-policy-off --queue-order most-generated --top-up 2 --resume-inline --warps-per-sm 24 --max-registers 80 --no-auto-granularity --out $R/cut-tuned.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 3 > $R/cut-tuned.md 2> $R/cut-tuned.log
echo "$(date -u +%T) cutoff refs" >> $R/steps.txt
for cfg in "d6-b20000 --inline-min-depth 6 --inline-budget 20000" "d6-b200000 --inline-min-depth 6 --inline-budget 200000" "d4-b20000 --inline-min-depth 4 --inline-budget 20000"; do
  set -- $cfg; n=$1; shift
  timeout 100 $B --gpu-only --runs 3 --config-name nq-$n "$@" --out $R/nq-$n.csv nqueens --n 16 --cutoff 16 --form joined > $R/nq-$n.md 2> $R/nq-$n.log
  echo "$(date -u +%T) nq $n rc=$?" >> $R/steps.txt
done
cat $R/steps.txt
tar czf $OUT/s23c4.tgz -C /tmp s23c4
