#!/usr/bin/env bash
# Session 27, call 4: leaf tasks (a deep spawn becomes a task that runs its sequential version
# when taken, optionally in a queue of its own) against inline calls; fib without a cutoff.
set -u

. scripts/jit-cache.sh
R=/tmp/s27c4; rm -rf $R; mkdir -p $R
xz -dc .gpu-exp/oracle-leaf.ptx.xz > $R/oracle.ptx
xz -dc .gpu-exp/bench-leaf.xz > $R/bench; chmod +x $R/bench
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt; git log -1 --format=%H >> $R/gpu.txt
NB="--inline-backoff-ratio 0 --inline-task-rounds 0"
cfg() { # NAME BENCH FLAGS...
  local n=$1; shift; local b=$1; shift; local o=$R/$n; mkdir -p $o
  timeout 100 $b --gpu-only --runs 5 --config-name $n "$@" --out $o/fib.csv fib --n 30,35,40 >$o/fib.md 2>$o/fib.log
  echo "$(date -u +%T) $n fib $?" >> $R/steps.txt
}
L=$R/bench; O="--ptx $R/oracle.ptx"

cfg l0 $L
cfg l1 $L --leaf-tasks 1
cfg l2q2 $L --leaf-tasks 2 --num-queues 2
cfg l1-nb $L --leaf-tasks 1 $NB
cfg l2q2-nb $L --leaf-tasks 2 --num-queues 2 $NB
cfg l2q2-mq0 $L --leaf-tasks 2 --num-queues 2 --inline-min-queued 0
cfg l1q2 $L --leaf-tasks 1 --num-queues 2
tar czf $OUT/s27c4.tgz -C /tmp s27c4
cfg or-l1 $L $O --leaf-tasks 1
cfg or-l2q2 $L $O --leaf-tasks 2 --num-queues 2
for d in 19 20 21 22 23; do
  cfg or-l2q2-d$d-nb $L $O --leaf-tasks 2 --num-queues 2 --inline-min-depth $d $NB
  cfg or-l2q2-d$d-mq0-nb $L $O --leaf-tasks 2 --num-queues 2 --inline-min-depth $d --inline-min-queued 0 $NB
done
cfg or-l1-d21-mq0-nb $L $O --leaf-tasks 1 --inline-min-depth 21 --inline-min-queued 0 $NB
tar czf $OUT/s27c4.tgz -C /tmp s27c4
cfg l0-2 $L
cfg l2q2-2 $L --leaf-tasks 2 --num-queues 2
cfg l1-2 $L --leaf-tasks 1
timeout 100 $L --gpu-only --runs 5 --config-name l2q2 --leaf-tasks 2 --num-queues 2 --out $R/nq.csv nqueens --n 14 --cutoff 7 > $R/nq.md 2> $R/nq.log
cat $R/steps.txt
tar czf $OUT/s27c4.tgz -C /tmp s27c4
