#!/usr/bin/env bash
# Session 27, call 2: fib without a cutoff, the policy's depth in units of subtree size with
# fib's fractions given (oracle PTX), against main's bench: is a size frontier enough?
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
export GTAP_JIT_CACHE_TAR=.gpu-exp/jitcache.txz
. scripts/jit-cache.sh
R=/tmp/s27c2; rm -rf $R; mkdir -p $R
xz -dc .gpu-exp/oracle.ptx.xz > $R/oracle.ptx
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
B=.gpu-bin/examples/bench
NB="--inline-backoff-ratio 0 --inline-task-rounds 0"
cfg() { # NAME FLAGS...
  local n=$1; shift; local o=$R/$n; mkdir -p $o
  timeout 120 $B --gpu-only --runs 5 --config-name $n "$@" --out $o/fib.csv fib --n 30,35,40 >$o/fib.md 2>$o/fib.log
  echo "$(date -u +%T) $n fib $?" >> $R/steps.txt
}
O="--ptx $R/oracle.ptx"
cfg base
cfg base-mq0-nb --inline-min-queued 0 $NB
cfg or $O
for d in 19 20 21 22 23 24; do cfg or-d$d-mq0-nb $O --inline-min-depth $d --inline-min-queued 0 $NB; done
cfg or-d21-mq0 $O --inline-min-queued 0
cfg or-d21-nb $O $NB
cfg or-d22-mq8-nb $O --inline-min-depth 22 --inline-min-queued 8 $NB
timeout 60 $B --gpu-only --runs 5 --config-name hand-off --no-auto-granularity --out $R/hand.csv epaq fib > $R/hand.md 2>$R/hand.log
tar czf $OUT/s27c2.tgz -C /tmp s27c2
cfg base-2
cfg or-d21-mq0-nb-2 $O --inline-min-depth 21 --inline-min-queued 0 $NB
cfg or-d22-mq0-nb-2 $O --inline-min-depth 22 --inline-min-queued 0 $NB
cat $R/steps.txt
tar czf $OUT/s27c2.tgz -C /tmp s27c2
