#!/usr/bin/env bash
# Session 24, call 1: upper bounds of cheaper join fences (PTX variants, not correct in
# general): acqcta = release RMW + cta-scope fence on triggers; allcta = relaxed RMW with
# cta-scope fences. Base = the bundle's bench (main, 0fed0d0 code).
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
R=/tmp/s24c1; rm -rf $R; mkdir -p $R
for v in acqcta allcta; do xz -dc .gpu-exp/$v.ptx.xz > $R/$v.ptx; done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
B=.gpu-bin/examples/bench
cfg() { # NAME FLAGS...
  local n=$1; shift; local o=$R/$n; mkdir -p $o
  timeout 150 $B --gpu-only --runs 5 --config-name $n "$@" --out $o/epaq.csv epaq fib >$o/epaq.md 2>$o/epaq.log
  timeout 90 $B --gpu-only --runs 5 --config-name $n "$@" --out $o/fib.csv fib --n 30,35,40 >$o/fib.md 2>$o/fib.log
  timeout 90 $B --gpu-only --runs 5 --config-name $n "$@" --out $o/nq.csv nqueens --n 12,16 --form joined,detached >$o/nq.md 2>$o/nq.log
  timeout 90 $B --gpu-only --runs 3 --config-name $n "$@" --out $o/sort.csv sort --algo cilksort >$o/sort.md 2>$o/sort.log
  echo "$(date -u +%T) $n $?" >> $R/steps.txt
}
cfg base
cfg acqcta --ptx $R/acqcta.ptx
cfg allcta --ptx $R/allcta.ptx
tar czf $OUT/s24c1.tgz -C /tmp s24c1
cfg base-2
cfg acqcta-2 --ptx $R/acqcta.ptx
cfg allcta-2 --ptx $R/allcta.ptx
cat $R/steps.txt
tar czf $OUT/s24c1.tgz -C /tmp s24c1
