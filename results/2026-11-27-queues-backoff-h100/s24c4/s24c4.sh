#!/usr/bin/env bash
# Session 24, call 4: the back-off's two settings (ratio, task rounds) and min_queued, swept
# over the programs the policy serves, at main (the bundle's bench), default launch.
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
R=/tmp/s24c4; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
B=.gpu-bin/examples/bench
cfg() { # NAME FLAGS...
  local n=$1; shift; local o=$R/$n; mkdir -p $o
  timeout 60 $B --gpu-only --runs 5 --config-name $n "$@" --out $o/fib.csv fib --n 30,35,40 >$o/fib.md 2>$o/fib.log
  timeout 60 $B --gpu-only --runs 5 --config-name $n "$@" --out $o/epaq.csv epaq fib >$o/epaq.md 2>$o/epaq.log
  timeout 90 $B --gpu-only --runs 3 --config-name $n "$@" --out $o/gran.csv granularity --full-depth 22 --mem-ops 0,256 >$o/gran.md 2>$o/gran.log
  timeout 60 $B --gpu-only --runs 3 --config-name $n "$@" --out $o/uts.csv uts >$o/uts.md 2>$o/uts.log
  timeout 60 $B --gpu-only --runs 3 --config-name $n "$@" --out $o/nq.csv nqueens --n 12,16 >$o/nq.md 2>$o/nq.log
  echo "$(date -u +%T) $n $?" >> $R/steps.txt
}
cfg r2t8
cfg r0t0 --inline-backoff-ratio 0 --inline-task-rounds 0
cfg r0t8 --inline-backoff-ratio 0
cfg r2t0 --inline-task-rounds 0
cfg r4t8 --inline-backoff-ratio 4
cfg r8t8 --inline-backoff-ratio 8
tar czf $OUT/s24c4.tgz -C /tmp s24c4
cfg r2t32 --inline-task-rounds 32
cfg r8t32 --inline-backoff-ratio 8 --inline-task-rounds 32
cfg r2t8q64 --inline-min-queued 64
cfg r0t0q64 --inline-backoff-ratio 0 --inline-task-rounds 0 --inline-min-queued 64
cfg r2t8-2
cfg r0t0-2 --inline-backoff-ratio 0 --inline-task-rounds 0
cat $R/steps.txt
tar czf $OUT/s24c4.tgz -C /tmp s24c4
