#!/usr/bin/env bash
# Session 23, call 7, at main (the bundle's bench): which of the tuned options help the EPAQ
# programs, one at a time, with the policy on (the default), and what they do to 1-queue
# programs.
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
R=/tmp/s23c7; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
B=.gpu-bin/examples/bench
cfg() { # NAME FLAGS...
  local n=$1; shift; local o=$R/$n; mkdir -p $o
  timeout 120 $B --gpu-only --runs 3 --config-name $n "$@" --out $o/epaq.csv epaq all >$o/epaq.md 2>$o/epaq.log
  timeout 60 $B --gpu-only --runs 3 --config-name $n "$@" --out $o/fib.csv fib --n 30,35,40 >$o/fib.md 2>$o/fib.log
  timeout 60 $B --gpu-only --runs 3 --config-name $n "$@" --out $o/nq.csv nqueens --n 14,16 >$o/nq.md 2>$o/nq.log
  echo "$(date -u +%T) $n" >> $R/steps.txt
}
cfg default
cfg order --queue-order most-generated
cfg topup --top-up 2
cfg resume --resume-inline
cfg three --queue-order most-generated --top-up 2 --resume-inline
tar czf $OUT/s23c7.tgz -C /tmp s23c7
cfg occ --warps-per-sm 24 --max-registers 80
cfg default-2
cat $R/steps.txt
tar czf $OUT/s23c7.tgz -C /tmp s23c7
