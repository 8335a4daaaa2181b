#!/usr/bin/env bash
# Session 52, call 3 (cbb6b6c: whole calls for named versions only, 32-bit level counts,
# --inline-wide-width): nqueens without a cutoff against its cutoff-7 program, base
# (0846ce9) and new alternated; the estimate's width; the other programs, base against new;
# GPU test binaries until a deadline.
set -u
T0=$(date +%s)
O=$OUT/c3; mkdir -p $O
pack() { tar -cJf "$OUT/c3.tar.xz" -C "$OUT" c3 2>/dev/null; }
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
xz -dc .gpu-exp/s52/bench-base.xz > /tmp/bench-base; chmod +x /tmp/bench-base
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > $O/gpu.txt
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
run() { # name, timeout, binary, args...
  local name=$1 t=$2 b=$3; shift 3
  timeout $t $b --gpu-only "$@" --out $O/$name.csv > $O/$name.md 2> $O/$name.log
  echo "$name rc=$? $(date -u +%T)" >> $O/gpu.txt
}
for r in 1 2; do
  for v in new base; do
    b=$B; [ $v = base ] && b=/tmp/bench-base
    run nq-$v-r$r 100 $b --runs 5 nqueens --n 12,14,16 --cutoff 7 --form joined,auto
  done
  pack
done
run sizes-new 100 $B --runs 5 nqueens --n 8,10,13,15 --cutoff 7 --form joined,auto
for w in 16 64 128; do run width$w 60 $B --runs 3 --inline-wide-width $w nqueens --n 12,14,16 --form auto; done
run width64-br16 60 $B --runs 3 --inline-wide-width 64 --inline-backoff-ratio 16 nqueens --n 14,16 --form auto
run width0 60 $B --runs 3 --inline-wide-width 0 nqueens --n 14,16 --form auto
pack
for v in new base; do
  b=$B; [ $v = base ] && b=/tmp/bench-base
  run gen-$v 60 $b --runs 3 nqueens --n 14,16 --cutoff 16 --form joined
  run uts-$v 120 $b --runs 3 uts
  run fib-$v 60 $b --runs 5 fib --n 30,40
  run knap-$v 60 $b --runs 3 knapsack
  run cilk-$v 60 $b --runs 3 sort --algo cilksort --n 1e7
  pack
done
for t in random_gpu blocks_gpu block_programs_gpu runtime_gpu storage_gpu language_gpu mixed_gpu; do
  left=$(( 470 - ($(date +%s) - T0) ))
  [ $left -lt 40 ] && { echo "$t not run (deadline)" >> $O/gpu.txt; continue; }
  timeout $left .gpu-bin/tests/$t-* > $O/$t.log 2>&1; echo "$t rc=$? $(date -u +%T)" >> $O/gpu.txt; pack
done
cat $O/gpu.txt
for f in nq-new-r2 nq-base-r2; do echo "== $f"; grep '| gpu' $O/$f.md | cut -d'|' -f2,3,4,10,14; done
