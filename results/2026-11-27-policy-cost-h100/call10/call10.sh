#!/usr/bin/env bash
# Call 10 (session 22): the detached UTS T1L's +2.8% at dcb8dcd: base (9906367's bench)
# against the bundle's bench with the tasks-saved rule off (--inline-task-rounds 0, the count
# still made) and on (default 8), alternated twice.
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
xz -dkf .gpu-exp/bench-base.xz; chmod +x .gpu-exp/bench-base
. scripts/jit-cache.sh
R=/tmp/c10; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
u() { local o=$R/$1; shift; mkdir -p $o; timeout 100 "$@" --gpu-only --runs 5 --out $o/uts.csv uts >$o/uts.md 2>$o/uts.log; echo "$(date -u +%T) $o" >> $R/steps.txt; }
for i in 1 2; do
  u base-$i .gpu-exp/bench-base
  u f0-$i .gpu-bin/examples/bench --inline-task-rounds 0
  u f8-$i .gpu-bin/examples/bench
done
cat $R/steps.txt
tar czf $OUT/c10.tgz -C /tmp c10
