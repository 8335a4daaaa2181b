#!/usr/bin/env bash
# Storage branch, GPU call 3: registers, the fixed tests, fast-path timings (base, v1, v2),
# the GPU suites that run the changed paths. One log ($OUT/all.log), a summary on stdout.
set -u
cd "$(dirname "$0")"
L=${OUT:-/tmp}/all.log
: > $L
say() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >> $L 2>&1
say "== registers"
for b in base new new2; do python3 regs.py bench-$b gtap_fib,gtap_nqueens 2>&1 | tee -a $L; done
for t in storage_gpu language_gpu; do
  say "== $t"
  GTAP_REQUIRE_GPU=1 timeout -k 5 90 ./$t --test-threads=1 >> $L 2>&1; say "rc $?"
done
for round in 1 2; do
  for b in base new new2; do
    for p in fib nqueens; do
      timeout -k 5 60 ./bench-$b --gpu-only --runs 10 $p > t.log 2>&1; rc=$?
      cat t.log >> $L; say "$p $b round $round rc $rc: $(grep -E 'median' t.log | tail -1 | cut -c1-110)"
    done
  done
done
for t in batch_gpu block_programs_gpu mixed_gpu programs_gpu runtime_gpu; do
  [ -x ./$t ] || continue
  say "== $t"
  GTAP_REQUIRE_GPU=1 timeout -k 5 75 ./$t --test-threads=1 >> $L 2>&1; say "rc $?"
  grep -E "test result|FAILED|failed" $L | tail -2
done
rm -f t.log
