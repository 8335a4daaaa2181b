#!/usr/bin/env bash
# Session 53, call 1: where the width estimate's cost on other programs goes (ncu on the
# cutoff-7 nqueens(12), head against new), then base (0846ce9), head (8f958bf = f14f1c4's
# device code) and new (share_fanout only by warps that counted) alternated; head with the
# estimate off; nqueens(16) auto's spread under variants of the policy.
set -u
T0=$(date +%s)
O=$OUT/c1; mkdir -p $O
pack() { tar -cJf "$OUT/c1.tar.xz" -C "$OUT" c1 2>/dev/null; }
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
for v in base head; do xz -dc .gpu-exp/s53/bench-$v.xz > /tmp/bench-$v; chmod +x /tmp/bench-$v; done
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
  for v in new head base; do
    run nq-$v-r$r 100 $(bin $v) --runs 7 nqueens --n 12,14,16 --cutoff 7 --form joined,auto
  done
  pack
done
run nq-head-w0 60 /tmp/bench-head --runs 7 --inline-wide-width 0 nqueens --n 12,14,16 --cutoff 7 --form joined
run fib-head-w0 60 /tmp/bench-head --runs 7 --inline-wide-width 0 fib --n 30,40
for r in 1 2; do
  for v in new head base; do
    run fib-$v-r$r 60 $(bin $v) --runs 7 fib --n 30,40
    run knap-$v-r$r 60 $(bin $v) --runs 5 knapsack
  done
  pack
done
for v in new head base; do
  run uts-$v 120 $(bin $v) --runs 3 uts
  run cilk-$v 60 $(bin $v) --runs 3 sort --algo cilksort --n 1e7
  pack
done
run auto-def 100 $B --runs 10 nqueens --n 14,16 --form auto
run auto-wt0 100 $B --runs 10 --inline-wide-tasks 0 nqueens --n 14,16 --form auto
run auto-ratio16 100 $B --runs 10 --inline-backoff-ratio 16 nqueens --n 14,16 --form auto
run auto-heavy0 100 $B --runs 10 --inline-grid-heavy-rounds 0 nqueens --n 14,16 --form auto
pack
for v in head new; do
  BENCH=$(bin $v) timeout 150 scripts/ncu-source.sh $O/prof nq12-$v gtap_nqueens -- --gpu-only --runs 0 nqueens --n 12 --cutoff 7 --form joined > $O/prof-$v.log 2>&1
  echo "ncu $v rc=$? $(date -u +%T)" >> $O/gpu.txt; pack
done
cat $O/gpu.txt
for f in nq-new-r3 nq-head-r3 nq-base-r3 nq-head-w0 auto-def auto-wt0 auto-ratio16 auto-heavy0; do echo "== $f"; grep '| gpu' $O/$f.md | cut -d'|' -f2,3,4,10,11,12,14; done
