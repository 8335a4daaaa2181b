#!/usr/bin/env bash
# Session 27, call 10: the branch without the bootstrap's four extra levels (noboot.ptx)
# against call 9's (path.ptx) and main.
set -u
. scripts/jit-cache.sh
R=/tmp/s27c10; rm -rf $R; mkdir -p $R /tmp/s27bin
for b in main leaf; do xz -dc .gpu-exp/bench-$b.xz > /tmp/s27bin/bench-$b; chmod +x /tmp/s27bin/bench-$b; done
for p in path noboot; do xz -dc .gpu-exp/$p.ptx.xz > /tmp/s27bin/$p.ptx; done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt; cat .gpu-exp/COMMIT >> $R/gpu.txt
run() { # NAME BENCH WHAT ARGS...
  local n=$1; shift; local b=$1; shift; local what=$1; shift; local o=$R/$n; mkdir -p $o
  timeout 150 /tmp/s27bin/bench-$b --gpu-only --config-name $n --out $o/$what.csv "$@" > $o/$what.md 2> $o/$what.log
  echo "$(date -u +%T) $n $what $?" >> $R/steps.txt
}
run main main fib --runs 5 fib --n 25,30,35,40
run path leaf fib --runs 5 --ptx /tmp/s27bin/path.ptx fib --n 25,30,35,40
run noboot leaf fib --runs 5 --ptx /tmp/s27bin/noboot.ptx fib --n 25,30,35,40
run noboot leaf gran --runs 3 --ptx /tmp/s27bin/noboot.ptx granularity
run main-2 main fib --runs 5 fib --n 30,35,40
run noboot-2 leaf fib --runs 5 --ptx /tmp/s27bin/noboot.ptx fib --n 30,35,40
cat $R/steps.txt
tar czf $OUT/s27c10.tgz -C /tmp s27c10
