#!/usr/bin/env bash
# Session 24, call 3: the policy's depth in units of subtree size, with fib's fractions given
# (oracle: the first spawn 0.618 of the parent, the second 0.382; depth steps of 11 and 22
# sixteenths of a level). Base = the bundle's bench (main's code).
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
R=/tmp/s24c3; rm -rf $R; mkdir -p $R
xz -dc .gpu-exp/oracle.ptx.xz > $R/oracle.ptx
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
B=.gpu-bin/examples/bench
cfg() { # NAME WHAT FLAGS...
  local n=$1; shift; local what=$1; shift; local o=$R/$n; mkdir -p $o
  if [ "$what" = all ]; then
    timeout 150 $B --gpu-only --runs 5 --config-name $n "$@" --out $o/epaq.csv epaq fib >$o/epaq.md 2>$o/epaq.log
  fi
  timeout 90 $B --gpu-only --runs 5 --config-name $n "$@" --out $o/fib.csv fib --n 25,30,35,40 >$o/fib.md 2>$o/fib.log
  echo "$(date -u +%T) $n $?" >> $R/steps.txt
}
cfg base all
cfg oracle all --ptx $R/oracle.ptx
for d in 17 19 23 25; do cfg oracle-d$d fib --ptx $R/oracle.ptx --inline-min-depth $d; done
cfg oracle-nobackoff fib --ptx $R/oracle.ptx --inline-backoff-ratio 0 --inline-task-rounds 0
cfg base-nobackoff fib --inline-backoff-ratio 0 --inline-task-rounds 0
tar czf $OUT/s24c3.tgz -C /tmp s24c3
cfg base-2 all
cfg oracle-2 all --ptx $R/oracle.ptx
cat $R/steps.txt
tar czf $OUT/s24c3.tgz -C /tmp s24c3
