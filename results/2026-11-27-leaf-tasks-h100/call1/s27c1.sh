#!/usr/bin/env bash
# Session 27, call 1: occupancy against the register cap, policy on (fib and nqueens without
# a cutoff) and off (the hand cutoffs), with the bundle's bench (main's code).
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
export GTAP_JIT_CACHE_TAR=.gpu-exp/jitcache.txz
. scripts/jit-cache.sh
R=/tmp/s27c1; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
B=.gpu-bin/examples/bench
cfg() { # NAME FLAGS...
  local n=$1; shift; local o=$R/$n; mkdir -p $o
  timeout 120 $B --gpu-only --runs 5 --config-name $n "$@" --out $o/fib.csv fib --n 30,35,40 >$o/fib.md 2>$o/fib.log
  echo "$(date -u +%T) $n fib $?" >> $R/steps.txt
  timeout 120 $B --gpu-only --runs 5 --config-name $n "$@" --out $o/epaq.csv epaq fib >$o/epaq.md 2>$o/epaq.log
  timeout 60 $B --gpu-only --runs 5 --config-name $n-off --no-auto-granularity "$@" --out $o/epaq-off.csv epaq fib >$o/epaq-off.md 2>$o/epaq-off.log
  timeout 120 $B --gpu-only --runs 3 --config-name $n "$@" --out $o/nq.csv nqueens --n 14,16 --cutoff 7,16 >$o/nq.md 2>$o/nq.log
  echo "$(date -u +%T) $n rest $?" >> $R/steps.txt
  tar czf $OUT/s27c1.tgz -C /tmp s27c1
}
cfg def
cfg r80w24 --max-registers 80 --warps-per-sm 24
cfg r64w32 --max-registers 64 --warps-per-sm 32
cfg r96w20 --max-registers 96 --warps-per-sm 20
cfg r128w16 --max-registers 128
cfg r72w28 --max-registers 72 --warps-per-sm 28
cat $R/steps.txt
tar czf $OUT/s27c1.tgz -C /tmp s27c1
