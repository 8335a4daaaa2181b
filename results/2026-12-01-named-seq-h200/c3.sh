#!/usr/bin/env bash
# Session 51, call 3 (0633666's bundle = 4abbfc0's kernels): the wide-level rule's threshold
# (--inline-wide-tasks) across the programs it serves: nqueens::auto 12/14/16, nqueens with
# the generated loop (cutoff = n) 14/16, UTS T1L/T3L (joined and detached), fib(40).
set -u
O=$OUT/c3; mkdir -p $O
pack() { tar -cJf "$OUT/c3.tar.xz" -C "$OUT" c3 2>/dev/null; }
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > $O/gpu.txt
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
for w in 2048 1024 512 256 128 2048; do
  f="--inline-wide-tasks $w"
  timeout 60 $B --gpu-only --runs 3 $f --out $O/w$w-auto.csv nqueens --n 12,14,16 --form auto > $O/w$w-auto.md 2> $O/w$w-auto.log
  timeout 60 $B --gpu-only --runs 3 $f --out $O/w$w-gen14.csv nqueens --n 14 --cutoff 14 --form joined > $O/w$w-gen14.md 2> $O/w$w-gen14.log
  timeout 60 $B --gpu-only --runs 3 $f --out $O/w$w-gen16.csv nqueens --n 16 --cutoff 16 --form joined > $O/w$w-gen16.md 2> $O/w$w-gen16.log
  timeout 90 $B --gpu-only --runs 3 $f --out $O/w$w-uts.csv uts > $O/w$w-uts.md 2> $O/w$w-uts.log
  timeout 60 $B --gpu-only --runs 3 $f --out $O/w$w-fib.csv fib --n 40 > $O/w$w-fib.md 2> $O/w$w-fib.log
  echo "w$w $(date -u +%T)" >> $O/gpu.txt; pack
done
cat $O/gpu.txt
for w in 2048 1024 512 256 128; do echo "== $w"; cat $O/w$w-*.md | grep '| gpu' | cut -d'|' -f2,3,4,7,10,14; done
