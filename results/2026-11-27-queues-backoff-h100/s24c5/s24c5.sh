#!/usr/bin/env bash
# Session 24, call 5: spawns into another queue stay tasks (xq, PTX from the working tree on
# main), with back-off ratios 2 (default), 4, 8; base = the bundle's bench (main).
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
R=/tmp/s24c5; rm -rf $R; mkdir -p $R
xz -dc .gpu-exp/xq.ptx.xz > $R/xq.ptx
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
B=.gpu-bin/examples/bench
cfg() { # NAME FLAGS...
  local n=$1; shift; local o=$R/$n; mkdir -p $o
  timeout 60 $B --gpu-only --runs 5 --config-name $n "$@" --out $o/fib.csv fib --n 30,35,40 >$o/fib.md 2>$o/fib.log
  timeout 120 $B --gpu-only --runs 5 --config-name $n "$@" --out $o/epaq.csv epaq all >$o/epaq.md 2>$o/epaq.log
  timeout 90 $B --gpu-only --runs 3 --config-name $n "$@" --out $o/gran.csv granularity --full-depth 22 --mem-ops 0,256 >$o/gran.md 2>$o/gran.log
  timeout 60 $B --gpu-only --runs 3 --config-name $n "$@" --out $o/uts.csv uts >$o/uts.md 2>$o/uts.log
  echo "$(date -u +%T) $n $?" >> $R/steps.txt
}
cfg base
cfg xq --ptx $R/xq.ptx
cfg xq-r4 --ptx $R/xq.ptx --inline-backoff-ratio 4
cfg xq-r8 --ptx $R/xq.ptx --inline-backoff-ratio 8
cfg base-r4 --inline-backoff-ratio 4
tar czf $OUT/s24c5.tgz -C /tmp s24c5
cfg xq-r4t16 --ptx $R/xq.ptx --inline-backoff-ratio 4 --inline-task-rounds 16
cfg xq-r16 --ptx $R/xq.ptx --inline-backoff-ratio 16
cfg base-2
cfg xq-2 --ptx $R/xq.ptx
cfg xq-r4-2 --ptx $R/xq.ptx --inline-backoff-ratio 4
cfg xq-r8-2 --ptx $R/xq.ptx --inline-backoff-ratio 8
cat $R/steps.txt
tar czf $OUT/s24c5.tgz -C /tmp s24c5
