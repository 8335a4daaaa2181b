#!/usr/bin/env bash
# Session 24, call 2: call 1 again with a bench that reports wrong results instead of stopping (the variants read stale results; timing only).
# general): acqcta = release RMW + cta-scope fence on triggers; allcta = relaxed RMW with
# cta-scope fences. Base = the bundle's bench (main, 0fed0d0 code).
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
R=/tmp/s24c2; rm -rf $R; mkdir -p $R
for v in acqcta; do xz -dc .gpu-exp/$v.ptx.xz > $R/$v.ptx; done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
B0=.gpu-bin/examples/bench
xz -dc .gpu-exp/bench-noassert.xz > $R/bench-na; chmod +x $R/bench-na
cfg() { # BENCH NAME FLAGS...
  local B=$1; shift; local n=$1; shift; local o=$R/$n; mkdir -p $o
  timeout 150 $B --gpu-only --runs 5 --config-name $n "$@" --out $o/epaq.csv epaq fib >$o/epaq.md 2>$o/epaq.log
  timeout 90 $B --gpu-only --runs 5 --config-name $n "$@" --out $o/fib.csv fib --n 30,35,40 >$o/fib.md 2>$o/fib.log
  timeout 90 $B --gpu-only --runs 5 --config-name $n "$@" --out $o/nq.csv nqueens --n 12,16 --form joined,detached >$o/nq.md 2>$o/nq.log
  timeout 90 $B --gpu-only --runs 3 --config-name $n "$@" --out $o/sort.csv sort --algo cilksort >$o/sort.md 2>$o/sort.log
  echo "$(date -u +%T) $n $?" >> $R/steps.txt
}
cfg $B0 base
cfg $R/bench-na acqcta --ptx $R/acqcta.ptx
cfg $R/bench-na allcta
tar czf $OUT/s24c2.tgz -C /tmp s24c2
cfg $B0 base-2
cfg $R/bench-na acqcta-2 --ptx $R/acqcta.ptx
cfg $R/bench-na allcta-2
cat $R/steps.txt
tar czf $OUT/s24c2.tgz -C /tmp s24c2
