#!/usr/bin/env bash
# Session 52, call 2 (2c67632: the wide-level rule from the grid's estimate of the tree's
# width, on top of whole-task calls): nqueens without a cutoff against its cutoff-7 program,
# base (0846ce9) and new alternated; sizes; knobs; the other programs the policy serves,
# base against new; programs_gpu, random_gpu, uts_gpu, batch_gpu, resident_gpu.
set -u
O=$OUT/c2; mkdir -p $O
pack() { tar -cJf "$OUT/c2.tar.xz" -C "$OUT" c2 2>/dev/null; }
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
    run nq-$v-r$r 100 $b --runs 5 nqueens --n 14,16 --cutoff 7 --form joined,auto
  done
  pack
done
run sizes-new 100 $B --runs 5 nqueens --n 8,10,12,13,15 --cutoff 7 --form joined,auto
pack
for v in "--inline-backoff-ratio 16" "--inline-task-rounds 0" "--inline-wide-tasks 512"; do
  name=$(echo $v | tr -d ' -')
  run knob-$name 60 $B --runs 3 $v nqueens --n 14,16 --form auto
done
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
for t in programs_gpu random_gpu uts_gpu batch_gpu resident_gpu; do
  timeout 150 .gpu-bin/tests/$t-* > $O/$t.log 2>&1; echo "$t rc=$? $(date -u +%T)" >> $O/gpu.txt; pack
done
cat $O/gpu.txt
for f in nq-new-r2 nq-base-r2 sizes-new; do echo "== $f"; grep '| gpu' $O/$f.md | cut -d'|' -f2,3,4,10,14; done
