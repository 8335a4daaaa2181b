#!/usr/bin/env bash
# Session 53, call 2: base (0846ce9), lift (2391caf: share_fanout by counting warps, named
# rounds do not lift) and new (c6553f7: + the task's depth in Ctx, read with its result slot)
# alternated; nqueens(16) auto one run per process, to count slow runs.
set -u
O=$OUT/c2; mkdir -p $O
pack() { tar -cJf "$OUT/c2.tar.xz" -C "$OUT" c2 2>/dev/null; }
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
for v in base lift; do xz -dc .gpu-exp/s53/bench-$v.xz > /tmp/bench-$v; chmod +x /tmp/bench-$v; done
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > $O/gpu.txt
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
bin() { case $1 in new) echo $B;; *) echo /tmp/bench-$1;; esac; }
run() { # name, timeout, binary, args...
  local name=$1 t=$2 b=$3; shift 3
  timeout $t $b --gpu-only "$@" --out $O/$name.csv > $O/$name.md 2> $O/$name.log
  echo "$name rc=$? $(date -u +%T)" >> $O/gpu.txt
}
for r in 1 2 3; do
  for v in new lift base; do
    run nq-$v-r$r 100 $(bin $v) --runs 7 nqueens --n 12,14,16 --cutoff 7 --form joined,auto
  done
  pack
done
for r in 1 2; do
  for v in new lift base; do
    run fib-$v-r$r 60 $(bin $v) --runs 7 fib --n 30,40
    run knap-$v-r$r 60 $(bin $v) --runs 5 knapsack
  done
  pack
done
for v in new lift base; do
  run uts-$v 120 $(bin $v) --runs 3 uts
  run cilk-$v 60 $(bin $v) --runs 3 sort --algo cilksort --n 1e7
  pack
done
for i in $(seq 1 12); do
  for v in new lift; do
    run one-$v-$i 30 $(bin $v) --runs 1 nqueens --n 16 --form auto
  done
done
pack
cat $O/gpu.txt | tail -3
for f in nq-new-r3 nq-lift-r3 nq-base-r3; do echo "== $f"; grep '| gpu' $O/$f.md | cut -d'|' -f2,3,4,10,11,12,14; done
for v in new lift; do echo "$v: $(for i in $(seq 1 12); do grep '| gpu' $O/one-$v-$i.md | cut -d'|' -f10; done | tr -s ' \n' ' ')"; done
